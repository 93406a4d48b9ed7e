package desk

import (
	"context"
	"slices"
	"strings"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/textin"
)

// PickupCarrier is a carrier a courier pickup may name: its code (what is
// sent) and its name (what the clerk reads).
type PickupCarrier struct {
	Code, Name string
}

// pickupProbe is the parcel the service is asked to price from a stored
// address to learn which carriers collect there: the carriers, not the
// prices, are what counts.
var pickupProbe = shipping.Package{Weight: 1, Length: 20, Width: 20, Height: 10}

// PickupCarriers are the carriers that collect from the stored address id:
// the carriers of the service's offers for a parcel picked up there as from
// a pickup address (REGULAR), to an address in its own country. Their names
// come from the carrier table.
func (d *Desk) PickupCarriers(ctx context.Context, id int64) ([]PickupCarrier, error) {
	contacts, err := d.ship.Contacts(ctx)
	if err != nil {
		return nil, UpstreamError("pick.doing.addresses", err)
	}
	i := slices.IndexFunc(contacts, func(c shipping.Contact) bool { return c.ID == id })
	if i < 0 {
		return nil, apperr.Fields("form.see_fields", apperr.Problems{"address": apperr.Msg("pick.err.no_address")})
	}
	to := contacts[i].Address
	to.ID = 0
	rates, err := d.ship.Rates(ctx, shipping.RateRequest{Currency: "CZK", Shipment: shipping.Shipment{
		Type: shipping.PickupRegular, From: shipping.Address{ID: id}, To: to, Packages: []shipping.Package{pickupProbe}}})
	if err != nil {
		return nil, UpstreamError("pick.doing.carriers", err)
	}
	textin.FromService(&rates)
	names, err := d.carrierNames(ctx)
	if err != nil {
		return nil, err
	}
	var out []PickupCarrier
	for _, r := range rates {
		if r.Carrier == "" || slices.ContainsFunc(out, func(c PickupCarrier) bool { return c.Code == r.Carrier }) {
			continue
		}
		name := names[r.Carrier]
		if name == "" {
			name = r.Carrier // a carrier the table has no name for: as the offers show it
		}
		out = append(out, PickupCarrier{Code: r.Carrier, Name: name})
	}
	slices.SortFunc(out, func(a, b PickupCarrier) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// checkPickupCarrier refuses a carrier the stored address is not served by;
// an empty carrier (any) is always allowed.
func (d *Desk) checkPickupCarrier(ctx context.Context, f PickupForm) error {
	if f.Carrier == "" {
		return nil
	}
	offered, err := d.PickupCarriers(ctx, f.ContactID)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(offered, func(c PickupCarrier) bool { return c.Code == f.Carrier }) {
		return apperr.Fields("form.see_fields", apperr.Problems{"carrier": apperr.Msg("pick.err.carrier_not_offered")})
	}
	return nil
}
