// Package shop brings a shop platform's orders to the desk and tells the
// shop what became of them: the orders waiting to ship, what each needs
// before it can ship, the shipment made from one exactly once, and the
// tracking number and status written back. A platform (Shoptet today) is one
// package that implements Source; nothing here knows its wire types.
package shop

import (
	"context"
	"time"
)

// Source is one shop on its platform, as the desk reads and writes it. Its
// errors are apperr errors: apperr.Unavailable for a shop that is down or
// limits us (the caller retries later), apperr.Invalid or apperr.NotFound
// for what retrying cannot fix, apperr.Unauthorized for a refused token.
type Source interface {
	// Shop is the shop the token opens: the check of the Connection page.
	Shop(ctx context.Context) (Shop, error)
	// Statuses are the shop's own order statuses.
	Statuses(ctx context.Context) ([]Status, error)
	// ShippingMethods and PaymentMethods are the shop's methods, for the
	// mapping.
	ShippingMethods(ctx context.Context) ([]Method, error)
	PaymentMethods(ctx context.Context) ([]Method, error)
	// Changes are the orders changed after from, oldest first, all pages.
	Changes(ctx context.Context, from time.Time) ([]Change, error)
	// Order reads one order whole (its items, addresses and notes).
	Order(ctx context.Context, code string) (Order, error)
	// WriteTracking puts the tracking number (and the tracking page's link,
	// when not empty) on the order; "" clears them.
	WriteTracking(ctx context.Context, code, trackingNumber, trackingURL string) error
	// SetStatus moves the order to a status of the shop's; quiet asks the
	// platform not to mail or text the customer about it.
	SetStatus(ctx context.Context, code string, statusID int, quiet bool) error
}

// Shop is a connected shop as its platform names it.
type Shop struct {
	ID   int64
	Name string
	URL  string
}

// Status is one of the shop's order statuses.
type Status struct {
	ID   int
	Name string
	// Final: the platform counts the order closed in it (done or cancelled).
	Final bool
}

// Method is a shipping or payment method of the shop.
type Method struct {
	GUID string
	Name string
	// COD: a payment method whose money the carrier collects (a payment
	// method's own kind, when the platform says it).
	COD bool
}

// Change says an order changed at a time; the order is then read whole.
type Change struct {
	Code    string
	Event   string // "create", "update", "cancel", "delete"
	Changed time.Time
}

// Order is a shop's order as the desk needs it. Texts are as the shop gave
// them: the desk cleans and checks them (textin) before it keeps or ships
// anything.
type Order struct {
	Code     string
	Created  time.Time
	Changed  time.Time
	Status   Status
	Email    string
	Phone    string
	Delivery Address // the delivery address (the billing one when none)
	// Shipping is the shipping method the customer chose at checkout;
	// Point the parcel point chosen with it (nil for a home delivery).
	Shipping Method
	Point    *Point
	Payment  Method
	// Total is what the customer pays, with VAT, in Currency (ISO 4217).
	Total    string // a decimal as the shop wrote it, e.g. "1299.00"
	Currency string
	Paid     bool
	Items    []Item
	// TrackingNumber is what the order's notes already carry (shipped
	// elsewhere, or written back by us).
	TrackingNumber string
	CustomerNote   string
	Cancelled      bool
}

// Address is a delivery address.
type Address struct {
	Company, FullName, Street, HouseNumber, City, Zip, Country string // Country: ISO 3166-1 alpha-2
}

// Point is the parcel point the customer chose at checkout.
type Point struct {
	BranchID                         string // the point's id in the carrier's network, as the checkout gave it
	Carrier                          string // the platform's code of the carrier ("zasilkovna"), may be empty
	Name, Street, City, Zip, Country string
}

// Item is one line of an order.
type Item struct {
	Code   string
	Name   string
	Amount string // how many, a decimal as the shop wrote it
	Weight string // kilograms for one, a decimal as the shop wrote it ("" unknown)
	Price  string // with VAT, for one
	Kind   string // "product", "shipping", "billing", "discount", … as the platform says
}
