package workbench

import (
	"context"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/mail"
	"shipdesk/storage"
)

// pdfType is a confirmation's content type as a mail attaches it.
const pdfType = "application/pdf"

// mailConfirmation records, on tx (the transaction that keeps doc), the mail
// that brings a newly kept confirmation to the customer, so the mail exists
// exactly when the document does. Nothing is recorded without an outbox or a
// customer's address; a mail the outbox refuses (an address that is no one
// address, a name that would break the header) leaves the document kept and
// unmailed (logged), since no later attempt could mail it either.
func (w *Workbench) mailConfirmation(ctx context.Context, tx *storage.DB, c storage.Commission, doc storage.Document, pdf []byte) error {
	if w.Outbox == nil || strings.TrimSpace(c.CustomerEmail) == "" {
		return nil
	}
	m := w.confirmationMessage(readerCtx(ctx, c), tx, c, doc, pdf)
	_, err := w.Outbox.ToCustomer(ctx, tx, m)
	if apperr.CodeOf(err) == apperr.Invalid {
		w.log.Warn("confirmation kept but not mailed: the outbox refuses the customer's address or name", "commission", c.ID, "document", doc.ID,
			"problems", apperr.ProblemsOf(err))
		return nil
	}
	return err
}

// confirmationMessage is the mail of a confirmation in ctx's language (the
// customer's): what the document is, for which commission, and for a
// settlement how the claim ended; the PDF attached as kept. The outbox
// signs it in the shop's name (Outbox.ToCustomer).
func (w *Workbench) confirmationMessage(ctx context.Context, tx *storage.DB, c storage.Commission, doc storage.Document, pdf []byte) mail.Message {
	var subject string
	var body []string
	switch {
	case doc.Kind == storage.DocSettlement:
		subject = i18n.T(ctx, "confmail.settlement.subject", c.Number)
		body = append(body, i18n.T(ctx, "confmail.settlement.intro", c.Number), settledHow(ctx, c))
	case doc.Version > 1:
		subject = i18n.T(ctx, "confmail.extended.subject", c.Number)
		body = append(body, i18n.T(ctx, "confmail.extended.intro", c.Number, i18n.Date(ctx, intakeDeadline(c))))
	default:
		subject = i18n.T(ctx, "confmail.intake.subject", c.Number)
		body = append(body, i18n.T(ctx, "confmail.intake.intro", c.Number, i18n.Date(ctx, intakeDeadline(c))))
	}
	var keep time.Time
	if w.StatusLink != nil {
		if link, until := w.StatusLink(ctx, tx, c.ID); link != "" {
			body = append(body, i18n.T(ctx, "confmail.status_link", link))
			keep = until
		}
	}
	body = append(body, i18n.T(ctx, "confmail.keep"))
	text := i18n.T(ctx, "confmail.greeting") + "\n\n" + strings.Join(body, "\n\n") + "\n"
	return mail.Message{EventKey: "confirmation:" + strconv.FormatInt(doc.ID, 10), To: strings.TrimSpace(c.CustomerEmail),
		ToName: c.CustomerName, Lang: string(i18n.LangOf(ctx)), Subject: subject, Text: text,
		Attachments: []mail.Attachment{{Name: doc.Filename, ContentType: pdfType, Data: pdf}}, KeepUntil: keep}
}

// settledHow says when and how a settled claim ended, with the reason of a
// rejection.
func settledHow(ctx context.Context, c storage.Commission) string {
	on := ""
	if c.ResolvedAt != nil {
		on = i18n.Date(ctx, *c.ResolvedAt)
	}
	how := i18n.T(ctx, "confmail.settled."+c.Resolution, on)
	if c.Resolution == "rejected" && c.ResolutionReason != "" {
		how += "\n" + i18n.T(ctx, "confmail.reason", c.ResolutionReason)
	}
	return how
}

// intakeDeadline is the day a taken claim is to be settled by, as its intake
// confirmation says: the deadline agreed with the customer, else 30 days
// from when the claim was lodged.
func intakeDeadline(c storage.Commission) time.Time {
	if c.ExtendedTo != nil {
		return *c.ExtendedTo
	}
	return lodgedAt(c).AddDate(0, 0, WarrantyDays)
}
