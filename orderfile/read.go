package orderfile

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"

	"shipdesk/textin"
)

// Limits of a file, so that an upload cannot take the server's memory.
const (
	MaxBytes     = 10 << 20 // a larger file is refused
	MaxRows      = 10_000   // orders in one file; more is refused
	MaxColumns   = 200      // columns of the header; more is refused
	MaxCellChars = 1000     // a longer cell is cut
	maxSample    = 3        // rows kept in File.Sample
	maxHeader    = 100      // characters of a header cell
)

// File is what was read from a file.
type File struct {
	Format    string     // "csv" or "xlsx"
	Encoding  string     // CSV: UTF8, UTF8BOM, Windows1250 or UTF16
	Separator string     // CSV: ";", "," or "\t"
	Header    []string   // the column names, cleaned
	Mapping   Mapping    // the one read with: given, or detected from the header
	Sample    [][]string // the first rows' cells by column, cleaned: examples beside the columns when a person maps them
	Rows      []Row      // the orders, in the file's order; empty rows are skipped
	Problems  []Problem  // problems of the file; when any, Rows is empty: nothing was taken
}

// Row is one order as the file has it.
type Row struct {
	Line     int              `json:"line"`     // where the row starts: line of a CSV file, row number of a sheet
	Raw      map[Field]string `json:"raw"`      // each non-empty cell: cleaned, cut to MaxCellChars, as shown for editing
	Order    Order            `json:"order"`    // the values read from Raw
	Problems []Problem        `json:"problems"` // what could not be read (Field says which cell; empty: the row)
}

// Order is a row's values, read as the new-shipment form reads them. Empty
// cells are "" and 0; a cell that does not read is kept in Raw with a problem
// and is "" or 0 here.
type Order struct {
	Reference    string  `json:"reference"`
	FirstName    string  `json:"first_name"`
	Surname      string  `json:"surname"`
	Company      string  `json:"company"`
	Street       string  `json:"street"`
	City         string  `json:"city"`
	Zip          string  `json:"zip"`
	Country      string  `json:"country"` // ISO code in capitals; CZ when empty
	Phone        string  `json:"phone"`
	Email        string  `json:"email"`
	WeightKg     float64 `json:"weight_kg"`
	LengthCm     float64 `json:"length_cm"`
	WidthCm      float64 `json:"width_cm"`
	HeightCm     float64 `json:"height_cm"`
	COD          bool    `json:"cod"` // a COD amount above 0
	CODAmount    float64 `json:"cod_amount"`
	CODCurrency  string  `json:"cod_currency"`  // ISO code; CZK when empty
	InsuredValue float64 `json:"insured_value"` // CZK
	PointCode    string  `json:"point_code"`
	Note         string  `json:"note"`
	Customs      Customs `json:"customs"` // checked by the form's rules, only outside the EU
	// NoCustomerMail: the recipient gets no mail of the parcel's steps.
	NoCustomerMail bool `json:"no_customer_mail,omitempty"`
}

// Customs are a row's customs data as written; the new-shipment form's rules
// read and check them as they do what a clerk types.
type Customs struct {
	Reason   string `json:"reason,omitempty"`
	Contents string `json:"contents,omitempty"`
	HSCode   string `json:"hs_code,omitempty"`
	Origin   string `json:"origin,omitempty"`
	Quantity string `json:"quantity,omitempty"`
	Value    string `json:"value,omitempty"`
	Currency string `json:"currency,omitempty"`
}

var (
	zipMagic = []byte("PK\x03\x04")
	oleMagic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1} // .xls, and workbooks with a password
)

// Read reads a file of orders: CSV or XLSX, told apart by their content. With
// a nil mapping (or one without columns, naming only a sheet), the header must
// be our template's (English or Czech column names); otherwise the mapping's
// columns are read. Problems of the file are in File.Problems, problems of a
// row in its Problems; the error is only the reader's own failure. At most
// MaxBytes are read from r, streaming: a CSV file is never held whole (an XLSX
// one is, as a zip must be).
func Read(r io.Reader, m *Mapping) (*File, error) {
	br := bufio.NewReaderSize(&capped{r: r, left: MaxBytes}, sniffSize)
	f := &File{}
	head, err := br.Peek(len(oleMagic))
	switch {
	case len(head) == 0 && err == io.EOF:
		return f.refuse(Problem{Key: KeyEmpty}), nil
	case err != nil && err != io.EOF && err != bufio.ErrBufferFull:
		return f.fail(err)
	case bytes.HasPrefix(head, oleMagic):
		return f.refuse(Problem{Key: KeyOldExcel}), nil
	case bytes.HasPrefix(head, zipMagic):
		f.Format = "xlsx"
		sheet := ""
		if m != nil {
			sheet = m.Sheet
		}
		x, err := openXLSX(br, sheet)
		if err != nil {
			return f.fail(err)
		}
		err = f.read(x, m, false)
		_ = x.close() // removes excelize's temporary files; what was read stands
		if err != nil {
			return f.fail(err)
		}
		return f, nil
	}
	if head, _ := br.Peek(kindSize); binaryFile(head) {
		return f.refuse(Problem{Key: KeyNotOrders}), nil
	}
	f.Format = "csv"
	text, encoding := decodeText(br)
	c, err := newCSVSource(text)
	if err == nil {
		f.Separator = string(c.sep)
		err = f.read(c, m, true)
	}
	f.Encoding = encoding()
	if err != nil {
		return f.fail(err)
	}
	return f, nil
}

