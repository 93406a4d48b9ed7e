package claims

import (
	"context"
	"net/mail"
	"strings"

	"shipdesk/apperr"
	"shipdesk/i18n"
	mailbox "shipdesk/mail"
	"shipdesk/storage"
	"shipdesk/textin"
)

// LinkRequest is what a customer types to ask for the claim form's link.
type LinkRequest struct {
	Reference string // the reference printed on the parcel (the shop's order number) or its tracking number
	Contact   string // the e-mail or the phone the parcel went to
	Client    string // the client's address, for throttling
}

// askBatch is how many asks one round of the pollers answers.
const askBatch = 100

// AskLink records a customer's ask for a one-time link and answers it (nil)
// before anything is looked up: the answer is the same, in what it says and
// in the time it takes, whether or not the purchase exists. The pollers look
// the purchase up afterwards (AnswerAsks) and send the link to the e-mail it
// went to, if it exists and has one. What cannot be read (the same rules
// for every ask) and a client that asked too often are errors.
//
// Doing the work after the answer, rather than padding the answer to a fixed
// time, is what keeps the time equal under any load: a pad only hides a
// difference while the work stays shorter than the pad. The ask is a row, not
// a goroutine's queue, so a restart loses none and a mail goes once.
func (s *Service) AskLink(ctx context.Context, in LinkRequest) error {
	ask, err := readAsk(in)
	if err != nil {
		return err
	}
	ask.Language, ask.AskedAt = string(i18n.LangOf(ctx)), s.now()
	return s.db.InTx(ctx, func(tx *storage.DB) error {
		if err := s.count(ctx, tx, hit("client", s.Limits.Client, in.Client)); err != nil {
			return err
		}
		return tx.RecordLinkAsk(ctx, ask)
	})
}

// readAsk reads the reference and the contact: the reference without spaces
// in upper case, an e-mail in lower case or a phone's last nine digits.
func readAsk(in LinkRequest) (storage.LinkAsk, error) {
	p := apperr.Problems{}
	ref, problem := textin.Line(in.Reference, 64)
	ref = strings.ToUpper(strings.Join(strings.Fields(ref), ""))
	p.Put("reference", problem)
	if ref == "" && problem.IsZero() {
		p.Add("reference", "claim.err.reference")
	}
	ask := storage.LinkAsk{Reference: ref}
	contact, problem := textin.Line(in.Contact, 200)
	switch {
	case !problem.IsZero():
		p.Put("contact", problem)
	case strings.Contains(contact, "@"):
		a, err := mail.ParseAddress(contact)
		if err != nil || a.Address != contact {
			p.Add("contact", "claim.err.contact")
		}
		ask.Email = strings.ToLower(contact)
	default:
		digits, problem := textin.Phone(contact)
		if !problem.IsZero() || len(digits) < 9 {
			p.Add("contact", "claim.err.contact")
		} else {
			ask.Phone = digits[len(digits)-9:]
		}
	}
	if len(p) > 0 {
		return ask, apperr.Fields("claim.err.see_fields", p)
	}
	return ask, nil
}

// AnswerAsks answers the asks recorded since the last round (the pollers
// call it before the mail is sent): each is taken and deleted in the
// transaction that records its link and mail, so a crash loses no ask and
// none is answered twice. An ask that fails is tried again next round; it
// returns how many were answered.
func (s *Service) AnswerAsks(ctx context.Context) (int, error) {
	n, last := 0, int64(0)
	for n < askBatch && ctx.Err() == nil {
		var ask storage.LinkAsk
		found := false
		err := s.db.InTx(ctx, func(tx *storage.DB) error {
			var err error
			if ask, found, err = tx.TakeLinkAsk(ctx, last); err != nil || !found {
				return err
			}
			return s.answer(ctx, tx, ask)
		})
		if !found {
			return n, err
		}
		last = ask.ID // a failed ask waits for the next round, not for this one's end
		if err != nil {
			s.log.Warn("claim link ask failed, will try again", "ask", ask.ID, "err", err)
			continue
		}
		n++
	}
	return n, ctx.Err()
}

// answer sends the link an ask is owed, if any: to the e-mail of the
// purchase it names, at most as often as the purchase's and its mailbox's
// limits allow, whichever name of the purchase and form of the contact the
// customer typed. A made-up ask counts only against its client.
func (s *Service) answer(ctx context.Context, tx *storage.DB, ask storage.LinkAsk) error {
	if l, ok := i18n.Parse(ask.Language); ok {
		ctx = i18n.WithLang(ctx, l)
	}
	sh, err := tx.PurchaseByContact(ctx, ask.Reference, ask.Email, ask.Phone)
	if apperr.Is(err, apperr.NotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	again, err := s.ship.SameAgain(ctx, sh.ID)
	if err != nil {
		return err
	}
	a, err := mail.ParseAddress(again.Form.To.Email)
	if err != nil {
		s.log.Info("claim link not sent: the purchase has no e-mail", "shipment", sh.ID)
		return nil
	}
	to := a.Address
	err = s.count(ctx, tx, hit("purchase", s.Limits.Purchase, itoa(sh.ID)), hit("address", s.Limits.Address, to))
	if apperr.Is(err, apperr.TooMany) {
		s.log.Info("claim link not sent: asked for too often", "shipment", sh.ID)
		return nil
	}
	if err != nil {
		return err
	}
	token, now := newToken(), s.now()
	lang := string(i18n.LangOf(ctx))
	link, err := tx.CreateClaimLink(ctx, storage.ClaimLink{ShipmentID: sh.ID, Email: to, Language: lang, CreatedAt: now,
		ExpiresAt: now.Add(LinkTTL)}, hashOf(token))
	if err != nil {
		return err
	}
	_, err = s.outbox.ToCustomer(ctx, tx, mailbox.Message{EventKey: "claim-link:" + itoa(link.ID), To: to, ToName: again.Form.To.Name(),
		Lang: lang, KeepUntil: link.ExpiresAt, Subject: i18n.T(ctx, "claim.mail.link_subject", sh.Reference),
		Text: i18n.T(ctx, "claim.mail.link_text", sh.Reference, s.linkURL(token), i18n.DateTime(ctx, link.ExpiresAt))})
	return err
}

// Asked is what the page after an ask says besides its neutral sentence,
// the same for every ask: how to reach the shop when the order has no
// e-mail to send a link to, and how many links an order gets an hour.
type Asked struct {
	Contact string // the shop's e-mail and phone ("" when none is known)
	PerHour int    // links one order gets an hour (0: no limit)
}

// Asked reads the shop's contact: its identity's reply address and phone.
func (s *Service) Asked(ctx context.Context) Asked {
	a := Asked{PerHour: max(s.Limits.Purchase.Hits, 0)}
	c := s.contact(ctx)
	var parts []string
	for _, v := range []string{c.Email, c.Phone} {
		if v = strings.TrimSpace(v); v != "" {
			parts = append(parts, v)
		}
	}
	a.Contact = strings.Join(parts, ", ")
	return a
}
