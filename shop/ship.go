package shop

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/requestkey"
	"shipdesk/storage"
)

// An order ships exactly once by the desk's own protocol: each of its
// parcels has a request key, and the desk's order with a form's key makes
// one shipment however many clicks, tabs or instances send it; the order's
// code is the shipment's reference, which no second shipment of ours may
// carry, so a batch row or a form of the same order meets the one already
// made (the batches' reference rule). Another parcel for the order is asked
// for explicitly (NewParcel), with a reference and a key of its own.

// Shipped is what shipping an order came to: its shipment (made now, or
// before: another click, a tab, a batch), or, when it cannot ship as it is,
// the new-shipment form filled from it and why.
type Shipped struct {
	Shipment *storage.Shipment
	Before   bool // the shipment was made before this click
	Form     *desk.Form
	Problems []apperr.Text
}

// Ship ships the order's first parcel in one click. seen is the order's
// revision the clerk saw (0: whatever is kept): an order changed since is
// not shipped (Conflict), it is looked at again.
func (s *Service) Ship(ctx context.Context, by int64, code string, seen int) (Shipped, error) {
	o, err := s.db.ShopOrderByCode(ctx, code)
	if err != nil {
		return Shipped{}, err
	}
	if seen > 0 && o.Revision != seen {
		return Shipped{}, apperr.New(apperr.Conflict, "shop.err.changed", code)
	}
	if done, ok, err := s.shippedBefore(ctx, o, o.Code); ok || err != nil {
		return done, err
	}
	parcels, err := s.db.ShopParcels(ctx, code)
	if err != nil || len(parcels) == 0 {
		return Shipped{}, wrapNoParcel(err, code)
	}
	return s.shipParcel(ctx, by, o, parcels[0])
}

// NewParcel ships another parcel for an order shipped before: with a
// reference of its own (the code and its number) and key, the request key
// of the clerk's form, so a second post of the form is the same parcel.
func (s *Service) NewParcel(ctx context.Context, by int64, code, key string) (Shipped, error) {
	if !requestkey.Valid(key) {
		return Shipped{}, apperr.New(apperr.Invalid, "ship.err.damaged")
	}
	o, err := s.db.ShopOrderByCode(ctx, code)
	if err != nil {
		return Shipped{}, err
	}
	p, err := s.db.ShopParcelByKey(ctx, key)
	switch {
	case err == nil && p.OrderCode != code:
		return Shipped{}, apperr.New(apperr.Invalid, "ship.err.damaged")
	case apperr.Is(err, apperr.NotFound):
		for try := 0; try < 5; try++ {
			p, err = s.db.AddShopParcel(ctx, code, func(n int) string { return fmt.Sprintf("%s-%d", code, n+try) }, key, s.now(), storage.UserRef(by))
			if !apperr.Is(err, apperr.Conflict) {
				break
			}
			if again, kerr := s.db.ShopParcelByKey(ctx, key); kerr == nil { // the same form posted twice at once
				p, err = again, nil
				break
			}
		}
	}
	if err != nil {
		return Shipped{}, err
	}
	return s.shipParcel(ctx, by, o, p)
}

// shippedBefore finds the order's parcel ref shipped already: a shipment of
// ours under its reference, or a batch row ordering it now.
func (s *Service) shippedBefore(ctx context.Context, o storage.ShopOrder, ref string) (Shipped, bool, error) {
	if o.Shipment != nil && ref == o.Code {
		sh, err := s.db.ShipmentByID(ctx, *o.Shipment)
		return Shipped{Shipment: &sh, Before: true}, true, err
	}
	matches, err := s.db.OrderedMatches(ctx, []string{ref}, nil, storage.BeforeAll)
	if err != nil {
		return Shipped{}, false, err
	}
	for _, m := range matches {
		if m.ShipmentID != nil {
			sh, err := s.db.ShipmentByID(ctx, *m.ShipmentID)
			return Shipped{Shipment: &sh, Before: true}, true, err
		}
		if m.BatchID != 0 {
			return Shipped{}, true, apperr.New(apperr.Conflict, "shop.err.in_batch", ref, m.BatchID)
		}
	}
	return Shipped{}, false, nil
}

