package printout

import (
	"context"
	"io"
	"strconv"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"

	"shipdesk/i18n"
	"shipdesk/pdffont"
)

// Party is the seller or the consumer on a written confirmation: a name and
// the lines that say how to reach them.
type Party struct {
	Name  string
	Lines []string
}

// Claim is what both confirmations say of a claim: the parties, its
// numbers, when it was made, the goods, and when the confirmation was issued.
type Claim struct {
	Seller, Consumer  Party
	Number, Reference string
	ClaimedAt         time.Time // when the claim was made
	Product           string
	Issued            time.Time
}

// Intake is what the confirmation of a claim taken says (§19(2) of Act
// 634/1992): who, which goods, what is claimed, the remedy asked, and how
// and by when it will be handled.
type Intake struct {
	Claim
	Serial   string
	Purchase string // the day the goods were bought, ISO; "" unknown
	Defect   string // the consumer's description of the defect
	Remedy   string // repair, replacement, discount, withdrawal; "" not said
	Deadline time.Time
	// ExtendedTo and AgreedOn: a longer time agreed with the consumer, and
	// the day it was agreed (nil without one).
	ExtendedTo, AgreedOn *time.Time
	Version              int
}

// Settlement is what the confirmation of a settled claim says (§19(5)): when
// and how it was settled, why when rejected, and in how many days.
type Settlement struct {
	Claim
	SettledAt  time.Time
	Resolution string // repaired, replaced, refunded, rejected
	Reason     string
	Days       int
}

// IntakeConfirmation draws the confirmation of a claim taken, on A4 in the
// language of ctx (the customer's), times in the shop's zone.
func IntakeConfirmation(ctx context.Context, w io.Writer, c Intake) error {
	d := newLetter(ctx, "conf.intake.title", c.Claim)
	d.heading("conf.goods")
	d.fact("conf.product", c.Product)
	d.fact("conf.serial", c.Serial)
	if c.Purchase != "" {
		d.fact("conf.purchase", i18n.Day(ctx, c.Purchase))
	}
	d.fact("conf.defect", c.Defect)
	remedy := i18n.T(ctx, "conf.remedy.none")
	if c.Remedy != "" {
		remedy = i18n.T(ctx, "conf.remedy."+c.Remedy)
	}
	d.fact("conf.remedy", remedy)
	d.heading("conf.handling")
	d.para(i18n.T(ctx, "conf.handling.text"))
	if c.ExtendedTo != nil && c.AgreedOn != nil {
		d.fact("conf.deadline", i18n.Date(ctx, *c.ExtendedTo))
		d.fact("conf.extension", i18n.T(ctx, "conf.extension.text", i18n.Date(ctx, *c.ExtendedTo), i18n.Day(ctx, c.AgreedOn.Format("2006-01-02"))))
	} else {
		d.fact("conf.deadline", i18n.T(ctx, "conf.deadline.text", i18n.Date(ctx, c.Deadline)))
	}
	d.law("conf.intake.law")
	if c.Version > 1 {
		d.small(i18n.T(ctx, "conf.version", c.Version))
	}
	return d.output(w)
}

// SettlementConfirmation draws the confirmation of a settled claim.
func SettlementConfirmation(ctx context.Context, w io.Writer, s Settlement) error {
	d := newLetter(ctx, "conf.settle.title", s.Claim)
	d.fact("conf.product", s.Product)
	d.heading("conf.settlement")
	d.fact("conf.settled_at", i18n.Date(ctx, s.SettledAt))
	d.fact("conf.how", i18n.T(ctx, "conf.res."+s.Resolution))
	if s.Resolution == "rejected" || s.Reason != "" {
		d.fact("conf.reason", s.Reason)
	}
	d.fact("conf.took", i18n.N(ctx, "conf.days", s.Days))
	d.law("conf.settle.law")
	return d.output(w)
}

// letter is one confirmation being drawn: A4, margins of 20 mm, text that
// wraps and breaks onto new pages, never cut.
type letter struct {
	ctx context.Context
	pdf *fpdf.Fpdf
}

const (
	letterMargin = 20.0
	labelWidth   = 52.0 // the labels' column; the values take the rest
	textWidth    = 210 - 2*letterMargin
)

// newLetter starts a confirmation of c: its title, the parties and the
// claim's numbers and time.
func newLetter(ctx context.Context, titleKey string, c Claim) *letter {
	number, issued := c.Number, c.Issued
	pdf := fpdf.New("P", "mm", "A4", "")
	pdffont.Register(pdf, fontSans, "", goregular.TTF)
	pdffont.Register(pdf, fontSans, "B", gobold.TTF)
	pdf.SetMargins(letterMargin, letterMargin, letterMargin)
	pdf.SetAutoPageBreak(true, letterMargin)
	pdf.SetCreator("shipdesk", true)
	pdf.SetTitle(i18n.T(ctx, titleKey), true)
	// The commission's number, readable in the document's properties (and by
	// a search of its files).
	number = clean(number)
	pdf.SetSubject(number, strings.ContainsFunc(number, func(r rune) bool { return r > 0x7e }))
	// A record dated by its event, so the same drawing gives the same bytes.
	pdf.SetCreationDate(issued)
	pdf.SetModificationDate(issued)
	pdf.SetFooterFunc(func() {
		pdf.SetXY(letterMargin, -14)
		pdf.SetFont(fontSans, "", 8)
		pdf.SetTextColor(90, 90, 90)
		pdf.CellFormat(textWidth/2, 5, i18n.T(ctx, "conf.issued", i18n.DateTime(ctx, issued)), "", 0, "L", false, 0, "")
		pdf.CellFormat(textWidth/2, 5, i18n.T(ctx, "conf.page", pdf.PageNo()), "", 0, "R", false, 0, "")
		pdf.SetTextColor(0, 0, 0)
	})
	pdf.AddPage()
	pdf.SetFont(fontSans, "B", 16)
	pdf.MultiCell(0, 8, i18n.T(ctx, titleKey), "", "L", false)
	pdf.Ln(3)
	d := &letter{ctx: ctx, pdf: pdf}
	d.parties(c.Seller, c.Consumer)
	d.heading("conf.claim")
	d.fact("conf.number", c.Number)
	d.fact("conf.reference", c.Reference)
	d.fact("conf.claimed_at", i18n.DateTime(ctx, c.ClaimedAt))
	return d
}