// fail turns the file's own problems into File.Problems; other errors are
// the reader's.
func (f *File) fail(err error) (*File, error) {
	var notXLSX errNotXLSX
	var noSheet errNoSheet
	var stop refusal
	switch {
	case errors.Is(err, errTooLarge):
		return f.refuse(Problem{Key: KeyTooLarge, Args: []any{MaxBytes >> 20}}), nil
	case errors.Is(err, errEncoding):
		return f.refuse(Problem{Key: KeyEncoding}), nil
	case errors.As(err, &noSheet):
		return f.refuse(Problem{Key: KeyNoSheet, Args: []any{noSheet.name}}), nil
	case errors.As(err, &notXLSX):
		return f.refuse(Problem{Key: KeyNotXLSX}), nil
	case errors.As(err, &stop):
		return f.refuse(stop.p), nil
	}
	return nil, err
}

// refusal is a problem that stops reading.
type refusal struct{ p Problem }

func (r refusal) Error() string { return "orderfile: " + r.p.Key }

func (f *File) refuse(p ...Problem) *File {
	f.Rows, f.Problems = nil, p
	return f
}

// read reads the header and the rows from src; strictCells: a CSV row must
// have as many cells as the header (a sheet leaves empty cells out).
func (f *File) read(src source, m *Mapping, strictCells bool) error {
	var head record
	for skipped := 0; ; skipped++ {
		rec, err := src.next()
		if err == io.EOF || skipped > 2*MaxRows {
			return refusal{Problem{Key: KeyEmpty}}
		}
		if err != nil {
			return err
		}
		if !blank(rec.cells) {
			head = rec
			break
		}
	}
	if len(head.cells) > MaxColumns {
		return refusal{Problem{Key: KeyTooManyColumns, Args: []any{MaxColumns}}}
	}
	f.Header = make([]string, len(head.cells))
	for i, c := range head.cells {
		f.Header[i] = headerName(c)
	}
	if m == nil || len(m.Columns) == 0 {
		f.Mapping, _ = DetectMapping(f.Header)
		if m != nil {
			f.Mapping.Sheet = m.Sheet
		}
	} else {
		f.Mapping = *m
	}
	mapping := f.Mapping.Check(f.Header)
	rows := newLayout(f.Mapping, f.Header, strictCells)
	counted, records := 0, 0
	for {
		rec, err := src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if len(f.Sample) < maxSample && rec.problem == nil && !blank(rec.cells) {
			f.Sample = append(f.Sample, sampleCells(rec.cells, len(f.Header)))
		}
		if len(mapping) > 0 {
			if len(f.Sample) == maxSample {
				break // enough to show while a person maps the columns
			}
			continue
		}
		// Every row with text counts toward MaxRows, also one whose text is
		// in no mapped column, and rows of empty cells toward twice that:
		// the work of reading a file is bounded by its rows.
		records++
		if rec.problem == nil && blank(rec.cells) {
			if records > 2*MaxRows {
				return refusal{Problem{Key: KeyTooManyRows, Args: []any{MaxRows}}}
			}
			continue
		}
		if counted++; counted > MaxRows {
			return refusal{Problem{Key: KeyTooManyRows, Args: []any{MaxRows}}}
		}
		if row, ok := rows.makeRow(rec); ok {
			f.Rows = append(f.Rows, row)
		}
	}
	switch {
	case len(mapping) > 0:
		f.refuse(mapping...)
	case len(f.Rows) == 0:
		f.refuse(Problem{Key: KeyNoOrders})
	}
	return nil
}

func blank(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// headerName cleans a header cell: readable, one line, no BOM, at most maxHeader characters.
func headerName(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "\ufeff")
	s = strings.TrimSpace(textin.Safe(breaks.Replace(s), false))
	s, _ = textin.Cut(s, maxHeader)
	return s
}

func sampleCells(cells []string, width int) []string {
	out := make([]string, min(len(cells), width))
	for i := range out {
		out[i] = headerName(cells[i])
	}
	return out
}

// Reread reads a row again from its cells as a person corrected them (raw,
// by field), as Read reads a row of our template: the same cleaning, the same
// values, the same problems.
func Reread(line int, raw map[Field]string) Row {
	cells := make([]string, len(Fields))
	for i, f := range Fields {
		cells[i] = raw[f]
	}
	m, _ := DetectMapping(Header())
	row, ok := newLayout(m, Header(), false).makeRow(record{line: line, cells: cells})
	if !ok {
		row = Row{Line: line, Raw: map[Field]string{}}
		row.readOrder(nil)
	}
	return row
}
