package shoptet

import (
	"cmp"
	"slices"

	api "shipdesk/client/shoptet"
	"shipdesk/shop"
)

// OrderOf is a Shoptet order as the desk needs it. Texts, amounts and
// weights pass as the shop wrote them (the desk cleans and checks them);
// what Shoptet leaves null is "".
func OrderOf(o *api.Order) shop.Order {
	out := shop.Order{
		Code:     o.Code,
		Created:  o.CreationTime.At(),
		Changed:  o.ChangeTime.At(),
		Email:    str(o.Email),
		Phone:    str(o.Phone),
		Delivery: deliveryOf(o),
		Point:    pointOf(o.ShippingDetails),
		Total:    cmp.Or(str(o.Price.ToPay), str(o.Price.WithVAT)),
		Currency: o.Price.CurrencyCode,
		Paid:     o.Paid != nil && *o.Paid,
	}
	if o.Status != nil {
		out.Status = statusOf(o.Status.ID, str(o.Status.Name))
		out.Cancelled = o.Status.ID == StatusCancelled
	}
	if o.Shipping != nil {
		out.Shipping = shop.Method{GUID: o.Shipping.GUID, Name: o.Shipping.Name}
	}
	if o.PaymentMethod != nil {
		out.Payment = shop.Method{GUID: str(o.PaymentMethod.GUID), Name: o.PaymentMethod.Name,
			COD: o.BillingMethod != nil && o.BillingMethod.ID == api.BillingCOD}
	}
	for _, it := range o.Items {
		out.Items = append(out.Items, itemOf(it))
	}
	if o.Notes != nil {
		out.TrackingNumber = str(o.Notes.TrackingNumber)
		out.CustomerNote = str(o.Notes.CustomerRemark)
	}
	return out
}

// deliveryOf is the delivery address, or the billing one when the order
// has none (Shoptet's addressesEqual) or an empty one; a delivery address
// without a name is the billing person's.
func deliveryOf(o *api.Order) shop.Address {
	billing := addressOf(&o.BillingAddress)
	if o.DeliveryAddress == nil {
		return billing
	}
	d := addressOf(o.DeliveryAddress)
	if d.Street == "" && d.City == "" && d.Zip == "" {
		return billing
	}
	if d.FullName == "" && d.Company == "" {
		d.FullName, d.Company = billing.FullName, billing.Company
	}
	return d
}

func addressOf(a *api.Address) shop.Address {
	return shop.Address{Company: str(a.Company), FullName: str(a.FullName), Street: str(a.Street),
		HouseNumber: str(a.HouseNumber), City: str(a.City), Zip: str(a.Zip), Country: str(a.CountryCode)}
}

// pointOf is the parcel point chosen at checkout; none without a branch.
func pointOf(d *api.ShippingDetails) *shop.Point {
	if d == nil || str(d.BranchID) == "" {
		return nil
	}
	return &shop.Point{BranchID: str(d.BranchID), Carrier: str(d.ShippingCompanyCode), Name: str(d.Name),
		Street: str(d.Street), City: str(d.City), Zip: str(d.ZipCode), Country: str(d.CountryCode)}
}

// itemOf is one line; a variant's name follows the product's.
func itemOf(it api.Item) shop.Item {
	name := it.Name
	if v := str(it.VariantName); v != "" {
		name += " – " + v
	}
	return shop.Item{Code: str(it.Code), Name: name, Amount: str(it.Amount), Weight: it.Weight,
		Price: str(it.UnitPrice.WithVAT), Kind: it.ItemType}
}

// changeOf is one line of the changes; Shoptet counts a creation as an
// edit, so an order's change is an "update" or a "delete".
func changeOf(c api.Change) shop.Change {
	event := "update"
	if c.ChangeType == "delete" {
		event = "delete"
	}
	return shop.Change{Code: c.Code, Event: event, Changed: c.ChangeTime.At()}
}

// sortChanges puts the changes oldest first (by code within a second).
func sortChanges(list []shop.Change) {
	slices.SortStableFunc(list, func(a, b shop.Change) int {
		return cmp.Or(a.Changed.Compare(b.Changed), cmp.Compare(a.Code, b.Code))
	})
}

func str(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
