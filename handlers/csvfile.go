package handlers

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"shipdesk/i18n"
)

// csvFile is a CSV download in the person's language: in Czech with a
// byte-order mark (so a spreadsheet reads UTF-8), ";" between cells and
// decimal commas; in English with "," and decimal points. Every CSV the
// dashboard writes goes through it, a line at a time (csvLine).
type csvFile struct {
	czech bool
	buf   *bufio.Writer // csvLine's lines go here
}

// startCSV sends the headers of a CSV download named filename and returns
// its writer.
func startCSV(ctx context.Context, w http.ResponseWriter, filename string) *csvFile {
	czech := i18n.LangOf(ctx) == i18n.Czech
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, filename))
	w.Header().Set("Cache-Control", "no-store")
	buf := bufio.NewWriterSize(w, 64<<10)
	if czech {
		_, _ = buf.WriteString("\ufeff")
	}
	return &csvFile{czech: czech, buf: buf}
}

// decimal writes x with places decimals (-1: as few as it needs), not
// grouped, with a decimal comma in Czech.
func (c *csvFile) decimal(x float64, places int) string {
	s := strconv.FormatFloat(x, 'f', places, 64)
	if c.czech {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// csvLine puts one record together in a buffer used again for every row,
// cell after cell, so a long export writes its rows without a string for
// each cell. Text is written safe for a spreadsheet of either language
// (text); numbers and times we write ourselves go as they are (value).
type csvLine struct {
	buf   []byte
	comma byte
	cells int
}

// newLine starts a record for c.
func (c *csvFile) newLine() *csvLine {
	l := &csvLine{buf: make([]byte, 0, 512), comma: ','}
	if c.czech {
		l.comma = ';'
	}
	return l
}

// start empties the line for the next record.
func (l *csvLine) start() { l.buf, l.cells = l.buf[:0], 0 }

// open begins the next cell and returns where it starts.
func (l *csvLine) open() int {
	if l.cells > 0 {
		l.buf = append(l.buf, l.comma)
	}
	l.cells++
	return len(l.buf)
}

// close quotes the text cell from at when it needs quotes.
func (l *csvLine) close(at int) {
	if !cellNeedsQuotes(l.buf[at:]) {
		return
	}
	cell := string(l.buf[at:])
	l.buf = append(l.buf[:at], '"')
	for i := 0; i < len(cell); i++ {
		if cell[i] == '"' {
			l.buf = append(l.buf, '"')
		}
		l.buf = append(l.buf, cell[i])
	}
	l.buf = append(l.buf, '"')
}

// text adds a cell of text: never read as a formula (appendNeutral), and
// quoted where it needs it under either language's separator.
func (l *csvLine) text(s string) {
	at := l.open()
	l.buf = appendNeutral(l.buf, s)
	l.close(at)
}

// value adds a cell we wrote ourselves (a number, a day): as it is, so a
// negative amount stays a number.
func (l *csvLine) value(s string) {
	l.open()
	l.buf = append(l.buf, s...)
}

// end finishes the record as encoding/csv does, with "\n".
func (l *csvLine) end() []byte { return append(l.buf, '\n') }

// formulaStart are the characters a spreadsheet starts a formula (or a
// command) with; cellStart those after which a spreadsheet may begin a new
// cell: a separator of either language (";", ","), a tab, a line break.
const (
	formulaStart = "=+-@\t\r"
	cellStart    = ",;\t\r\n"
)

// appendNeutral appends s with an apostrophe (OWASP's advice) before each
// formulaStart character where a cell may begin, under any separator: at
// the start of s, or after a cellStart character, with only spaces and
// quotes between. A Czech export opened by a spreadsheet set up for English
// splits its cells at commas, and the other way round, so "Jan Novák,=1+1"
// holds a formula for one of them unless its second half is neutralised too.
func appendNeutral(buf []byte, s string) []byte {
	start := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if start && strings.IndexByte(formulaStart, c) >= 0 {
			buf = append(buf, '\'')
		}
		buf = append(buf, c)
		switch {
		case strings.IndexByte(cellStart, c) >= 0:
			start = true
		case c != ' ' && c != '"':
			start = false
		}
	}
	return buf
}

// cellNeedsQuotes is encoding/csv's rule, for both languages' separators at
// once and a tab: a separator, a quote or a line break inside, a space
// first, or `\.` alone. A cell then stays one cell whichever separator the
// spreadsheet splits at.
func cellNeedsQuotes(cell []byte) bool {
	if len(cell) == 0 {
		return false
	}
	if string(cell) == `\.` {
		return true
	}
	if bytes.ContainsAny(cell, "\n\r\",;\t") {
		return true
	}
	r, _ := utf8.DecodeRune(cell)
	return unicode.IsSpace(r)
}

// appendDecimal appends x as decimal writes it, with as few decimals as it needs.
func (c *csvFile) appendDecimal(buf []byte, x float64) []byte {
	at := len(buf)
	buf = strconv.AppendFloat(buf, x, 'f', -1, 64)
	if c.czech {
		if i := bytes.IndexByte(buf[at:], '.'); i >= 0 {
			buf[at+i] = ','
		}
	}
	return buf
}
