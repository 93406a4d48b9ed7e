package claims

import (
	"context"
	"time"

	"shipdesk/desk"
	"shipdesk/i18n"
	mailbox "shipdesk/mail"
	"shipdesk/shopid"
	"shipdesk/storage"
)

// writeOn is the addressee the customer writes on a return parcel: the
// shop's name (the parcel goes to the return address, but no staff member
// is named to the customer).
func (s *Service) writeOn(ctx context.Context) string {
	return shopid.Name(ctx, storage.ShopIdentity{Name: s.Shop(ctx)})
}

// reader is ctx in the claim's language: what the customer reads.
func reader(ctx context.Context, c storage.CustomerClaim) context.Context {
	if l, ok := i18n.Parse(c.Language); ok {
		return i18n.WithLang(ctx, l)
	}
	return i18n.WithLang(ctx, i18n.Czech)
}

// HandOverBy is the day by which the customer hands the return parcel over.
func HandOverBy(c storage.CustomerClaim) time.Time { return c.CreatedAt.AddDate(0, 0, HandOverDays) }

// mailHandover mails the customer what to hand the parcel over with, once
// the service has it: the code (label-free), or the label as a PDF when the
// carrier refused label-free (the spec's fallback). The mail is recorded
// with the mark that it was sent, so it goes once, with a status link of its
// own made in the same transaction.
func (s *Service) mailHandover(ctx context.Context, c *storage.CustomerClaim, parcel storage.Shipment) error {
	code, label, ready := desk.ReturnHandover(parcel)
	if !ready {
		return nil
	}
	rctx := reader(ctx, *c)
	by := i18n.Date(rctx, HandOverBy(*c))
	m := mailbox.Message{EventKey: "claim-handover:" + itoa(c.ID), To: c.Email, ToName: c.Customer.Name, Lang: c.Language,
		KeepUntil: s.now().Add(statusMailKept)}
	var pdf []byte
	if code == "" && label {
		var err error
		if pdf, err = s.ship.Label(ctx, parcel.ID); err != nil {
			return err
		}
	}
	err := s.db.InTx(ctx, func(tx *storage.DB) error {
		first, err := tx.ClaimHandoverMailed(ctx, c.ID)
		if err != nil || !first {
			return err
		}
		token, err := s.statusKey(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		if code != "" {
			m.Subject = i18n.T(rctx, "claim.mail.code_subject", code)
			m.Text = i18n.T(rctx, "claim.mail.code_text", code, c.PointName, by, s.writeOn(rctx), s.StatusURL(token))
		} else if label {
			m.Subject = i18n.T(rctx, "claim.mail.label_subject")
			m.Text = i18n.T(rctx, "claim.mail.label_text", c.PointName, by, s.StatusURL(token))
			m.Attachments = []mailbox.Attachment{{Name: "label-" + parcel.Tracking() + ".pdf", ContentType: "application/pdf", Data: pdf}}
		}
		_, err = s.outbox.ToCustomer(ctx, tx, m)
		return err
	})
	if err == nil {
		c.HandoverMailed = true
	}
	return err
}
