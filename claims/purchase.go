package claims

import (
	"context"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/shop"
	"shipdesk/storage"
)

// Purchases tells what a parcel's purchase bought in the shop (by the
// reference printed on the parcel); NotFound for a parcel of no shop order.
type Purchases interface {
	Purchase(ctx context.Context, reference string) (shop.Purchase, error)
}

// purchaseOf is the shop's purchase a shipment carried, when the shop is
// connected and knows it.
func (s *Service) purchaseOf(ctx context.Context, sh storage.Shipment) (shop.Purchase, bool) {
	if s.Purchases == nil || sh.Reference == "" {
		return shop.Purchase{}, false
	}
	p, err := s.Purchases.Purchase(ctx, sh.Reference)
	if err != nil {
		if !apperr.Is(err, apperr.NotFound) {
			s.log.Warn("claim: the shop's purchase", "shipment", sh.ID, "err", err)
		}
		return shop.Purchase{}, false
	}
	return p, true
}

// purchaseFacts are what the commission says of a shop's purchase: its day,
// and, for the agent, the order and the item claimed (its name, code and
// price, as the claim keeps it).
func (s *Service) purchaseFacts(ctx context.Context, c storage.CustomerClaim) (day, item string) {
	sh, err := s.db.ShipmentByID(ctx, c.ShipmentID)
	if err != nil {
		return "", ""
	}
	p, ok := s.purchaseOf(ctx, sh)
	if !ok {
		return "", ""
	}
	reader := i18n.WithLang(ctx, i18n.Lang(c.Language))
	day = p.Day.In(i18n.Prague).Format("2006-01-02")
	return day, i18n.T(reader, "claim.bought", p.Code, i18n.Day(reader, day), c.Product)
}
