package desk

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"sync"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/textin"
)

// Offers asks the service for the offers for the form, sorted as the clerk chose.
func (d *Desk) Offers(ctx context.Context, f Form) ([]Offer, error) {
	from, err := d.sender(ctx, f)
	if err != nil {
		return nil, err
	}
	if err := invalid(f.CheckForOffers(from.Country)); err != nil {
		return nil, err
	}
	sh := d.shipment(f, from)
	sh.Carrier, sh.ServiceID, sh.DeliveryBranch, sh.LabelLess = "", 0, "", false
	if f.COD { // rates need only the value; insurance stays, it is priced in the offers
		sh.Services = slices.DeleteFunc(sh.Services, func(s shipping.Service) bool { return s.Code == shipping.ServiceCodeCOD })
		sh.Services = append(sh.Services, shipping.COD(shipping.ServiceCOD{Value: codMoney(f).wire()}))
	}
	var rates []shipping.Rate
	if f.Handover == HandoverPoint {
		rates, err = d.pointOffers(ctx, sh)
	} else {
		rates, err = d.ship.Rates(ctx, shipping.RateRequest{Currency: "CZK", Shipment: sh})
	}
	if err != nil {
		return nil, UpstreamError("ship.doing.compare", err)
	}
	textin.FromService(&rates) // carrier codes are stored, offers are carried in the form
	seen := make([]string, 0, len(rates))
	for _, r := range rates {
		seen = append(seen, r.Carrier)
	}
	if err := d.db.SeeCarriers(ctx, seen); err != nil {
		d.log.Warn("remember carriers", "err", err) // only the carrier table's list suffers
	}
	offers := offersOf(rates)
	SortOffers(offers, f.Sort)
	return offers, nil
}

// pointOffers asks each carrier with points for its offers when the package is
// handed over at any of its points: a point needs its carrier in the request
// (the spec's rule 3), so one question per carrier, asked at once.
func (d *Desk) pointOffers(ctx context.Context, sh shipping.Shipment) ([]shipping.Rate, error) {
	carriers, err := d.db.PointCarriers(ctx)
	if err != nil {
		return nil, err
	}
	type answer struct {
		rates []shipping.Rate
		err   error
	}
	answers := make([]answer, len(carriers))
	var wg sync.WaitGroup
	for i, c := range carriers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			q := sh
			q.Carrier, q.PickupBranch = c, shipping.AnyBranch
			answers[i].rates, answers[i].err = d.ship.Rates(ctx, shipping.RateRequest{Currency: "CZK", Shipment: q})
		}()
	}
	wg.Wait()
	var out []shipping.Rate
	var firstErr error
	for _, a := range answers {
		switch {
		case a.err == nil:
			out = append(out, a.rates...)
		case transport.HasFieldErrors(a.err):
			// this carrier takes no packages at points for these details
		case firstErr == nil:
			firstErr = a.err
		}
	}
	if out == nil && firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}

// SortOffers orders offers by price (default), delivery date or carrier;
// unselectable offers go last.
func SortOffers(offers []Offer, by string) {
	key := func(o Offer) string {
		switch by {
		case "delivery":
			return o.Delivery
		case "carrier":
			return o.Carrier
		}
		return ""
	}
	sort.SliceStable(offers, func(i, j int) bool {
		a, b := offers[i], offers[j]
		if a.Selectable != b.Selectable {
			return a.Selectable
		}
		if ka, kb := key(a), key(b); ka != kb {
			return ka < kb
		}
		return a.PriceVAT.Value < b.PriceVAT.Value
	})
}

// Choose takes the offer the clerk picked from fresh offers, never from the
// page, and returns the offers to show with it.
func (d *Desk) Choose(ctx context.Context, f *Form, serviceID string) ([]Offer, error) {
	offers, err := d.Offers(ctx, *f)
	if err != nil {
		return nil, err
	}
	for _, o := range offers {
		if strconv.Itoa(o.ServiceID) == serviceID && o.Selectable {
			f.Offer = o
			if f.Offer.Carrier != "" && !o.DeliveryRequired {
				f.DeliveryBranch = ""
			}
			return offers, nil
		}
	}
	return offers, apperr.Fields("ship.err.offer_gone", apperr.Problems{"offer": apperr.Msg("ship.err.offer_below")})
}
