package printout

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"io"

	"codeberg.org/go-pdf/fpdf"
	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/code128"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/goregular"

	"shipdesk/i18n"
	"shipdesk/pdffont"
)

// CodeSheet is the sheet of a batch's label-free shipments: each with the
// code the clerk shows at the carrier's point instead of a label, in large
// letters and as a barcode. Every text is in the reader's language already.
type CodeSheet struct {
	Title   string
	Lead    string // what to do with the sheet
	Printed string // when it is printed
	Rows    []CodeRow
}

// CodeRow is one package of a label-free shipment.
type CodeRow struct {
	Reference, Recipient, Town, Carrier, Tracking string
	Code                                          string // "" : the service has not given it yet
	NoCode                                        string // what the sheet says instead of a missing code
}

// fontMono draws the codes: its letters cannot be mistaken for one another.
const fontMono = "GoMono"

// The sheet's boxes: six to an A4 page.
const (
	codeBoxH   = 40.0
	codeBoxGap = 3.0
	codeTop    = 15 + 9 + 12 // below the title and the lead
)

// Codes draws the sheet on A4 pages.
func Codes(ctx context.Context, w io.Writer, s CodeSheet) error {
	pdf := fpdf.New("P", "mm", "A4", "")
	pdffont.Register(pdf, fontSans, "", goregular.TTF)
	pdffont.Register(pdf, fontSans, "B", gobold.TTF)
	pdffont.Register(pdf, fontMono, "B", gomonobold.TTF)
	pdf.SetMargins(15, 15, 15)
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetCreator("shipdesk", true)
	pdf.SetTitle(clean(s.Title), true)
	pdf.SetFooterFunc(func() {
		pdf.SetXY(15, -12)
		pdf.SetFont(fontSans, "", 8)
		pdf.SetTextColor(90, 90, 90)
		pdf.CellFormat(90, 5, clean(s.Printed), "", 0, "L", false, 0, "")
		pdf.CellFormat(90, 5, i18n.T(ctx, "codes.page", pdf.PageNo()), "", 0, "R", false, 0, "")
		pdf.SetTextColor(0, 0, 0)
	})
	page := func(first bool) {
		pdf.AddPage()
		pdf.SetFont(fontSans, "B", 16)
		title := s.Title
		if !first {
			title = i18n.T(ctx, "handover.continued", s.Title)
		}
		pdf.CellFormat(0, 9, fit(pdf, clean(title), 180), "", 1, "L", false, 0, "")
		pdf.SetFont(fontSans, "", 9.5)
		pdf.SetTextColor(60, 60, 60)
		pdf.MultiCell(0, 4.5, clean(s.Lead), "", "L", false)
		pdf.SetTextColor(0, 0, 0)
		pdf.SetY(codeTop)
	}
	page(true)
	for i, row := range s.Rows {
		if pdf.GetY()+codeBoxH > pageBottom {
			page(false)
		}
		if err := codeBox(ctx, pdf, i+1, row); err != nil {
			return err
		}
	}
	return pdf.Output(w)
}

// codeBox draws one package's box from the current line: what it is on the
// left, its code and barcode on the right.
func codeBox(ctx context.Context, pdf *fpdf.Fpdf, n int, r CodeRow) error {
	x, y := 15.0, pdf.GetY()
	pdf.SetDrawColor(150, 150, 150)
	pdf.Rect(x, y, 180, codeBoxH, "D")
	// What the parcel is.
	pdf.SetXY(x+3, y+3)
	pdf.SetFont(fontSans, "B", 13)
	pdf.CellFormat(82, 7, fit(pdf, fmt.Sprintf("%d. %s", n, clean(r.Reference)), 82), "", 2, "L", false, 0, "")
	fact := func(key, value string) {
		if value == "" {
			return
		}
		pdf.SetX(x + 3)
		pdf.SetFont(fontSans, "", 8)
		pdf.SetTextColor(90, 90, 90)
		pdf.CellFormat(22, 6, i18n.T(ctx, key), "", 0, "L", false, 0, "")
		pdf.SetTextColor(0, 0, 0)
		pdf.SetFont(fontSans, "B", 10)
		pdf.CellFormat(60, 6, fit(pdf, clean(value), 60), "", 2, "L", false, 0, "")
	}
	fact("codes.recipient", r.Recipient)
	fact("codes.town", r.Town)
	fact("codes.carrier", r.Carrier)
	fact("codes.tracking", r.Tracking)
	// The code, large, and its barcode.
	right := x + 90
	pdf.SetDrawColor(200, 200, 200)
	pdf.Line(right-3, y+3, right-3, y+codeBoxH-3)
	pdf.SetXY(right, y+2)
	pdf.SetFont(fontSans, "", 8)
	pdf.SetTextColor(90, 90, 90)
	pdf.CellFormat(87, 5, i18n.T(ctx, "codes.code"), "", 2, "C", false, 0, "")
	pdf.SetTextColor(0, 0, 0)
	if r.Code == "" {
		pdf.SetFont(fontSans, "B", 11)
		pdf.SetXY(right, y+14)
		pdf.MultiCell(87, 5.5, clean(r.NoCode), "", "C", false)
		pdf.SetY(y + codeBoxH + codeBoxGap)
		return pdf.Error()
	}
	pdf.SetFont(fontMono, "B", 30)
	pdf.CellFormat(87, 13, clean(r.Code), "", 2, "C", false, 0, "")
	if err := barcode128(pdf, r.Code, right+8.5, y+21, 70, 15); err != nil && pdf.Err() {
		return err
	} // a code no barcode can carry is read in its letters
	pdf.SetY(y + codeBoxH + codeBoxGap)
	return pdf.Error()
}

// barcode128 draws value as a Code128 barcode.
func barcode128(pdf *fpdf.Fpdf, value string, x, y, w, h float64) error {
	bc, err := code128.Encode(value)
	if err != nil {
		return fmt.Errorf("barcode %q: %w", value, err)
	}
	scaled, err := barcode.Scale(bc, 600, 120)
	if err != nil {
		return fmt.Errorf("barcode %q: %w", value, err)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, scaled); err != nil {
		return err
	}
	name := "code-" + value
	opt := fpdf.ImageOptions{ImageType: "PNG"}
	if pdf.GetImageInfo(name) == nil {
		pdf.RegisterImageOptionsReader(name, opt, &buf)
	}
	pdf.ImageOptions(name, x, y, w, h, false, opt, 0, "")
	return pdf.Error()
}
