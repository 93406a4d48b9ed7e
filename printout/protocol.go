package printout

import (
	"context"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"shipdesk/i18n"
	"shipdesk/pdffont"
)

// Protocol is one hand-over protocol: the parcels one carrier takes from one
// place on one day, every text formatted in the reader's language already.
type Protocol struct {
	Carrier  string   // the carrier's name
	Pickup   string   // the pickup day
	Place    []string // the sender's address, a line each
	Count    string   // "3 parcels, 4 packages"
	Parcels  []ProtocolParcel
	Packages string // packages in all
	CODTotal string // empty without COD
	Printed  string // when the protocol is printed
}

// ProtocolParcel is one row of a protocol.
type ProtocolParcel struct {
	Tracking, Recipient, Town, Packages, COD string
}

// The Go fonts have every Czech and Slovak letter; the PDF core fonts do not.
const fontSans = "Go"

// Protocols draws the protocols on A4 pages in the request's language, each
// starting on a page of its own with its signature block at its end.
func Protocols(ctx context.Context, w io.Writer, list []Protocol) error {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdffont.Register(pdf, fontSans, "", goregular.TTF)
	pdffont.Register(pdf, fontSans, "B", gobold.TTF)
	pdf.SetMargins(15, 15, 15)
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetCreator("shipdesk", true)
	pdf.SetTitle(i18n.T(ctx, "handover.pdf_title"), true)
	// Each protocol counts its own pages: the footer of a page is drawn when
	// the next one starts, so first changes only after a protocol's first page.
	var printed string
	first := 1
	pdf.SetFooterFunc(func() {
		pdf.SetXY(15, -12)
		pdf.SetFont(fontSans, "", 8)
		pdf.SetTextColor(90, 90, 90)
		pdf.CellFormat(90, 5, printed, "", 0, "L", false, 0, "")
		pdf.CellFormat(90, 5, i18n.T(ctx, "handover.page", pdf.PageNo()-first+1), "", 0, "R", false, 0, "")
		pdf.SetTextColor(0, 0, 0)
	})
	for _, p := range list {
		pdf.AddPage()
		printed, first = i18n.T(ctx, "handover.printed", p.Printed), pdf.PageNo()
		protocol(ctx, pdf, p)
	}
	return pdf.Output(w)
}

// Column widths of the parcel table (180 mm between the margins).
var protocolCols = []struct {
	key   string
	w     float64
	align string
}{
	{"", 9, "R"},
	{"handover.col.tracking", 38, "L"},
	{"handover.col.recipient", 55, "L"},
	{"handover.col.town", 35, "L"},
	{"handover.col.packages", 16, "R"},
	{"handover.col.cod", 27, "R"},
}

const (
	pageBottom = 297 - 20 // where rows stop, above the footer
	signHeight = 52       // what the totals and the signature block need
)