// shipParcel ships one parcel of the order: judged anew, with the offer of
// its shipping method's service (or the offer rules'), through the desk's
// order under the parcel's request key.
func (s *Service) shipParcel(ctx context.Context, by int64, o storage.ShopOrder, p storage.ShopParcel) (Shipped, error) {
	switch o.State {
	case storage.ShopCancelled, storage.ShopGone:
		return Shipped{}, apperr.New(apperr.Conflict, "shop.err.cancelled", o.Code)
	}
	if sh, err := s.db.ShipmentByKey(ctx, p.RequestKey); err == nil {
		return Shipped{Shipment: &sh, Before: true}, nil
	}
	j, err := s.judgeOne(ctx, o, p)
	if err != nil {
		return Shipped{}, err
	}
	filled := func(why ...apperr.Text) (Shipped, error) {
		return Shipped{Form: &j.form, Problems: append(j.problems, why...)}, nil
	}
	if p.Parcel > 1 { // a new parcel is asked for whatever else shipped the order
		j.problems = slices.DeleteFunc(j.problems, func(t apperr.Text) bool { return t.Key == "shop.why.elsewhere" })
	}
	switch {
	case o.State == storage.ShopOther:
		return filled(apperr.Msg("shop.why.status", o.StatusName))
	case len(j.problems) > 0:
		return filled()
	}
	f, why, err := s.offered(ctx, j)
	switch {
	case apperr.Is(err, apperr.Invalid):
		return filled(apperr.TextOf(err))
	case err != nil:
		return Shipped{}, err
	case !why.IsZero():
		return filled(why)
	}
	j.form = f
	sh, err := s.desk.Order(ctx, j.form, by)
	switch {
	case apperr.Is(err, apperr.Conflict):
		// The reference is taken: a batch or a form shipped this parcel meanwhile.
		if other, rerr := s.db.ShipmentByReference(ctx, p.Reference); rerr == nil {
			return Shipped{Shipment: &other, Before: true}, nil
		}
		return Shipped{}, err
	case apperr.Is(err, apperr.Invalid):
		var p problems
		p.list = j.problems
		p.fields(apperr.ProblemsOf(err), "")
		if len(p.list) == 0 {
			p.add(apperr.TextOf(err))
		}
		return Shipped{Form: &j.form, Problems: p.list}, nil
	case err != nil:
		return Shipped{}, err
	}
	s.log.Info("shop order shipped", "order", o.Code, "parcel", p.Parcel, "shipment", sh.ID)
	return Shipped{Shipment: &sh}, nil
}

// offered is the order's form with the offer its shipping method names,
// handed over as the shop's parcels are; a carrier that takes parcels only
// at its points gets this one at any of them. why says why none fits.
func (s *Service) offered(ctx context.Context, j judged) (desk.Form, apperr.Text, error) {
	handovers := []string{j.form.Handover}
	if j.form.Handover != desk.HandoverPoint {
		handovers = append(handovers, desk.HandoverPoint)
	}
	var first apperr.Text
	for _, h := range handovers {
		f := j.form
		f.Handover = h
		offers, err := s.desk.Offers(ctx, f)
		if err != nil {
			return j.form, apperr.Text{}, err
		}
		o, why := s.offerOf(ctx, j, offers)
		if o.ServiceID != 0 {
			f.Take(o)
			return f, apperr.Text{}, nil
		}
		if first.IsZero() {
			first = why
		}
	}
	return j.form, first, nil
}

// offerOf is the offer the order's shipping method names: its service, or
// the offer the managers' rules choose for the form.
func (s *Service) offerOf(ctx context.Context, j judged, offers []desk.Offer) (desk.Offer, apperr.Text) {
	if j.method.Mapping == storage.MapRules {
		carrier := ""
		if j.point != nil {
			carrier = j.point.Carrier
		}
		return s.desk.OfferFor(ctx, j.form, offers, carrier)
	}
	for _, o := range offers {
		if o.ServiceID == j.method.ServiceID && strings.EqualFold(o.Carrier, j.method.Carrier) && !o.LabelFree {
			if !o.Selectable {
				return desk.Offer{}, apperr.Msg("shop.why.service_refused", j.method.ServiceName)
			}
			return o, apperr.Text{}
		}
	}
	return desk.Offer{}, apperr.Msg("shop.why.service_not_offered", j.method.ServiceName)
}

// judgeOne judges a kept order for one of its parcels: the form carries
// the parcel's reference and key.
func (s *Service) judgeOne(ctx context.Context, o storage.ShopOrder, p storage.ShopParcel) (judged, error) {
	var k kept
	if err := json.Unmarshal(o.Doc, &k); err != nil {
		return judged{}, fmt.Errorf("kept shop order %s: %w", o.Code, err)
	}
	b, err := s.basisFor(ctx, []kept{k})
	if err != nil {
		return judged{}, err
	}
	ours, err := s.db.OurTrackingNumbers(ctx, []string{o.Code})
	if err != nil {
		return judged{}, err
	}
	j := b.judge(ctx, k, ours[o.Code], p.RequestKey)
	j.form.Reference = p.Reference
	return j, nil
}

// Prefill is the new-shipment form filled from the order's first parcel,
// for the clerk to complete (its request key is the parcel's: the form's
// order and a click's are one shipment), with what it lacks.
func (s *Service) Prefill(ctx context.Context, code string) (desk.Form, []apperr.Text, error) {
	o, err := s.db.ShopOrderByCode(ctx, code)
	if err != nil {
		return desk.Form{}, nil, err
	}
	parcels, err := s.db.ShopParcels(ctx, code)
	if err != nil || len(parcels) == 0 {
		return desk.Form{}, nil, wrapNoParcel(err, code)
	}
	j, err := s.judgeOne(ctx, o, parcels[0])
	if err != nil {
		return j.form, j.problems, err
	}
	// The mapped offer chosen already, so its point picker lists the points
	// of the customer's town; when none fits (or the service cannot say
	// now) the clerk compares the offers on the form.
	if j.method.Mapping == storage.MapService || j.method.Mapping == storage.MapRules {
		if f, _, err := s.offered(ctx, j); err == nil {
			j.form = f
		}
	}
	return j.form, j.problems, nil
}

func wrapNoParcel(err error, code string) error {
	if err != nil {
		return err
	}
	return apperr.New(apperr.NotFound, "shop.err.no_order", code)
}
