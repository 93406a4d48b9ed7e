package labelpdf

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"strings"

	"codeberg.org/go-pdf/fpdf"
	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/code128"
	"github.com/boombuler/barcode/qr"

	"shipdesk/sandbox/apijson"
)

// A6 in millimetres.
const (
	a6W, a6H = 105.0, 148.0
	margin   = 5.0
)

// Render draws one A6 document: a page per package of each label, and an
// information sheet per label-free shipment.
func Render(pages []Page) ([]byte, error) {
	if len(pages) == 0 {
		return nil, errors.New("render labels: no pages")
	}
	pdf := newPDF("A6")
	pdf.SetMargins(margin, margin, margin)
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetCreator("shipdesk sandbox", true)
	for i, p := range pages {
		switch {
		case p.Label != nil:
			for k := range p.Label.Packages {
				if err := labelPage(pdf, p.Label, k, p.Lang); err != nil {
					return nil, fmt.Errorf("label %s: %w", p.Label.TrackingNumber, err)
				}
			}
		case p.CodeSheet != nil:
			if err := codePage(pdf, p.CodeSheet, p.Lang); err != nil {
				return nil, fmt.Errorf("code sheet %s: %w", p.CodeSheet.TrackingNumber, err)
			}
		default:
			return nil, fmt.Errorf("render labels: page %d is empty", i)
		}
	}
	return output(pdf)
}

