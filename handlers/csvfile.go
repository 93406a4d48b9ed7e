package handlers

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
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
// decimal commas; in English with "," and decimal points. The shipments
// export and the reports' tables write through it.
type csvFile struct {
	*csv.Writer
	czech bool
	buf   *bufio.Writer // what the csv.Writer writes into; csvLine's lines go here too
}

// startCSV sends the headers of a CSV download named filename and returns
// its writer.
func startCSV(ctx context.Context, w http.ResponseWriter, filename string) *csvFile {
	czech := i18n.LangOf(ctx) == i18n.Czech
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, filename))
	w.Header().Set("Cache-Control", "no-store")
	buf := bufio.NewWriterSize(w, 64<<10) // csv.Writer writes through it as it is
	if czech {
		_, _ = buf.WriteString("\ufeff")
	}
	out := csv.NewWriter(buf)
	if czech {
		out.Comma = ';'
	}
	return &csvFile{Writer: out, czech: czech, buf: buf}
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
// cell after cell, quoted exactly as encoding/csv quotes (a test holds the
// two equal), so a long export writes its rows without a string for each
// cell.
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

// close quotes the cell from at when it needs quotes.
func (l *csvLine) close(at int) {
	if !cellNeedsQuotes(l.buf[at:], l.comma) {
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

// text adds a cell of text.
func (l *csvLine) text(s string) {
	at := l.open()
	l.buf = append(l.buf, s...)
	l.close(at)
}

// end finishes the record as encoding/csv does, with "\n".
func (l *csvLine) end() []byte { return append(l.buf, '\n') }

// cellNeedsQuotes is encoding/csv's rule for a separator below U+0080: a
// separator, a quote or a line break inside, a space first, or `\.` alone.
func cellNeedsQuotes(cell []byte, comma byte) bool {
	if len(cell) == 0 {
		return false
	}
	if string(cell) == `\.` {
		return true
	}
	for _, c := range cell {
		if c == '\n' || c == '\r' || c == '"' || c == comma {
			return true
		}
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
