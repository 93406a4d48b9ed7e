package workbench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/printout"
	"shipdesk/shopid"
	"shipdesk/storage"
)

// Written confirmations of a claim (§19(2) at intake, §19(5) at settlement of
// Act 634/1992): drawn once at their event in the customer's language and
// kept with the commission, so what was issued never changes with later edits.

// Remedies are what a customer may ask for when claiming a defect.
var Remedies = []string{"repair", "replacement", "discount", "withdrawal"}

// Claim says whether a commission is a claim that takes written
// confirmations: a warranty claim the service has.
func Claim(c storage.Commission) bool {
	return c.Type == "warranty" && c.State == storage.StateCreated
}

// IssueIntake keeps the confirmation of a claim taken, in the version its
// extensions make (1 without one); asked again for the same version it
// returns the one kept.
func (w *Workbench) IssueIntake(ctx context.Context, id, by int64) (storage.Document, error) {
	c, err := w.db.CommissionByID(ctx, id)
	if err != nil {
		return storage.Document{}, err
	}
	if !Claim(c) {
		return storage.Document{}, apperr.New(apperr.Conflict, "conf.err.not_claim")
	}
	return w.intake(ctx, w.db, c, by)
}

// confirmCreated issues, on tx (the transaction that records the commission
// as created), a claim's intake confirmation and its mail, on behalf of
// whoever made the commission. A drawing that fails is logged and leaves
// the creation recorded: the agent issues the confirmation by printing it.
func (w *Workbench) confirmCreated(ctx context.Context, tx *storage.DB, id int64) error {
	c, err := tx.CommissionByID(ctx, id)
	if err != nil || !Claim(c) {
		return err
	}
	var by int64
	if c.CreatedBy != nil {
		by = *c.CreatedBy
	}
	_, err = w.intake(ctx, tx, c, by)
	if errors.Is(err, errDrawing) {
		w.log.Error("written confirmation not issued", "commission", c.ID, "err", err)
		return nil
	}
	return err
}

// intake keeps c's intake confirmation on db (which may be a transaction).
func (w *Workbench) intake(ctx context.Context, db *storage.DB, c storage.Commission, by int64) (storage.Document, error) {
	version := c.Extensions + 1
	return w.keep(ctx, db, c, storage.DocIntake, version, by, func(ctx context.Context, claim printout.Claim, d Detail, pdf io.Writer) error {
		in := printout.Intake{Claim: claim, Serial: d.Serial, Purchase: d.Purchase, Defect: d.Fault, Remedy: c.Remedy,
			Deadline: claim.ClaimedAt.AddDate(0, 0, WarrantyDays), ExtendedTo: c.ExtendedTo, AgreedOn: c.ExtensionAgreedOn, Version: version}
		return printout.IntakeConfirmation(ctx, pdf, in)
	})
}

// IssueSettlement keeps the confirmation of a settled claim, once.
func (w *Workbench) IssueSettlement(ctx context.Context, id, by int64) (storage.Document, error) {
	c, err := w.db.CommissionByID(ctx, id)
	if err != nil {
		return storage.Document{}, err
	}
	if !Claim(c) || !DetailOf(c).Resolved() || c.ResolvedAt == nil {
		return storage.Document{}, apperr.New(apperr.Conflict, "conf.err.not_settled")
	}
	return w.keep(ctx, w.db, c, storage.DocSettlement, 1, by, func(ctx context.Context, claim printout.Claim, _ Detail, pdf io.Writer) error {
		s := printout.Settlement{Claim: claim, SettledAt: *c.ResolvedAt, Resolution: c.Resolution, Reason: c.ResolutionReason}
		if c.SettledDays != nil {
			s.Days = *c.SettledDays
		}
		return printout.SettlementConfirmation(ctx, pdf, s)
	})
}

// errDrawing marks a confirmation that could not be drawn: nothing was kept.
var errDrawing = errors.New("draw the written confirmation")