func output(pdf *fpdf.Fpdf) ([]byte, error) {
	var buf bytes.Buffer
	if err := pdf.Output(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func labelPage(pdf *fpdf.Fpdf, l *Label, k int, lang apijson.Lang) error {
	if len(l.Packages) == 0 {
		return errors.New("no packages")
	}
	pdf.AddPage()
	w := a6W - 2*margin
	pdf.SetFont(fontSans, "B", 14)
	pdf.CellFormat(w*0.7, 8, text(l.Carrier), "", 0, "L", false, 0, "")
	pdf.SetFont(fontSans, "B", 18)
	pdf.CellFormat(w*0.3, 8, l.CarrierGroup, "1", 1, "C", false, 0, "")
	pdf.SetFont(fontSans, "", 8)
	pdf.CellFormat(w, 4, text(l.Service), "", 1, "L", false, 0, "")
	pdf.Ln(1)

	block(pdf, wFrom.In(lang), l.From, 8)
	pdf.Ln(1)
	pdf.SetLineWidth(0.6)
	y := pdf.GetY()
	block(pdf, wTo.In(lang), l.To, 12)
	pdf.Rect(margin-1, y-1, w+2, pdf.GetY()-y+2, "D")
	pdf.SetLineWidth(0.2)
	pdf.Ln(2)

	pdf.SetFont(fontSans, "", 8)
	if l.DeliveryBranch != "" {
		pdf.CellFormat(w, 4, text(wDeliveryPoint.With(l.DeliveryBranch).In(lang)), "", 1, "L", false, 0, "")
	}
	if l.PickupBranch != "" {
		pdf.CellFormat(w, 4, text(wHandedOverAt.With(l.PickupBranch).In(lang)), "", 1, "L", false, 0, "")
	}
	if l.Reference != "" {
		pdf.CellFormat(w, 4, text(wReference.With(l.Reference).In(lang)), "", 1, "L", false, 0, "")
	}
	if l.Insured != nil {
		pdf.CellFormat(w, 4, wInsured.With(l.Insured.Value, l.Insured.Currency).In(lang), "", 1, "L", false, 0, "")
	}
	if l.COD != nil {
		pdf.SetFont(fontSans, "B", 13)
		pdf.SetFillColor(0, 0, 0)
		pdf.SetTextColor(255, 255, 255)
		pdf.CellFormat(w, 8, wCOD.With(l.COD.Value, l.COD.Currency).In(lang), "", 1, "C", true, 0, "")
		pdf.SetTextColor(0, 0, 0)
	}
	pkg := l.Packages[k]
	pdf.SetFont(fontSans, "", 8)
	pdf.CellFormat(w, 4, wPackageOf.With(k+1, len(l.Packages), pkg.Weight, apijson.Day(l.Created)).In(lang), "", 1, "L", false, 0, "")

	if err := drawCode128(pdf, pkg.Number, margin, a6H-margin-30, w, 22); err != nil {
		return err
	}
	pdf.SetXY(margin, a6H-margin-7)
	pdf.SetFont(fontMono, "B", 11)
	pdf.CellFormat(w, 6, pkg.Number, "", 1, "C", false, 0, "")
	return pdf.Error()
}

func block(pdf *fpdf.Fpdf, title string, a Address, size float64) {
	w := a6W - 2*margin
	pdf.SetFont(fontSans, "", 7)
	pdf.CellFormat(w, 3.5, title, "", 1, "L", false, 0, "")
	pdf.SetFont(fontSans, "B", size)
	pdf.MultiCell(w, size*0.45, text(a.Name), "", "L", false)
	pdf.SetFont(fontSans, "", size*0.85)
	for _, line := range []string{a.Street, strings.TrimSpace(a.Zip + " " + a.City), a.Country, a.Phone} {
		if strings.TrimSpace(line) != "" {
			pdf.CellFormat(w, size*0.42, text(line), "", 1, "L", false, 0, "")
		}
	}
}

func codePage(pdf *fpdf.Fpdf, c *CodeSheet, lang apijson.Lang) error {
	pdf.AddPage()
	w := a6W - 2*margin
	pdf.SetFont(fontSans, "B", 12)
	pdf.CellFormat(w, 7, text(wLabelFree.With(c.Carrier).In(lang)), "", 1, "L", false, 0, "")
	pdf.SetFont(fontSans, "", 8)
	pdf.MultiCell(w, 4, wLabelFreeHow.In(lang), "", "L", false)
	pdf.Ln(2)
	pdf.SetFont(fontSans, "", 8)
	pdf.CellFormat(w, 4, wCode.In(lang), "", 1, "C", false, 0, "")
	pdf.SetFont(fontMono, "B", 30)
	pdf.CellFormat(w, 14, c.Password, "1", 1, "C", false, 0, "")
	pdf.SetFont(fontSans, "", 8)
	pdf.CellFormat(w, 5, wRecipient.In(lang), "", 1, "C", false, 0, "")
	pdf.SetFont(fontSans, "B", 14)
	pdf.CellFormat(w, 7, text(c.RecipientName), "", 1, "C", false, 0, "")
	if err := drawQR(pdf, c.PackageNumber+" "+c.Password, (a6W-40)/2, pdf.GetY()+3, 40); err != nil {
		return err
	}
	pdf.SetXY(margin, a6H-margin-14)
	pdf.SetFont(fontSans, "", 8)
	if c.PickupBranch != "" {
		pdf.CellFormat(w, 4, text(wPickupPoint.With(c.PickupBranch).In(lang)), "", 1, "L", false, 0, "")
	}
	pdf.CellFormat(w, 4, wShipmentPkg.With(c.TrackingNumber, c.PackageNumber).In(lang), "", 1, "L", false, 0, "")
	return pdf.Error()
}

func drawCode128(pdf *fpdf.Fpdf, value string, x, y, w, h float64) error {
	bc, err := code128.Encode(value)
	if err != nil {
		return fmt.Errorf("barcode %q: %w", value, err)
	}
	return drawImage(pdf, "bc-"+value, bc, x, y, w, h, 600, 160)
}

func drawQR(pdf *fpdf.Fpdf, value string, x, y, size float64) error {
	q, err := qr.Encode(value, qr.M, qr.Auto)
	if err != nil {
		return fmt.Errorf("qr code: %w", err)
	}
	return drawImage(pdf, "qr-"+value, q, x, y, size, size, 300, 300)
}

func drawImage(pdf *fpdf.Fpdf, name string, bc barcode.Barcode, x, y, w, h float64, pw, ph int) error {
	scaled, err := barcode.Scale(bc, pw, ph)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, scaled); err != nil {
		return err
	}
	opt := fpdf.ImageOptions{ImageType: "PNG"}
	pdf.RegisterImageOptionsReader(name, opt, &buf)
	pdf.ImageOptions(name, x, y, w, h, false, opt, 0, "")
	return pdf.Error()
}

// RenderManifest draws the hand-over protocol on A4 pages.
func RenderManifest(m Manifest) ([]byte, error) {
	if len(m.Shipments) == 0 {
		return nil, errors.New("render manifest: no shipments")
	}
	lang := m.Lang
	pdf := newPDF("A4")
	pdf.SetMargins(12, 12, 12)
	pdf.SetAutoPageBreak(true, 20)
	cols := []struct {
		title string
		w     float64
		align string
	}{{"#", 8, "R"}, {colTracking.In(lang), 34, "L"}, {colCarrier.In(lang), 28, "L"}, {colRecipient.In(lang), 52, "L"}, {colPackages.In(lang), 10, "R"}, {"kg", 14, "R"}, {colCOD.In(lang), 20, "R"}, {colReference.In(lang), 20, "L"}}
	header := func() {
		pdf.SetFont(fontSans, "B", 8)
		pdf.SetFillColor(230, 230, 230)
		for _, c := range cols {
			pdf.CellFormat(c.w, 6, c.title, "1", 0, c.align, true, 0, "")
		}
		pdf.Ln(-1)
	}
	pdf.SetHeaderFunc(func() {
		pdf.SetFont(fontSans, "B", 14)
		pdf.CellFormat(0, 8, wProtocol.In(lang), "", 1, "L", false, 0, "")
		pdf.SetFont(fontSans, "", 9)
		pdf.CellFormat(0, 5, text(fmt.Sprintf("%s, %s, %s %s", m.Account, m.Sender.Street, m.Sender.Zip, m.Sender.City)), "", 1, "L", false, 0, "")
		pdf.CellFormat(0, 5, wDate.With(m.Date.In(apijson.Zone).Format("2006-01-02 15:04")).In(lang), "", 1, "L", false, 0, "")
		pdf.Ln(2)
		header()
	})
	pdf.SetFooterFunc(func() {
		pdf.SetY(-15)
		pdf.SetFont(fontSans, "", 8)
		pdf.CellFormat(0, 5, wPage.With(pdf.PageNo()).In(lang), "", 0, "C", false, 0, "")
	})
	pdf.AddPage()
	pdf.SetFont(fontSans, "", 8)
	var pkgs int
	var kg float64
	for i, s := range m.Shipments {
		cod := ""
		if s.COD != nil {
			cod = fmt.Sprintf("%.2f %s", s.COD.Value, s.COD.Currency)
		}
		vals := []string{fmt.Sprint(i + 1), s.TrackingNumber, text(s.Carrier), text(s.Recipient.Name + ", " + s.Recipient.City), fmt.Sprint(s.Packages), fmt.Sprintf("%.2f", s.Weight), cod, text(s.Reference)}
		for j, c := range cols {
			v := vals[j]
			for r := []rune(v); pdf.GetStringWidth(v) > c.w-2 && len(r) > 1; v = string(r) {
				r = r[:len(r)-1] // by letters: a cut inside "ř" would print a box
			}
			pdf.CellFormat(c.w, 6, v, "1", 0, c.align, false, 0, "")
		}
		pdf.Ln(-1)
		pkgs += s.Packages
		kg += s.Weight
	}
	pdf.SetFont(fontSans, "B", 9)
	pdf.Ln(2)
	pdf.CellFormat(0, 6, wTotal.With(len(m.Shipments), pkgs, kg).In(lang), "", 1, "L", false, 0, "")
	pdf.Ln(14)
	pdf.SetFont(fontSans, "", 9)
	pdf.CellFormat(90, 6, wHandedOverBy.In(lang), "T", 0, "L", false, 0, "")
	pdf.CellFormat(10, 6, "", "", 0, "L", false, 0, "")
	pdf.CellFormat(80, 6, wTakenOverBy.In(lang), "T", 1, "L", false, 0, "")
	return output(pdf)
}

// text prepares a string for the embedded fonts, which have every Czech and
// Slovak letter (and the rest of Latin, Greek and Cyrillic): only control
// characters, which would print as boxes, become spaces.
func text(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return ' '
		}
		return r
	}, s)
}
