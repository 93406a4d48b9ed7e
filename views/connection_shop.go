package views

import "context"

// ShopSection is the Shoptet section of the Connection page: the form that
// connects the shop, or the connected shop with what its statuses and
// methods mean. The token is never part of it.
type ShopSection struct {
	Connected bool
	// Connect is the connection form (its base_url; the token is never
	// typed back), with its errors.
	Connect Form
	Key     string // the request key of each form
	// The connected shop as the shop names it, and its sync.
	ShopName, ShopID, ShopURL, ConnectedAt, SyncedAt, SyncError, HooksURL string
	Statuses                                                              []ShopStatusBox
	Handover                                                              string // a status id, "" for "do not change"
	Notify                                                                bool   // the shop mails the customer about the hand-over
	Shipping                                                              []ShopMethodRow
	Services                                                              []Option // what a shipping method can stand for
	ServicesUnknown                                                       bool     // the service's offers could not be read now
	Payment                                                               []ShopPaymentBox
	// Errors are the statuses' and mappings' forms' field problems.
	Errors map[string]string
}

// ShopStatusBox is one of the shop's statuses, ticked when its orders ship.
type ShopStatusBox struct {
	ID, Name string
	Ship     bool
}

// ShopMethodRow is one shipping method and what it stands for (an Option
// value of Services).
type ShopMethodRow struct {
	GUID, Name, Value string
}

// ShopPaymentBox is one payment method, ticked when it is cash on delivery.
type ShopPaymentBox struct {
	GUID, Name string
	COD        bool
}

// Shipping method choices besides a service.
const (
	ShopMapUnmapped = "unmapped"
	ShopMapRules    = "rules"
	ShopMapNotOurs  = "not_ours"
)

// shopMapOptions are the choices of a shipping method: not yet said, the
// offer rules, not shipped by us, then each service.
func shopMapOptions(ctx context.Context, services []Option) []Option {
	return append([]Option{{ShopMapUnmapped, T(ctx, "connshop.map_unmapped")}, {ShopMapRules, T(ctx, "connshop.map_rules")},
		{ShopMapNotOurs, T(ctx, "connshop.map_not_ours")}}, services...)
}