// keep returns the commission's confirmation of kind and version when it is
// kept already; else it draws it (in the customer's language, issued now)
// with what both confirmations say of the claim, and keeps it on db,
// recording its mail to the customer in the same transaction (db's own
// when it is one).
func (w *Workbench) keep(ctx context.Context, db *storage.DB, c storage.Commission, kind string, version int, by int64,
	draw func(context.Context, printout.Claim, Detail, io.Writer) error) (storage.Document, error) {
	if kept, err := db.HasDocument(ctx, c.ID, kind, version); err != nil || kept {
		if err != nil {
			return storage.Document{}, err
		}
		return db.LatestDocument(ctx, c.ID, kind)
	}
	seller, err := w.seller(readerCtx(ctx, c), db)
	if err != nil {
		return storage.Document{}, err
	}
	d, now := DetailOf(c), w.now()
	claim := printout.Claim{Seller: seller, Consumer: consumer(d), Number: c.Number, Reference: c.Reference, ClaimedAt: lodgedAt(c),
		Product: d.Product, Issued: now}
	var pdf bytes.Buffer
	if err := draw(readerCtx(ctx, c), claim, d, &pdf); err != nil {
		return storage.Document{}, fmt.Errorf("%w %s of commission %d: %w", errDrawing, kind, c.ID, err)
	}
	var doc storage.Document
	err = db.InTx(ctx, func(tx *storage.DB) error {
		kept, fresh, err := tx.SaveDocument(ctx, storage.Document{CommissionID: c.ID, Kind: kind, Version: version, CreatedAt: now,
			CreatedBy: storage.UserRef(by), Filename: printout.FileName(kind, c.Number, version), PDF: pdf.Bytes()})
		doc = kept
		if err != nil || !fresh {
			return err // kept by an earlier or concurrent issue, which mailed it
		}
		return w.mailConfirmation(ctx, tx, c, kept, pdf.Bytes())
	})
	return doc, err
}

// Confirmation is a kept confirmation's bytes and file name, for a download
// or a mail's attachment; one of another commission is not found.
func (w *Workbench) Confirmation(ctx context.Context, commission, doc int64) (name string, pdf []byte, err error) {
	d, err := w.db.DocumentByID(ctx, commission, doc)
	return d.Filename, d.PDF, err
}

// LatestConfirmation is the newest kept confirmation of a kind (storage.DocIntake,
// storage.DocSettlement) with its file name, for a mail to attach.
func (w *Workbench) LatestConfirmation(ctx context.Context, commission int64, kind string) (name string, pdf []byte, err error) {
	d, err := w.db.LatestDocument(ctx, commission, kind)
	return d.Filename, d.PDF, err
}

// Confirmations lists a commission's kept confirmations, oldest first.
func (w *Workbench) Confirmations(ctx context.Context, commission int64) ([]storage.Document, error) {
	return w.db.DocumentsOf(ctx, commission)
}

// confirmQuietly issues a confirmation after its event has happened: the
// event stands whatever happens here, and a confirmation not kept now is
// issued when the agent prints it.
func (w *Workbench) confirmQuietly(ctx context.Context, c storage.Commission, issue func(context.Context, int64, int64) (storage.Document, error), by int64) {
	if !Claim(c) {
		return
	}
	if _, err := issue(ctx, c.ID, by); err != nil {
		w.log.Error("written confirmation not issued", "commission", c.ID, "err", err)
	}
}

// seller is the shop as the confirmations name it: the shop's identity
// (its name, phone, reply address and web), at the address of the address
// book's default sender, without the name of a staff member there.
func (w *Workbench) seller(ctx context.Context, db *storage.DB) (printout.Party, error) {
	id, err := shopid.Of(ctx, db)
	if err != nil {
		return printout.Party{}, err
	}
	senders, err := db.Senders(ctx)
	if err != nil {
		return printout.Party{}, err
	}
	var lines []string
	if len(senders) > 0 {
		a := senders[0].Address
		lines = append(lines, a.Street, strings.TrimSpace(a.Zip+" "+a.City))
	}
	lines = append(lines, id.Phone, id.ReplyEmail, id.Web)
	lines = slices.DeleteFunc(lines, func(l string) bool { return l == "" })
	return printout.Party{Name: shopid.Name(ctx, id), Lines: lines}, nil
}

func consumer(d Detail) printout.Party {
	return printout.Party{Name: d.Customer.Name, Lines: []string{d.Customer.Address(), d.Customer.Phone, d.Customer.Email}}
}

// readerCtx is ctx in the customer's language, for what the customer reads.
func readerCtx(ctx context.Context, c storage.Commission) context.Context {
	if l, ok := i18n.Parse(c.Language); ok {
		return i18n.WithLang(ctx, l)
	}
	return i18n.WithLang(ctx, i18n.Czech)
}

// dayOf is a moment's calendar day in the shop's zone.
func dayOf(ctx context.Context, t time.Time) time.Time { return dayIn(i18n.ZoneOf(ctx), t) }

// dayIn is t's calendar day in zone as midnight UTC (how textin.Date reads a
// typed day), so days compare and subtract without summer time.
func dayIn(zone *time.Location, t time.Time) time.Time {
	y, m, d := t.In(zone).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
