package shop

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Purchase is what a customer bought in the shop, for the claim page: the
// order's day and its products, instead of the whole catalogue.
type Purchase struct {
	Code  string
	Day   time.Time // when the order was made
	Items []PurchaseItem
}

// PurchaseItem is one product of a purchase.
type PurchaseItem struct {
	Code     string
	Name     string
	Amount   string
	Price    string // for one, with VAT
	Currency string
}

// Purchase reads the order whose parcel carries the reference (the one
// printed on the parcel); NotFound when the parcel came from no order of
// the shop.
func (s *Service) Purchase(ctx context.Context, reference string) (Purchase, error) {
	o, err := s.db.ShopOrderOfReference(ctx, strings.TrimSpace(reference))
	if err != nil {
		return Purchase{}, err
	}
	var k kept
	if err := json.Unmarshal(o.Doc, &k); err != nil {
		return Purchase{}, fmt.Errorf("kept shop order %s: %w", o.Code, err)
	}
	p := Purchase{Code: o.Code, Day: k.Created}
	for _, it := range k.Items {
		if it.Kind != "" && it.Kind != "product" {
			continue
		}
		p.Items = append(p.Items, PurchaseItem{Code: cut(it.Code, 100), Name: cut(it.Name, 200), Amount: cut(it.Amount, 20),
			Price: cut(it.Price, 20), Currency: o.Currency})
	}
	return p, nil
}
