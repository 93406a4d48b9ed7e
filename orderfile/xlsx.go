package orderfile

import (
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Bounds of a workbook once unpacked: a 10 MB zip can unpack to gigabytes.
// Worksheets and shared strings larger than xmlInMemory go to a temporary file.
const (
	maxUnpacked = 64 << 20
	xmlInMemory = 16 << 20
)

// errNotXLSX is a workbook excelize cannot read.
type errNotXLSX struct{ err error }

func (e errNotXLSX) Error() string { return "orderfile: not a workbook we read: " + e.err.Error() }

// errNoSheet is a sheet the workbook lacks.
type errNoSheet struct{ name string }

func (e errNoSheet) Error() string { return "orderfile: no sheet " + strconv.Quote(e.name) }

// readErr keeps the error of the reader under excelize, which cannot tell a
// file too large from a broken zip.
type readErr struct {
	r   io.Reader
	err error
}

func (r *readErr) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// xlsxSource streams the rows of one sheet, numbers as numbers ("1299.5", not
// as a cell format displays them) and text as it is; formulas are never
// evaluated: a formula cell gives the value Excel saved with it.
type xlsxSource struct {
	book *excelize.File
	rows *excelize.Rows
	n    int
}

func openXLSX(r io.Reader, sheet string) (*xlsxSource, error) {
	in := &readErr{r: r}
	book, err := excelize.OpenReader(in, excelize.Options{RawCellValue: true, UnzipSizeLimit: maxUnpacked, UnzipXMLSizeLimit: xmlInMemory})
	if in.err != nil {
		if book != nil {
			_ = book.Close()
		}
		return nil, in.err
	}
	if err != nil {
		if book != nil {
			_ = book.Close()
		}
		return nil, errNotXLSX{err}
	}
	x := &xlsxSource{book: book}
	if sheet == "" {
		if list := book.GetSheetList(); len(list) > 0 {
			sheet = list[0]
		}
	}
	x.rows, err = book.Rows(sheet)
	if err != nil {
		_ = x.close()
		var missing excelize.ErrSheetNotExist
		if errors.As(err, &missing) || sheet == "" {
			return nil, errNoSheet{sheet}
		}
		return nil, errNotXLSX{err}
	}
	return x, nil
}

func (x *xlsxSource) next() (record, error) {
	for x.rows.Next() {
		x.n++ // Next stops at every row number, also those the sheet leaves out
		cells, err := x.rows.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			return record{}, errNotXLSX{err}
		}
		if blank(cells) {
			continue
		}
		for i, c := range cells {
			cells[i] = tidyNumber(c)
		}
		return record{line: x.n, cells: cells}, nil
	}
	if err := x.rows.Error(); err != nil {
		return record{}, errNotXLSX{err}
	}
	return record{}, io.EOF
}

func (x *xlsxSource) close() error {
	var err error
	if x.rows != nil {
		err = x.rows.Close()
	}
	return errors.Join(err, x.book.Close())
}

// tidyNumber writes a number as Excel shows it, with at most 15 significant
// digits: a workbook stores 2.3 as "2.2999999999999998" and large or small
// numbers with an exponent. Other text stays as it is.
func tidyNumber(s string) string {
	if s == "" || strings.Trim(s, "0123456789.eE+-") != "" {
		return s
	}
	digits := len(strings.Trim(strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s), "0"))
	if !strings.ContainsAny(s, "eE") && (digits <= 15 || !strings.Contains(s, ".")) {
		return s
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	x, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', 15, 64), 64)
	return strconv.FormatFloat(x, 'f', -1, 64)
}
