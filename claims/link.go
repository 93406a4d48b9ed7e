package claims

import (
	"context"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/workbench"
)

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
	Items   []Item
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
	if st.Products, err = s.bench.Products(ctx); err != nil {
		return st, err
	}
	if p, ok := s.purchaseOf(ctx, sh); ok {
		st.Items, st.Bought = itemsOf(p, st.Products), &p.Day
	}
	return st, nil
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