// protocol draws one protocol from the top of the page just added.
func protocol(ctx context.Context, pdf *fpdf.Fpdf, p Protocol) {
	title := i18n.T(ctx, "handover.pdf_title") + ": " + p.Carrier
	pdf.SetFont(fontSans, "B", 16)
	pdf.CellFormat(0, 9, clean(title), "", 1, "L", false, 0, "")
	pdf.Ln(1)
	fact := func(key, value string) {
		pdf.SetFont(fontSans, "", 9)
		pdf.SetTextColor(90, 90, 90)
		pdf.CellFormat(38, 5.5, i18n.T(ctx, key), "", 0, "L", false, 0, "")
		pdf.SetTextColor(0, 0, 0)
		pdf.SetFont(fontSans, "B", 10)
		pdf.CellFormat(0, 5.5, clean(value), "", 1, "L", false, 0, "")
	}
	fact("handover.carrier", p.Carrier)
	fact("handover.pickup", p.Pickup)
	place := p.Place
	if len(place) == 0 {
		place = []string{i18n.T(ctx, "handover.place_unknown")}
	}
	fact("handover.place", place[0])
	for _, line := range place[1:] { // the further lines under the first
		pdf.SetX(15 + 38)
		pdf.SetFont(fontSans, "B", 10)
		pdf.CellFormat(0, 5, clean(line), "", 1, "L", false, 0, "")
	}
	pdf.SetFont(fontSans, "", 9)
	pdf.SetTextColor(90, 90, 90)
	pdf.CellFormat(38, 5.5, i18n.T(ctx, "handover.time"), "", 0, "L", false, 0, "")
	pdf.SetTextColor(0, 0, 0)
	pdf.SetDrawColor(120, 120, 120)
	pdf.Line(15+38, pdf.GetY()+5, 15+38+60, pdf.GetY()+5)
	pdf.Ln(6.5)
	fact("handover.count", p.Count)
	pdf.Ln(3)

	header := func() {
		pdf.SetFont(fontSans, "B", 8.5)
		pdf.SetFillColor(232, 236, 241)
		for _, c := range protocolCols {
			text := "#"
			if c.key != "" {
				text = i18n.T(ctx, c.key)
			}
			pdf.CellFormat(c.w, 6.5, text, "1", 0, c.align, true, 0, "")
		}
		pdf.Ln(-1)
	}
	header()
	pdf.SetFont(fontSans, "", 9)
	for i, row := range p.Parcels {
		vals := []string{strconv.Itoa(i + 1), row.Tracking, row.Recipient, row.Town, row.Packages, row.COD}
		cells, height := rowCells(pdf, vals)
		if pdf.GetY()+height > pageBottom {
			pdf.AddPage()
			pdf.SetFont(fontSans, "B", 12)
			pdf.CellFormat(0, 8, clean(i18n.T(ctx, "handover.continued", title)), "", 1, "L", false, 0, "")
			header()
			pdf.SetFont(fontSans, "", 9)
		}
		drawRow(pdf, cells, height)
	}
	if pdf.GetY()+signHeight > pageBottom {
		pdf.AddPage()
		pdf.SetFont(fontSans, "B", 12)
		pdf.CellFormat(0, 8, clean(i18n.T(ctx, "handover.continued", title)), "", 1, "L", false, 0, "")
	}
	// Totals under the table's columns.
	pdf.SetFont(fontSans, "B", 9)
	lead := protocolCols[0].w + protocolCols[1].w + protocolCols[2].w + protocolCols[3].w
	pdf.CellFormat(lead, 6.5, i18n.T(ctx, "handover.total")+": "+clean(p.Count), "", 0, "L", false, 0, "")
	pdf.CellFormat(protocolCols[4].w, 6.5, clean(p.Packages), "", 0, "R", false, 0, "")
	pdf.CellFormat(protocolCols[5].w, 6.5, clean(p.CODTotal), "", 1, "R", false, 0, "")
	pdf.Ln(8)

	// Signatures: the sender hands over, the courier takes over.
	pdf.SetFont(fontSans, "B", 10)
	pdf.CellFormat(0, 6, i18n.T(ctx, "handover.signatures"), "", 1, "L", false, 0, "")
	pdf.Ln(14)
	y := pdf.GetY()
	pdf.SetDrawColor(0, 0, 0)
	for i, key := range []string{"handover.sign_sender", "handover.sign_courier"} {
		x := 15 + float64(i)*95
		pdf.Line(x, y, x+85, y)
		pdf.SetXY(x, y+1)
		pdf.SetFont(fontSans, "", 8.5)
		pdf.CellFormat(85, 4.5, i18n.T(ctx, key), "", 0, "L", false, 0, "")
	}
	y += 16
	for i := range 2 {
		x := 15 + float64(i)*95
		pdf.Line(x, y, x+85, y)
		pdf.SetXY(x, y+1)
		pdf.SetFont(fontSans, "", 8.5)
		pdf.CellFormat(85, 4.5, i18n.T(ctx, "handover.date_time"), "", 0, "L", false, 0, "")
	}
}

// Lines of a parcel row: a row is as tall as its tallest cell, each cell's
// text wrapped onto as many lines as it needs, so no name is cut.
const (
	rowLine    = 4.2 // one line of text in a row
	rowPadding = 0.9 // above the first line and below the last
)

// rowCells wraps each of a row's values to its column and returns the lines
// of each cell with the row's height.
func rowCells(pdf *fpdf.Fpdf, vals []string) ([][]string, float64) {
	cells := make([][]string, len(protocolCols))
	most := 1
	for j, c := range protocolCols {
		cells[j] = wrap(pdf, clean(vals[j]), c.w)
		most = max(most, len(cells[j]))
	}
	return cells, float64(most)*rowLine + 2*rowPadding
}

// wrap splits text into the lines that fit a cell width wide (its margins
// kept), breaking between words, and inside a word only when it is longer
// than a line.
func wrap(pdf *fpdf.Fpdf, text string, width float64) []string {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	var out []string
	for _, line := range pdf.SplitText(text, width) {
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	return out
}

// drawRow draws one row of the parcel table at the current position: each
// cell framed to the row's height, its lines from the top.
func drawRow(pdf *fpdf.Fpdf, cells [][]string, height float64) {
	x, y := pdf.GetX(), pdf.GetY()
	for j, c := range protocolCols {
		pdf.Rect(x, y, c.w, height, "D")
		for k, line := range cells[j] {
			pdf.SetXY(x, y+rowPadding+float64(k)*rowLine)
			pdf.CellFormat(c.w, rowLine, line, "", 0, c.align, false, 0, "")
		}
		x += c.w
	}
	pdf.SetXY(15, y+height)
}

// fit shortens text to width, ending it with an ellipsis when it is cut.
func fit(pdf *fpdf.Fpdf, text string, width float64) string {
	if pdf.GetStringWidth(text) <= width {
		return text
	}
	for text != "" && pdf.GetStringWidth(text+"…") > width {
		_, size := utf8.DecodeLastRuneInString(text)
		text = text[:len(text)-size]
	}
	return strings.TrimSpace(text) + "…"
}

// clean turns control characters (which print as boxes) into spaces.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, "?"))
}
