package claims

import (
	"context"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	mailbox "shipdesk/mail"
	"shipdesk/shop"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/throttle"
	"shipdesk/workbench"
)

// LinkRequest is what a customer types to ask for the claim form's link.
type LinkRequest struct {
	Reference string // the reference printed on the parcel (the shop's order number) or its tracking number
	Contact   string // the e-mail or the phone the parcel went to
	Client    string // the client's address, for throttling
}

// AskLink sends a one-time link to the e-mail a purchase went to, when the
// reference and the contact match one. It answers the same (nil) whether or
// not they do: only the owner of that mailbox learns that the purchase
// exists. What cannot be read, and too many requests (counted before the
// purchase is looked up, so they say nothing either), are errors.
func (s *Service) AskLink(ctx context.Context, in LinkRequest) error {
	p := apperr.Problems{}
	ref, problem := textin.Line(in.Reference, 64)
	ref = strings.ToUpper(strings.Join(strings.Fields(ref), ""))
	p.Put("reference", problem)
	if ref == "" && problem.IsZero() {
		p.Add("reference", "claim.err.reference")
	}
	email, phone := "", ""
	contact, problem := textin.Line(in.Contact, 200)
	switch {
	case !problem.IsZero():
		p.Put("contact", problem)
	case strings.Contains(contact, "@"):
		a, err := mail.ParseAddress(contact)
		if err != nil || a.Address != contact {
			p.Add("contact", "claim.err.contact")
		}
		email = strings.ToLower(contact)
	default:
		digits, problem := textin.Phone(contact)
		if !problem.IsZero() || len(digits) < 9 {
			p.Add("contact", "claim.err.contact")
		} else {
			phone = digits[len(digits)-9:]
		}
	}
	if len(p) > 0 {
		return apperr.Fields("claim.err.see_fields", p)
	}
	for _, t := range []struct {
		scope string
		l     throttle.Limit
		key   string
	}{{"client", s.Limits.Client, in.Client}, {"purchase", s.Limits.Purchase, ref}, {"address", s.Limits.Address, email + phone}} {
		if err := s.throttled(ctx, t.scope, t.l, t.key); err != nil {
			return err
		}
	}
	sh, err := s.db.PurchaseByContact(ctx, ref, email, phone)
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
	to := again.Form.To.Email
	if _, err := mail.ParseAddress(to); err != nil {
		s.log.Info("claim link not sent: the purchase has no e-mail", "shipment", sh.ID)
		return nil
	}
	token, now := newToken(), s.now()
	lang := string(i18n.LangOf(ctx))
	return s.db.InTx(ctx, func(tx *storage.DB) error {
		link, err := tx.CreateClaimLink(ctx, storage.ClaimLink{ShipmentID: sh.ID, Email: to, Language: lang, CreatedAt: now,
			ExpiresAt: now.Add(LinkTTL)}, hashOf(token))
		if err != nil {
			return err
		}
		_, err = s.outbox.Enqueue(ctx, tx, mailbox.Message{EventKey: "claim-link:" + itoa(link.ID), To: to, ToName: again.Form.To.Name(),
			Lang: lang, Subject: i18n.T(ctx, "claim.mail.link_subject", sh.Reference),
			Text: i18n.T(ctx, "claim.mail.link_text", sh.Reference, s.linkURL(token), i18n.DateTime(ctx, link.ExpiresAt))})
		return err
	})
}

// Start is what the claim form is filled with: the purchase a link opens.
type Start struct {
	Token     string
	Reference string
	Tracking  string
	Email     string // where the link went: the claim's mail goes there
	Address   desk.Address
	Packages  int
	// Delivered is when tracking saw the purchase delivered (nil: not yet
	// known); WithdrawBy is the last day of its 14 days, Late when past.
	Delivered  *time.Time
	WithdrawBy *time.Time
	Late       bool
	Refund     string // what the purchase collected on delivery, offered as the refund
	Products   []workbench.ProductType
	// Items and Bought: what the purchase bought in the shop and when, when
	// it came from the connected shop (the page offers these, not Products).
	Items   []shop.PurchaseItem
	Bought  *time.Time
	Expires time.Time
}

// Open reads the purchase a one-time link opens; a link used, expired or
// unknown says so (NotFound or Conflict), and a client that tries many is
// throttled.
func (s *Service) Open(ctx context.Context, token, client string) (Start, error) {
	link, err := s.link(ctx, s.db, token, client, false)
	if err != nil {
		return Start{}, err
	}
	sh, err := s.db.ShipmentByID(ctx, link.ShipmentID)
	if err != nil {
		return Start{}, err
	}
	again, err := s.ship.SameAgain(ctx, sh.ID)
	if err != nil {
		return Start{}, err
	}
	st := Start{Token: token, Reference: sh.Reference, Tracking: sh.Tracking(), Email: link.Email, Address: again.Form.To,
		Packages: len(again.Form.Packages), Delivered: sh.DeliveredAt, Expires: link.ExpiresAt}
	if sh.DeliveredAt != nil {
		by := withdrawBy(*sh.DeliveredAt)
		st.WithdrawBy, st.Late = &by, s.now().After(by)
	}
	if sh.CODValue != nil {
		st.Refund = strings.ReplaceAll(strconv.FormatFloat(*sh.CODValue, 'f', -1, 64), ".", ",")
	}
	if p, ok := s.purchaseOf(ctx, sh); ok {
		st.Items, st.Bought = p.Items, &p.Day
	}
	st.Products, err = s.bench.Products(ctx)
	return st, err
}

// link reads a usable link: known, unused, unexpired.
func (s *Service) link(ctx context.Context, db *storage.DB, token, client string, lock bool) (storage.ClaimLink, error) {
	if !tokenShape(token) {
		return storage.ClaimLink{}, s.unknown(ctx, client, apperr.New(apperr.NotFound, "claim.err.link_unknown"))
	}
	link, err := db.ClaimLinkByToken(ctx, hashOf(token), lock)
	if err != nil {
		return link, s.unknown(ctx, client, err)
	}
	switch {
	case link.UsedAt != nil:
		return link, apperr.New(apperr.Conflict, "claim.err.link_used")
	case !s.now().Before(link.ExpiresAt):
		return link, apperr.New(apperr.Conflict, "claim.err.link_expired")
	}
	return link, nil
}

// withdrawBy is the end of the 14 days to withdraw from a purchase delivered
// at: the end of the 14th calendar day after it, in the shop's zone.
func withdrawBy(delivered time.Time) time.Time {
	y, m, d := delivered.In(i18n.Prague).Date()
	return time.Date(y, m, d+workbench.WithdrawalDays+1, 0, 0, 0, 0, i18n.Prague).Add(-time.Second)
}

// Points are the points of carrier (one that takes label-free parcels) a
// return parcel may be handed over at, for the picker of the form a link
// opened: near text, or the customer's town.
func (s *Service) Points(ctx context.Context, token, client, carrier, text string) (storage.PointsFound, error) {
	if _, err := s.link(ctx, s.db, token, client, false); err != nil {
		return storage.PointsFound{}, err
	}
	if carrier == "" {
		return storage.PointsFound{}, nil
	}
	return s.ship.ReturnPoints(ctx, carrier, "CZ", text)
}
