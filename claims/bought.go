package claims

import (
	"cmp"
	"context"
	"math"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/shop"
	"shipdesk/workbench"
)

// Item is one product of a shop's purchase as the claim form offers it,
// with the model of the returns service's list its commission is filed
// under; ModelID 0 when the list has no such kind of product, and the
// customer says which kind it is.
type Item struct {
	shop.PurchaseItem
	TypeID, ModelID int64
}

// Key is what the form posts for the item: its code, or its name when the
// shop gave it none.
func (it Item) Key() string { return cmp.Or(it.Code, it.Name) }

// PriceIn is the item's price for one as the reader writes money; as the
// shop sent it when it is no number.
func (it Item) PriceIn(ctx context.Context) string {
	v, err := strconv.ParseFloat(it.Price, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return strings.TrimSpace(it.Price + " " + it.Currency)
	}
	return i18n.Money(ctx, v, it.Currency)
}

// Listed says the service's list knows the item's kind.
func (it Item) Listed() bool { return it.ModelID != 0 }

// itemsOf are the purchase's products, each with its place in the list.
func itemsOf(p shop.Purchase, products []workbench.ProductType) []Item {
	out := make([]Item, 0, len(p.Items))
	for _, pi := range p.Items {
		it := Item{PurchaseItem: pi}
		it.TypeID, it.ModelID = listedAs(pi.Name, products)
		out = append(out, it)
	}
	return out
}

// listedAs finds the kind of a product of the shop in the service's list
// by its name ("Rychlovarná konvice Tefal 1,7 l" is a "Rychlovarná
// konvice"): the model of the same brand when the list has one, else the
// kind's first model. The longest kind's name wins ("Mikrovlnná trouba"
// over "trouba").
func listedAs(name string, products []workbench.ProductType) (typeID, modelID int64) {
	name = strings.ToLower(name)
	best := 0
	var kind workbench.ProductType
	for _, t := range products {
		tn := strings.ToLower(strings.TrimSpace(t.Name))
		if tn != "" && len(t.Models) > 0 && len(tn) > best && strings.Contains(name, tn) {
			best, kind = len(tn), t
		}
	}
	if best == 0 {
		return 0, 0
	}
	for _, m := range kind.Models {
		if brand, _, _ := strings.Cut(strings.ToLower(m.Name), " "); brand != "" && strings.Contains(name, brand) {
			return kind.ID, m.ID
		}
	}
	return kind.ID, kind.Models[0].ID
}

// itemOf is the purchase's item the form posted (by its Key).
func itemOf(items []Item, key string) (Item, bool) {
	for _, it := range items {
		if key != "" && it.Key() == key {
			return it, true
		}
	}
	return Item{}, false
}

// claimed names the product a claim is about, with its type in the
// service's list, and sets f.ModelID to its model: for a purchase from the
// shop, one of the order's items (any other is refused), filed under its
// kind in the list (or the kind the customer chose when the list has none);
// for a parcel of no shop order, a model of the list. What is wrong goes to p.
func (s *Service) claimed(ctx context.Context, shipmentID int64, f *Form, p apperr.Problems) (string, int64, error) {
	sh, err := s.db.ShipmentByID(ctx, shipmentID)
	if err != nil {
		return "", 0, err
	}
	purchase, fromShop := s.purchaseOf(ctx, sh)
	if !fromShop || len(purchase.Items) == 0 { // the form offered the service's list
		if f.Item != "" { // no shop order: no item to claim
			p.Add("item", "claim.err.item")
			return "", 0, nil
		}
		return s.listModel(ctx, f.ModelID, p)
	}
	products, err := s.bench.Products(ctx)
	if err != nil {
		return "", 0, err
	}
	it, ok := itemOf(itemsOf(purchase, products), f.Item)
	if !ok {
		p.Add("item", "claim.err.item")
		return "", 0, nil
	}
	product := i18n.T(ctx, "claim.bought_item", it.Name, it.Code, it.PriceIn(ctx))
	if it.Listed() {
		f.ModelID = it.ModelID
		return product, it.TypeID, nil
	}
	_, typeID, err := s.listModel(ctx, f.ModelID, p)
	return product, typeID, err
}

// listModel names a model of the service's list with its type; an unknown
// one (or one refused already) is a problem of the form.
func (s *Service) listModel(ctx context.Context, modelID int64, p apperr.Problems) (string, int64, error) {
	if !p["model_id"].IsZero() {
		return "", 0, nil
	}
	if modelID <= 0 {
		p.Add("model_id", "claim.err.model")
		return "", 0, nil
	}
	product, typeID, err := s.product(ctx, modelID)
	if err == nil && typeID == 0 {
		p.Add("model_id", "claim.err.model")
	}
	return product, typeID, err
}