// parties draws the seller and the consumer side by side.
func (d *letter) parties(seller, consumer Party) {
	y := d.pdf.GetY()
	bottom := y
	for i, p := range []struct {
		key   string
		party Party
	}{{"conf.seller", seller}, {"conf.consumer", consumer}} {
		x := letterMargin + float64(i)*textWidth/2
		d.pdf.SetXY(x, y)
		d.pdf.SetFont(fontSans, "", 9)
		d.pdf.SetTextColor(90, 90, 90)
		d.pdf.CellFormat(textWidth/2-4, 5, i18n.T(d.ctx, p.key), "", 2, "L", false, 0, "")
		d.pdf.SetTextColor(0, 0, 0)
		d.pdf.SetFont(fontSans, "B", 10.5)
		d.pdf.MultiCell(textWidth/2-4, 5.5, clean(orDash(p.party.Name)), "", "L", false)
		d.pdf.SetFont(fontSans, "", 10)
		for _, line := range p.party.Lines {
			if line != "" {
				d.pdf.SetX(x)
				d.pdf.MultiCell(textWidth/2-4, 5, clean(line), "", "L", false)
			}
		}
		bottom = max(bottom, d.pdf.GetY())
	}
	d.pdf.SetXY(letterMargin, bottom+4)
}

func (d *letter) heading(key string) {
	d.pdf.Ln(2)
	d.pdf.SetFont(fontSans, "B", 12)
	d.pdf.MultiCell(0, 7, i18n.T(d.ctx, key), "B", "L", false)
	d.pdf.Ln(1.5)
}

// fact is a label and its value; a long value wraps in its column.
func (d *letter) fact(key, value string) {
	y := d.pdf.GetY()
	if y+6 > 297-letterMargin {
		d.pdf.AddPage()
		y = d.pdf.GetY()
	}
	d.pdf.SetFont(fontSans, "", 9.5)
	d.pdf.SetTextColor(90, 90, 90)
	d.pdf.MultiCell(labelWidth-3, 5.5, i18n.T(d.ctx, key), "", "L", false)
	labelEnd, labelPage := d.pdf.GetY(), d.pdf.PageNo()
	d.pdf.SetTextColor(0, 0, 0)
	d.pdf.SetXY(letterMargin+labelWidth, y)
	d.pdf.SetFont(fontSans, "B", 10)
	d.pdf.MultiCell(textWidth-labelWidth, 5.5, clean(orDash(value)), "", "L", false)
	if d.pdf.PageNo() == labelPage {
		d.pdf.SetY(max(d.pdf.GetY(), labelEnd))
	}
	d.pdf.Ln(0.8)
}

func (d *letter) para(text string) {
	d.pdf.SetFont(fontSans, "", 10)
	d.pdf.MultiCell(0, 5.5, clean(text), "", "L", false)
	d.pdf.Ln(1.5)
}

// law cites the section the confirmation is issued under, after the facts.
func (d *letter) law(key string) {
	d.pdf.Ln(4)
	d.pdf.SetFont(fontSans, "", 9)
	d.pdf.MultiCell(0, 5, i18n.T(d.ctx, key), "T", "L", false)
}

func (d *letter) small(text string) {
	d.pdf.SetFont(fontSans, "", 8.5)
	d.pdf.SetTextColor(90, 90, 90)
	d.pdf.MultiCell(0, 4.5, text, "", "L", false)
	d.pdf.SetTextColor(0, 0, 0)
}

func (d *letter) output(w io.Writer) error { return d.pdf.Output(w) }

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// FileName is a confirmation's file name: ASCII, so every browser and mail
// client keeps it ("potvrzeni-prijeti-RMA-000001-v2.pdf").
func FileName(kind, number string, version int) string {
	safe := make([]byte, 0, len(number))
	for _, r := range number {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			safe = append(safe, byte(r))
		}
	}
	if len(safe) > 40 {
		safe = safe[:40]
	}
	name := map[string]string{"intake": "potvrzeni-prijeti", "settlement": "potvrzeni-vyrizeni"}[kind]
	if name == "" {
		name = "potvrzeni"
	}
	if len(safe) > 0 {
		name += "-" + string(safe)
	}
	if version > 1 {
		name += "-v" + strconv.Itoa(version)
	}
	return name + ".pdf"
}
