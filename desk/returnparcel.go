package desk

import (
	"context"
	"math"
	"slices"
	"strings"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/countries"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Return parcels: a customer sends a parcel back to the shop's return
// address (the settings' return sender), handed over at a point of the
// carrier the customer chose. Label-free when the carrier takes such
// parcels, so the customer needs only a code; else, or when the carrier
// refuses the label-free export (the spec's fallback), an ordinary label.
// Ordered exactly once through the same protocol as every shipment (place).

// ReturnParcel is a parcel a customer sends back to the shop.
type ReturnParcel struct {
	Key       string  // a request key (requestkey format): one order per key, whatever is retried
	Reference string  // our reference for the shipment (e.g. "RET-12"); "" makes one from the key
	From      Address // the customer
	Carrier   string  // the carrier of the point the customer chose
	Point     string  // the point's code at that carrier
	Package   Package // the one package (weight, dimensions)
}

// OrderReturn orders a return parcel from the customer to the return
// address, handed over at the chosen point: the cheapest offer of the
// point's carrier for it, label-free when the carrier takes it. A second
// call with the same key returns the first shipment and orders nothing; a
// lost answer is reconciled as for every shipment. by is the staff member,
// 0 for none (the customer).
func (d *Desk) OrderReturn(ctx context.Context, p ReturnParcel, by int64) (storage.Shipment, error) {
	if !requestkey.Valid(p.Key) {
		return storage.Shipment{}, invalid(apperr.Problems{"form": apperr.Msg("retparcel.err.damaged")})
	}
	if existing, err := d.db.ShipmentByKey(ctx, p.Key); err == nil {
		return existing, nil // this return parcel was ordered already
	}
	if err := invalid(p.Check()); err != nil {
		return storage.Shipment{}, err
	}
	point, err := d.db.PointByCode(ctx, p.Carrier, p.Point)
	if apperr.Is(err, apperr.NotFound) {
		return storage.Shipment{}, invalid(apperr.Problems{"point": apperr.Msg("retparcel.err.point_unknown")})
	}
	if err != nil {
		return storage.Shipment{}, err
	}
	to, err := d.db.ReturnSender(ctx)
	if err != nil {
		return storage.Shipment{}, err
	}
	customer := storage.Sender{Address: p.From.stored()} // sent as address fields, never a stored contact
	f := Form{Key: p.Key, Reference: p.Reference, To: AddressOf(to.Address), Packages: []Package{p.Package},
		Handover: HandoverPoint, PickupBranch: point.Code}
	if f.Reference == "" {
		f.Reference = "RET-" + strings.ToUpper(strings.ReplaceAll(p.Key, "-", "")[:12])
	}
	offer, err := d.returnOffer(ctx, f, customer, point.Carrier)
	if err != nil {
		return storage.Shipment{}, err
	}
	f.Offer = offer
	f.LabelLess = len(d.LabelFree(ctx, f, customer)) == 0
	order := shipping.Order{Currency: "CZK", PaymentType: shipping.PaymentCredit, Shipments: []shipping.Shipment{d.shipment(f, customer)}}
	if err := d.ship.Validate(ctx, order); err != nil {
		return storage.Shipment{}, UpstreamError("retparcel.doing.check", err)
	}
	return d.place(ctx, f, order, by, nil)
}

// returnOffer is the cheapest offer the service would take for the return
// parcel of carrier handed over at the form's point and delivered to the
// return address (not to a point of the carrier's).
func (d *Desk) returnOffer(ctx context.Context, f Form, customer storage.Sender, carrier string) (Offer, error) {
	sh := d.shipment(f, customer)
	sh.Carrier = carrier
	rates, err := d.ship.Rates(ctx, shipping.RateRequest{Currency: "CZK", Shipment: sh})
	if err != nil {
		return Offer{}, UpstreamError("retparcel.doing.offers", err)
	}
	textin.FromService(&rates)
	offers := offersOf(rates)
	SortOffers(offers, "")
	for _, o := range offers {
		if o.Selectable && !o.DeliveryRequired && strings.EqualFold(o.Carrier, carrier) {
			return o, nil
		}
	}
	return Offer{}, invalid(apperr.Problems{"point": apperr.Msg("retparcel.err.no_offer")})
}

// Check is what the desk refuses in a return parcel before asking the
// service: the customer's address checked as a recipient's (CheckAddress),
// under from_ names, in a country the shop sends from, a point, and one
// package. The claim page checks a claim's parcel with it before keeping
// the claim.
func (p ReturnParcel) Check() apperr.Problems {
	out := apperr.Problems{}
	for name, v := range map[string]string{"reference": p.Reference, "carrier": p.Carrier, "point": p.Point} {
		if _, problem := textin.Line(v, maxReference); !problem.IsZero() {
			out.Put(name, problem)
		}
	}
	if p.Carrier == "" || p.Point == "" {
		out.Add("point", "retparcel.err.point_needed")
	}
	for field, msg := range CheckAddress(p.From, NeedAddress) {
		out.Put("from_"+strings.TrimPrefix(field, "to_"), msg)
	}
	if !slices.Contains(countries.Senders, p.From.Country) {
		out.Put("from_country", apperr.Msg("retparcel.err.country"))
	}
	k := p.Package
	fine := func(x, limit float64) bool { return !math.IsNaN(x) && x >= 0 && x <= limit }
	if !(k.Weight > 0 && fine(k.Weight, maxWeightKg)) {
		out.Add("pkg_weight_0", "retparcel.err.weight")
	}
	if !fine(k.Length, maxDimCm) || !fine(k.Width, maxDimCm) || !fine(k.Height, maxDimCm) {
		out.Add("pkg_length_0", "retparcel.err.size")
	}
	return out
}

// ReturnHandover says what the customer hands a return parcel over with:
// its code once the label-free export is done (label mode CODE, READY), or
// its label (the fallback to an ordinary label, fetched with Desk.Label);
// ready is false while neither is there yet, or no more (cancelled).
func ReturnHandover(s storage.Shipment) (code string, label bool, ready bool) {
	if s.State != storage.StateCreated || Cancelled(s) || s.LabelStatus != shipping.LabelReady {
		return "", false, false
	}
	for _, k := range s.Packages {
		if k.Password != "" {
			code = k.Password
			break
		}
	}
	switch s.LabelMode {
	case shipping.LabelCode:
		return code, false, code != ""
	case shipping.LabelPrint, shipping.LabelPrintOrCode:
		return code, true, true
	}
	return "", false, false
}

// HandedIn says the carrier has a return parcel (on its way, out for
// delivery or delivered), as the shop's write back reads "handed over":
// the customer needs its code no more.
func HandedIn(s storage.Shipment) bool {
	switch s.Status {
	case shipping.StatusInTransit, shipping.StatusOnDelivery, shipping.StatusDelivered:
		return s.State == storage.StateCreated && !Cancelled(s)
	}
	return false
}

// ReturnCarriers are the carriers a customer may hand a return parcel to
// with a code: those the carrier table knows to take label-free parcels.
func (d *Desk) ReturnCarriers(ctx context.Context) ([]storage.Carrier, error) {
	all, err := d.db.Carriers(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]storage.Carrier, 0, 1)
	for _, c := range all {
		if c.LabelFree.Valid && c.LabelFree.Bool {
			out = append(out, c)
		}
	}
	return out, nil
}

