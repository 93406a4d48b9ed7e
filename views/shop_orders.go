package views

import (
	"context"
	"strings"
)

// ShopFilter is the inbox's filters as asked.
type ShopFilter struct{ Shipping, Status, Country, Day string }

// ShopInbox is the clerk's inbox of the shop's orders.
type ShopInbox struct {
	Filter                        ShopFilter
	Shipping, Statuses, Countries []Option
	Orders                        []ShopOrderRow
	Next                          string
}

// ShopOrderRow is one order of the inbox, in words.
type ShopOrderRow struct {
	Code, Revision, Created, Status, Recipient, City, Country string
	Shipping, Point, COD, Weight, Elsewhere                   string
	Ready                                                     bool
	Problems                                                  []string
	ShipmentID                                                *int64
}

// ShopOrderView is an order's page.
type ShopOrderView struct {
	Row                                         ShopOrderRow
	Email, Phone, Total, Payment, Note, Address string
	Handover                                    string // the shop's status a handed-over parcel moves the order to
	Key                                         string // the request key of "a new parcel for this order"
	Items                                       []ShopItem
	Shipments                                   []ShopShipment
	Writes                                      []ShopWriteRow
}

// ShopItem is a line of the order.
type ShopItem struct{ Code, Name, Amount, Price string }

// ShopShipment is a shipment made of the order.
type ShopShipment struct {
	ID                           int64
	Reference, Tracking, Carrier string
}

// ShopWriteRow is one write back to the shop.
type ShopWriteRow struct {
	Created, What, State, Sent, Answer string
	Failed                             bool
}

// filter is the inbox's filters as a form the field widgets draw.
func (v ShopInbox) filter() Form {
	return Form{Values: map[string]string{"shipping": v.Filter.Shipping, "status": v.Filter.Status, "country": v.Filter.Country, "day": v.Filter.Day}}
}

// anyOption is a filter's options after "any", which filters nothing.
func anyOption(ctx context.Context, opts []Option) []Option {
	return append([]Option{{Value: "", Label: T(ctx, "orders.any")}}, opts...)
}

// nonEmptyText are the parts that say something.
func nonEmptyText(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}
