package workbench

import (
	"context"
	"shipdesk/shopid"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/mail"
	"shipdesk/storage"
)

// activitySent records the service's id of a sent activity and, for a
// public message, in the same transaction, the mail that brings it to the
// customer: the mail exists exactly when the message is known sent, once
// per message however it was learnt (the answer, or a later read back).
func (w *Workbench) activitySent(ctx context.Context, a storage.Activity, remoteID int64) error {
	return w.db.InTx(ctx, func(tx *storage.DB) error {
		if err := tx.ActivitySentAs(ctx, a.ID, remoteID); err != nil {
			return err
		}
		if !a.Public {
			return nil
		}
		return w.mailMessage(ctx, tx, a)
	})
}

// mailMessage records, on tx, the mail of an agent's message to the customer
// of a claim from the claim page, with a link to the claim's status page
// (where the customer answers). A commission an agent typed in has no page,
// and its customer hears from the service; nothing is mailed for it.
func (w *Workbench) mailMessage(ctx context.Context, tx *storage.DB, a storage.Activity) error {
	if w.Outbox == nil || w.StatusLink == nil {
		return nil
	}
	c, err := tx.CommissionByID(ctx, a.CommissionID)
	if err != nil || strings.TrimSpace(c.CustomerEmail) == "" {
		return err
	}
	link, keep := w.StatusLink(ctx, tx, c.ID)
	if link == "" {
		return nil
	}
	rctx := readerCtx(ctx, c)
	shop := ShopName(ctx, tx)
	about := "claimans.message.about.warranty"
	if c.Type == "withdrawal" {
		about = "claimans.message.about.withdrawal"
	}
	text := i18n.T(rctx, "claimans.message.text", a.Text, link, i18n.T(rctx, about))
	m := mail.Message{EventKey: "claim-message:" + strconv.FormatInt(a.ID, 10), To: strings.TrimSpace(c.CustomerEmail),
		ToName: c.CustomerName, Lang: string(i18n.LangOf(rctx)), Subject: i18n.T(rctx, "claimans.message.subject", shop),
		Text: text, KeepUntil: keep}
	_, err = w.Outbox.ToCustomer(ctx, tx, m)  // under the shop's name, with its signature
	if apperr.CodeOf(err) == apperr.Invalid { // no later attempt could mail it either
		w.log.Warn("message sent but not mailed: the outbox refuses the customer's address or name", "commission", c.ID,
			"problems", apperr.ProblemsOf(err))
		return nil
	}
	return err
}

// ShopName is the shop as its customers know it, in ctx's language (the
// identity's name, else a neutral word: never a sender of the address book).
func ShopName(ctx context.Context, db *storage.DB) string {
	id, _ := shopid.Of(ctx, db) // unread, the neutral word stands
	return shopid.Name(ctx, id)
}