// ReturnPoints finds points where a customer may hand a return parcel over:
// points of carrier, or of every carrier that takes label-free parcels
// (carrier ""), by what the customer typed; the first PointsShown, and how
// many match. A carrier that takes no label-free parcel has none.
func (d *Desk) ReturnPoints(ctx context.Context, carrier, country, text string) (storage.PointsFound, error) {
	text, problem := textin.Line(text, maxText)
	p := apperr.Problems{}
	p.Put("q", problem)
	if country != "" && !slices.Contains(Countries, country) {
		p.Add("country", "retparcel.err.country")
	}
	if err := invalid(p); err != nil {
		return storage.PointsFound{}, err
	}
	carriers, err := d.ReturnCarriers(ctx)
	if err != nil {
		return storage.PointsFound{}, err
	}
	out := storage.PointsFound{Points: []storage.ParcelPoint{}}
	for _, c := range carriers {
		if carrier != "" && c.Code != carrier {
			continue
		}
		found, err := d.SearchPoints(ctx, c.Code, country, text, nil)
		if err != nil {
			return storage.PointsFound{}, err
		}
		out.Points = append(out.Points, found.Points...)
		out.Total += found.Total
		out.More = out.More || found.More
	}
	if len(out.Points) > PointsShown {
		out.Points = out.Points[:PointsShown]
	}
	return out, nil
}
