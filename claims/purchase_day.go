package claims

import (
	"context"

	"shipdesk/i18n"
	"shipdesk/storage"
)

// deliveryDay is the purchase's day when the shop does not say it: the day
// its parcel was delivered, else the day it was sent; never the day the
// claim was filed, which may be weeks later (YYYY-MM-DD, the shop's zone).
func (s *Service) deliveryDay(ctx context.Context, c storage.CustomerClaim) string {
	at := c.DeliveredAt
	if at == nil {
		if sh, err := s.db.ShipmentByID(ctx, c.ShipmentID); err == nil {
			at = sh.DeliveredAt
			if at == nil {
				at = &sh.CreatedAt
			}
		}
	}
	if at == nil {
		at = &c.CreatedAt
	}
	return at.In(i18n.Prague).Format("2006-01-02")
}

// purchaseDay is the purchase's day as the claim's commission is given it:
// the shop order's, else deliveryDay.
func (s *Service) purchaseDay(ctx context.Context, c storage.CustomerClaim) string {
	if day, _ := s.purchaseFacts(ctx, c); day != "" {
		return day
	}
	return s.deliveryDay(ctx, c)
}
