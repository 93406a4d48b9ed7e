package printout

import (
	"cmp"
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

// column is one column of the parcel table.
type column struct {
	key   string
	w     float64
	align string
	size  float64 // the font size of its cells, when not the table's
}

// Column widths of the parcel table (180 mm between the margins), before
// the tracking numbers are measured (columnsFor).
var protocolCols = []column{
	{key: "", w: 9, align: "R"},
	{key: "handover.col.tracking", w: 38, align: "L"},
	{key: "handover.col.recipient", w: 55, align: "L"},
	{key: "handover.col.town", w: 35, align: "L"},
	{key: "handover.col.packages", w: 16, align: "R"},
	{key: "handover.col.cod", w: 27, align: "R"},
}

// The parcel table's tracking and recipient columns.
const (
	colTracking  = 1
	colRecipient = 2
	minRecipient = 35.0 // mm: the recipient keeps at least this when tracking numbers are long
	bodySize     = 9.0  // pt: the table's text
	minTracking  = 6.0  // pt: the smallest a tracking number is printed, to stay on one line
)

// columnsFor is the parcel table for parcels: the tracking column as wide as
// the widest tracking number needs to print whole on one line (the courier
// reads and scans them), taken from the recipient's column, whose names wrap.
func columnsFor(pdf *fpdf.Fpdf, parcels []ProtocolParcel) []column {
	cols := append([]column(nil), protocolCols...)
	pdf.SetFont(fontSans, "", bodySize)
	widest := 0.0
	for _, p := range parcels {
		widest = max(widest, pdf.GetStringWidth(clean(p.Tracking)))
	}
	margins := 2*pdf.GetCellMargin() + 0.5
	spare := cols[colRecipient].w - minRecipient
	if grow := min(widest+margins-cols[colTracking].w, spare); grow > 0 {
		cols[colTracking].w += grow
		cols[colRecipient].w -= grow
	}
	if room := cols[colTracking].w - margins; widest > room {
		// Longer than any carrier's numbers: smaller, still on one line.
		cols[colTracking].size = max(minTracking, bodySize*room/widest)
	}
	return cols
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

	cols := columnsFor(pdf, p.Parcels)
	header := func() {
		pdf.SetFont(fontSans, "B", 8.5)
		pdf.SetFillColor(232, 236, 241)
		for _, c := range cols {
			text := "#"
			if c.key != "" {
				text = i18n.T(ctx, c.key)
			}
			pdf.CellFormat(c.w, 6.5, text, "1", 0, c.align, true, 0, "")
		}
		pdf.Ln(-1)
	}
	header()
	pdf.SetFont(fontSans, "", bodySize)
	for i, row := range p.Parcels {
		vals := []string{strconv.Itoa(i + 1), row.Tracking, row.Recipient, row.Town, row.Packages, row.COD}
		cells, height := rowCells(pdf, cols, vals)
		if pdf.GetY()+height > pageBottom {
			pdf.AddPage()
			pdf.SetFont(fontSans, "B", 12)
			pdf.CellFormat(0, 8, clean(i18n.T(ctx, "handover.continued", title)), "", 1, "L", false, 0, "")
			header()
			pdf.SetFont(fontSans, "", bodySize)
		}
		drawRow(pdf, cols, cells, height)
	}
	if pdf.GetY()+signHeight > pageBottom {
		pdf.AddPage()
		pdf.SetFont(fontSans, "B", 12)
		pdf.CellFormat(0, 8, clean(i18n.T(ctx, "handover.continued", title)), "", 1, "L", false, 0, "")
	}
	// Totals under the table's columns.
	pdf.SetFont(fontSans, "B", 9)
	lead := cols[0].w + cols[1].w + cols[2].w + cols[3].w
	pdf.CellFormat(lead, 6.5, i18n.T(ctx, "handover.total")+": "+clean(p.Count), "", 0, "L", false, 0, "")
	pdf.CellFormat(cols[4].w, 6.5, clean(p.Packages), "", 0, "R", false, 0, "")
	pdf.CellFormat(cols[5].w, 6.5, clean(p.CODTotal), "", 1, "R", false, 0, "")
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
// of each cell with the row's height. A tracking number is never wrapped: it
// is one line, shortened only past what its column could ever hold.
func rowCells(pdf *fpdf.Fpdf, cols []column, vals []string) ([][]string, float64) {
	cells := make([][]string, len(cols))
	most := 1
	for j, c := range cols {
		if j == colTracking {
			pdf.SetFontSize(cmp.Or(c.size, bodySize))
			cells[j] = []string{fit(pdf, clean(vals[j]), c.w-2*pdf.GetCellMargin())}
			pdf.SetFontSize(bodySize)
			continue
		}
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
func drawRow(pdf *fpdf.Fpdf, cols []column, cells [][]string, height float64) {
	x, y := pdf.GetX(), pdf.GetY()
	for j, c := range cols {
		pdf.Rect(x, y, c.w, height, "D")
		pdf.SetFontSize(cmp.Or(c.size, bodySize))
		for k, line := range cells[j] {
			pdf.SetXY(x, y+rowPadding+float64(k)*rowLine)
			pdf.CellFormat(c.w, rowLine, line, "", 0, c.align, false, 0, "")
		}
		pdf.SetFontSize(bodySize)
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
