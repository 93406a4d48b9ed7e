package orderfile

import (
	"bufio"
	"encoding/csv"
	"errors"
	"io"
	"strings"
)

// record is one row of a file as it stands: its cells, where it is, and a
// problem of the whole row (a quote out of place, a row too long).
type record struct {
	line    int // the row's first line (CSV) or its row number (XLSX)
	cells   []string
	problem *Problem
}

// source gives a file's records one by one, io.EOF after the last.
type source interface {
	next() (record, error)
}

// Bounds of one CSV record, so a broken quote cannot swallow the file.
const (
	maxRecordBytes = 256 << 10 // a longer record is a problem of its row and is not read
	maxRecordLines = 100       // lines one quoted cell may span (a note with line breaks)
)

// line is one physical line of a CSV file, with its line break.
type line struct {
	text    string
	num     int
	tooLong bool
}

// csvSource splits the text into records line by line, keeping quoted cells
// with line breaks together, and has encoding/csv read each record strictly.
// A record it refuses (a quote not closed or out of place) becomes its first
// line alone, read leniently and marked; the lines after it are read again,
// so one broken quote costs one row, not the rest of the file.
type csvSource struct {
	src     *bufio.Reader
	sep     byte
	lines   int    // physical lines read so far
	pending []line // lines to read again
	group   []line
	scratch []byte
	str     *strings.Reader
	buf     *bufio.Reader // holds one record at a time for csv
	csv     *csv.Reader   // reads on after the end of each record's text
}

func newCSVSource(text io.Reader) (*csvSource, error) {
	c := &csvSource{src: bufio.NewReaderSize(text, sniffSize), str: strings.NewReader(""), sep: ';'}
	c.buf = bufio.NewReaderSize(c.str, 4096)
	c.csv = csv.NewReader(c.buf) // takes c.buf as it is: a bufio.Reader of 4096 bytes
	c.csv.FieldsPerRecord = -1
	c.csv.ReuseRecord = true // the cells are copied or cleaned before the next record
	c.csv.Comma = rune(c.sep)
	for {
		l, err := c.readLine()
		if err == io.EOF {
			return c, nil
		}
		if err != nil {
			return nil, err
		}
		t := strings.TrimRight(l.text, "\r\n")
		if strings.TrimSpace(t) == "" && !l.tooLong {
			continue
		}
		// Excel reads and writes "sep=;" as a first line naming the separator.
		if len(t) == 5 && strings.EqualFold(t[:4], "sep=") && strings.ContainsRune(";,\t|", rune(t[4])) {
			c.sep = t[4]
			c.csv.Comma = rune(c.sep)
			return c, nil
		}
		c.sep = separator(t)
		c.csv.Comma = rune(c.sep)
		c.pending = append(c.pending, l)
		return c, nil
	}
}

// separator picks the header's separator: the most frequent of ; tab and ,
// outside quotes (a semicolon on a tie, as Czech Excel writes).
func separator(header string) byte {
	counts := map[byte]int{}
	quoted := false
	for i := 0; i < len(header); i++ {
		switch c := header[i]; {
		case c == '"':
			quoted = !quoted
		case !quoted && (c == ';' || c == ',' || c == '\t'):
			counts[c]++
		}
	}
	best := byte(';')
	for _, c := range []byte{'\t', ','} {
		if counts[c] > counts[best] {
			best = c
		}
	}
	return best
}

func (c *csvSource) readLine() (line, error) {
	if len(c.pending) > 0 {
		l := c.pending[0]
		c.pending = c.pending[1:]
		return l, nil
	}
	c.scratch = c.scratch[:0]
	tooLong := false
	for {
		chunk, err := c.src.ReadSlice('\n')
		if !tooLong && len(c.scratch)+len(chunk) > maxRecordBytes {
			tooLong, c.scratch = true, c.scratch[:0]
		}
		if !tooLong {
			c.scratch = append(c.scratch, chunk...)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && len(c.scratch) == 0 && !tooLong:
			return line{}, io.EOF
		case err != nil && err != io.EOF:
			return line{}, err
		}
		c.lines++
		return line{text: string(c.scratch), num: c.lines, tooLong: tooLong}, nil
	}
}

func (c *csvSource) next() (record, error) {
	for {
		first, err := c.readLine()
		if err != nil {
			return record{}, err
		}
		if first.tooLong {
			return record{line: first.num, problem: &Problem{Key: KeyRowTooLong, Args: []any{maxRecordBytes >> 10}}}, nil
		}
		if onlySeparators(first.text, c.sep) {
			continue // an empty row, as spreadsheets write thousands of them
		}
		c.group = append(c.group[:0], first)
		size := len(first.text)
		open := quoteOpen(first.text, c.sep, false)
		for open && len(c.group) < maxRecordLines && size <= maxRecordBytes {
			l, err := c.readLine()
			if err == io.EOF {
				break
			}
			if err != nil {
				return record{}, err
			}
			c.group = append(c.group, l)
			if l.tooLong {
				break
			}
			size += len(l.text)
			open = quoteOpen(l.text, c.sep, true)
		}
		if !open {
			text := first.text
			if len(c.group) > 1 {
				var b strings.Builder
				for _, l := range c.group {
					b.WriteString(l.text)
				}
				text = b.String()
			}
			cells, err := c.parse(text, false)
			if err == nil && cells == nil {
				continue // an empty line
			}
			if err == nil {
				return record{line: first.num, cells: cells}, nil
			}
		}
		if len(c.group) > 1 {
			c.pending = append(append([]line(nil), c.group[1:]...), c.pending...)
		}
		cells, _ := c.parse(first.text, true)
		return record{line: first.num, cells: cells, problem: &Problem{Key: KeyRowQuote}}, nil
	}
}

// onlySeparators: a line with no text, only separators and spaces.
func onlySeparators(s string, sep byte) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != sep && c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

var errTwoRecords = errors.New("orderfile: two records where one was expected")

// parse reads one record with encoding/csv: strictly, or leniently to show
// what a broken row holds. nil cells and no error: an empty line.
func (c *csvSource) parse(text string, lenient bool) ([]string, error) {
	c.str.Reset(text)
	c.buf.Reset(c.str)
	r := c.csv
	r.LazyQuotes = lenient
	cells, err := r.Read()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if _, err := r.Read(); err != io.EOF {
		return nil, errTwoRecords
	}
	return cells, nil
}

// quoteOpen says whether a quoted cell is still open at the end of s, the
// way encoding/csv reads quotes: a quote opens a cell only at its start, and
// inside one "" is a quote and " ends it. in: s starts inside a quoted cell.
func quoteOpen(s string, sep byte, in bool) bool {
	start := !in
	for i := 0; i < len(s); i++ {
		c := s[i]
		if in {
			if c == '"' {
				if i+1 < len(s) && s[i+1] == '"' {
					i++
					continue
				}
				in = false
			}
			continue
		}
		switch {
		case c == '"' && start:
			in = true
			start = false
		case c == sep:
			start = true
		default:
			start = false
		}
	}
	return in
}
