package desk

import (
	"context"
	"slices"
	"sort"
	"sync"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Offers asks the service for the offers for the form, sorted as the clerk chose.
func (d *Desk) Offers(ctx context.Context, f Form) ([]Offer, error) {
	return d.offers(ctx, f, d.freshReads())
}

// offers is Offers with the tables the form is checked against read by rd.
func (d *Desk) offers(ctx context.Context, f Form, rd *rowReads) ([]Offer, error) {
	from, err := rd.sender(ctx, f)
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
	// The label-free offers are asked at the same time: a slow service makes
	// the clerk wait once, not twice.
	var labelFree []shipping.Rate
	var wg sync.WaitGroup
	if carriers := d.labelFreeCarriers(ctx, f, from, rd); len(carriers) > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			labelFree = d.labelFreeRates(ctx, sh, carriers)
		}()
	}
	var rates []shipping.Rate
	if f.Handover == HandoverPoint {
		rates, err = d.pointOffers(ctx, sh)
	} else {
		rates, err = d.ship.Rates(ctx, shipping.RateRequest{Currency: "CZK", Shipment: sh})
	}
	wg.Wait()
	if err != nil {
		return nil, UpstreamError("ship.doing.compare", err)
	}
	textin.FromService(&labelFree)
	textin.FromService(&rates) // carrier codes are stored, offers are carried in the form
	seen := make([]string, 0, len(rates))
	for _, r := range rates {
		seen = append(seen, r.Carrier)
	}
	if err := rd.seeCarriers(ctx, seen); err != nil {
		d.log.Warn("remember carriers", "err", err) // only the carrier table's list suffers
	}
	offers := offersOf(rates)
	for _, r := range labelFree {
		o := offerOf(r)
		o.LabelFree = true
		offers = append(offers, o)
	}
	SortOffers(offers, f.Sort)
	return offers, nil
}

// labelFreeCarriers are the carriers whose label-free hand-over the clerk may
// be offered beside the offers of the form's hand-over: the carrier table
// says they take label-free packages, and the form meets the other
// conditions once the package is handed over at a point (one package, from
// and to the Czech Republic). With the hand-over at a point already, the
// chosen offer's own label-free option is enough.
func (d *Desk) labelFreeCarriers(ctx context.Context, f Form, from storage.Sender, rd *rowReads) []string {
	if f.Handover == HandoverPoint {
		return nil
	}
	known, err := rd.carrierTable(ctx)
	if err != nil {
		d.log.Warn("carriers for label-free offers", "err", err)
		return nil
	}
	at := f
	at.Handover = HandoverPoint
	var out []string
	for _, c := range known {
		at.Carrier = c
		if c.LabelFree.Valid && c.LabelFree.Bool && len(at.LabelFreeBlockers(from.Country)) == 0 {
			out = append(out, c.Code)
		}
	}
	return out
}

// labelFreeRates asks for the offers of each carrier when the package is
// handed over at any of its points; only the offers the service would take
// are kept. A failed question only leaves the label-free offers out.
func (d *Desk) labelFreeRates(ctx context.Context, sh shipping.Shipment, carriers []string) []shipping.Rate {
	var out []shipping.Rate
	for _, c := range carriers {
		q := sh
		q.Type, q.Carrier, q.PickupBranch = shipping.PickupOnDemand, c, shipping.AnyBranch
		rates, err := d.ship.Rates(ctx, shipping.RateRequest{Currency: "CZK", Shipment: q})
		if err != nil {
			d.log.Info("label-free offers", "carrier", c, "err", err)
			continue
		}
		for _, r := range rates {
			if r.Selectable {
				out = append(out, r)
			}
		}
	}
	return out
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

// Choose takes the offer the clerk picked (an Offer's Choice) from fresh
// offers, never from the page, and returns the offers to show with it.
func (d *Desk) Choose(ctx context.Context, f *Form, choice string) ([]Offer, error) {
	offers, err := d.Offers(ctx, *f)
	if err != nil {
		return nil, err
	}
	for _, o := range offers {
		if o.Choice() == choice && o.Selectable {
			f.take(o)
			return offers, nil
		}
	}
	return offers, apperr.Fields("ship.err.offer_gone", apperr.Problems{"offer": apperr.Msg("ship.err.offer_below")})
}

// Take makes o the form's offer, as choosing it on the page does (take).
func (f *Form) Take(o Offer) { f.take(o) }

// take makes o the form's offer: a service that delivers to the address
// drops the delivery point; a label-free offer is handed over at any of the
// carrier's points, with a code instead of a label.
func (f *Form) take(o Offer) {
	f.Offer = o
	if f.Offer.Carrier != "" && !o.DeliveryRequired {
		f.DeliveryBranch = ""
	}
	if o.LabelFree {
		f.Handover, f.PickupBranch, f.LabelLess = HandoverPoint, "", true
	}
}

// FormProblems are what the form's own rules find before offers are asked,
// without asking the service: shown with the problems of reading the form, so
// the clerk sees every problem at once.
func (d *Desk) FormProblems(ctx context.Context, f Form) apperr.Problems {
	from, err := d.sender(ctx, f)
	if err != nil {
		return apperr.ProblemsOf(err)
	}
	return f.CheckForOffers(from.Country)
}
