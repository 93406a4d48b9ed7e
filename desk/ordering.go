package desk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Ordering exactly once. An order is recorded before shipments/create is
// called, and so is every attempt, with its deadline: the call's time limit
// plus a settle window, because a slow service may still create the order
// after we stopped waiting. "Not created" is concluded only when the service
// has no order with our reference after every deadline has passed; "order it
// again" asks the service once more under the shipment's lock before it sends,
// and adopts an order that is there. A late answer is always recorded; a
// second order under one reference is kept as a duplicate to cancel.

// Order orders the shipment of the form: validate, record the intent and its
// first attempt, create, record the reply. A second call with the same form
// returns the first order. When the answer is lost the shipment is "unknown"
// and checked at once; it becomes "missing" only after its deadline.
func (d *Desk) Order(ctx context.Context, f Form, by int64) (storage.Shipment, error) {
	from, err := d.sender(ctx, f)
	if err != nil {
		return storage.Shipment{}, err
	}
	f.Carrier = d.carrier(ctx, f.Offer.Carrier)
	if err := invalid(f.CheckForOrder(from.Country)); err != nil {
		return storage.Shipment{}, err
	}
	if existing, err := d.db.ShipmentByKey(ctx, f.Key); err == nil {
		return existing, nil // this form was sent already
	}
	order := shipping.Order{Currency: "CZK", PaymentType: shipping.PaymentCredit, Shipments: []shipping.Shipment{d.shipment(f, from)}}
	if err := d.ship.Validate(ctx, order); err != nil {
		return storage.Shipment{}, UpstreamError("ship.doing.check", err)
	}
	raw, err := json.Marshal(order)
	if err != nil {
		return storage.Shipment{}, fmt.Errorf("encode order: %w", err)
	}
	intent := storage.Shipment{
		RequestKey: f.Key, Reference: order.Shipments[0].Reference, Request: raw, Carrier: f.Offer.Carrier,
		ServiceID: f.Offer.ServiceID, ServiceName: f.Offer.Service,
		RecipientName: f.To.Name(), RecipientCity: f.To.City, LabelLess: f.LabelLess, CreatedBy: storage.UserRef(by),
	}
	if f.COD {
		m := codMoney(f)
		intent.CODValue, intent.CODCurrency = &m.Value, &m.Currency
	}
	if f.Insure {
		m := insuredMoney(f)
		intent.InsuredValue = &m.Value
	}
	if p, ok := f.Offer.PriceVAT.known(); ok {
		intent.PriceVAT, intent.PriceCurrency = &p.Value, &p.Currency
	}
	now := d.now()
	s, attempt, fresh, err := d.db.BeginShipment(ctx, intent, now, d.deadline(now))
	if apperr.Is(err, apperr.Conflict) { // the reference is taken: the clerk's field says so
		msg := apperr.TextOf(err)
		return s, &apperr.Error{Code: apperr.Conflict, Message: msg, Fields: apperr.Problems{"reference": msg}, Err: err}
	}
	if err != nil || !fresh {
		return s, err
	}
	if f.SaveRecipient {
		if _, err := d.db.SaveRecipient(ctx, f.To.stored()); err != nil {
			d.log.Warn("save recipient", "err", err) // the order matters more than the address book
		}
	}
	return d.send(ctx, s, attempt, order, true)
}

// send makes one recorded attempt and records what happened. first: the
// shipment's first attempt, whose refusal leaves nothing worth keeping.
func (d *Desk) send(ctx context.Context, s storage.Shipment, attempt int64, order shipping.Order, first bool) (storage.Shipment, error) {
	ctx, callCtx, cancel := d.detach(ctx)
	defer cancel()
	created, err := d.ship.Create(callCtx, order)
	switch {
	case err == nil:
		if err := d.db.EndAttempt(ctx, attempt, storage.AttemptCreated, d.now()); err != nil {
			d.log.Warn("end attempt", "attempt", attempt, "err", err)
		}
		r := ReplyOf(created.Shipments[0])
		r.OrderToken, r.OrderNumber = textin.ServiceText(created.OrderToken), textin.ServiceText(created.OrderNumber)
		if err := d.recordCreated(ctx, s.ID, r); err != nil {
			return s, err
		}
		d.log.Info("shipment ordered", "shipment", s.ID, "reference", s.Reference, "tracking", r.TrackingNumber)
	case transport.IsRefused(err):
		if err := d.db.EndAttempt(ctx, attempt, storage.AttemptRefused, d.now()); err != nil {
			return s, err
		}
		if first {
			if dropErr := d.db.DropShipmentIntent(ctx, s.ID); dropErr != nil {
				return s, dropErr
			}
			return storage.Shipment{}, UpstreamError("ship.doing.order", err)
		}
		// Earlier attempts settled without an order; this one created none either.
		why := apperr.TextOf(UpstreamError("ship.doing.order", err))
		if why.IsZero() {
			why = apperr.Msg("ship.err.refused_order")
		}
		if err := d.db.MarkShipmentMissing(ctx, s.ID, why, d.now()); err != nil {
			return s, err
		}
		return s, UpstreamError("ship.doing.order", err)
	default:
		d.log.Warn("order outcome unknown", "shipment", s.ID, "reference", s.Reference, "err", err)
		if err := d.db.EndAttempt(ctx, attempt, storage.AttemptUnknown, d.now()); err != nil {
			return s, err
		}
		until := d.deadline(d.now())
		if s.SettlesAt != nil {
			until = *s.SettlesAt
		}
		if err := d.db.MarkShipmentOutcome(ctx, s.ID, storage.StateUnknown, waitingText(until)); err != nil {
			return s, err
		}
		if settled, rerr := d.Reconcile(ctx, s.ID); rerr == nil {
			return settled, nil
		}
	}
	return d.db.ShipmentByID(ctx, s.ID)
}

// recordTimeout bounds recording an outcome after the call.
const recordTimeout = 30 * time.Second

// detach gives contexts that outlive the person's request, because closing
// the tab must not cut off a call that was sent, nor the recording of its
// outcome: call bounds the upstream call, ctx (longer) what follows.
func (d *Desk) detach(parent context.Context) (ctx, call context.Context, cancel func()) {
	ctx, cancelAll := context.WithTimeout(context.WithoutCancel(parent), d.OrderTimeout+recordTimeout)
	call, cancelCall := context.WithTimeout(ctx, d.OrderTimeout)
	return ctx, call, func() { cancelCall(); cancelAll() }
}

// deadline is when an attempt sent at sent has settled at the service.
func (d *Desk) deadline(sent time.Time) time.Time { return sent.Add(d.OrderTimeout + d.Settle) }

// NotConfirmed opens what a shipment whose answer was lost says (its key).
const NotConfirmed = "ship.err.not_confirmed"

func waitingText(until time.Time) apperr.Text {
	return apperr.Msg("ship.err.waiting", apperr.Msg(NotConfirmed), apperr.Deadline(until))
}

// recordCreated stores a confirmed order; a second order under the same
// reference is kept as a duplicate to cancel.
func (d *Desk) recordCreated(ctx context.Context, id int64, r storage.Reply) error {
	duplicate, err := d.db.RecordShipment(ctx, id, r, d.now())
	if duplicate {
		d.log.Warn("duplicate order at the service", "shipment", id, "tracking", r.TrackingNumber)
	}
	return err
}

// atService lists the service's orders that carry a reference, oldest first.
func (d *Desk) atService(ctx context.Context, reference string) ([]shipping.ShipmentInfo, error) {
	listed, err := d.ship.ListAll(ctx, shipping.ListQuery{Reference: reference})
	if err != nil {
		return nil, UpstreamError("ship.doing.check_order", err)
	}
	var out []shipping.ShipmentInfo
	for _, si := range listed {
		if si.Reference == reference {
			out = append(out, si)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].OrderDate != out[j].OrderDate {
			return out[i].OrderDate < out[j].OrderDate
		}
		return out[i].TrackingNumber < out[j].TrackingNumber
	})
	return out, nil
}

// adopt binds a shipment to the order the service holds (the one it has
// already, else the oldest) and keeps any other as a duplicate.
func (d *Desk) adopt(ctx context.Context, db *storage.DB, s storage.Shipment, found []shipping.ShipmentInfo) error {
	primary := 0
	for i, si := range found {
		if si.TrackingNumber == s.Tracking() {
			primary = i
		}
	}
	if _, err := db.RecordShipment(ctx, s.ID, ReplyOf(found[primary]), d.now()); err != nil {
		return err
	}
	for i, si := range found {
		if i == primary {
			continue
		}
		if added, err := db.AddShipmentDuplicate(ctx, s.ID, si.TrackingNumber); err != nil {
			return err
		} else if added {
			d.log.Warn("duplicate order at the service", "shipment", s.ID, "reference", s.Reference, "tracking", si.TrackingNumber)
		}
	}
	d.log.Info("order reconciled: created", "shipment", s.ID, "tracking", found[primary].TrackingNumber)
	return nil
}

// Reconcile settles an order whose answer was lost by asking the service for
// orders with its reference: found means created (and any second one is a
// duplicate); none means missing, but only once every attempt's deadline has
// passed: before that the service may still create it.
func (d *Desk) Reconcile(ctx context.Context, id int64) (storage.Shipment, error) {
	s, err := d.db.ShipmentByID(ctx, id)
	if err != nil || (s.State != storage.StateUnknown && s.State != storage.StateOrdering) {
		return s, err
	}
	found, err := d.atService(ctx, s.Reference)
	if err != nil {
		return s, err
	}
	now := d.now()
	switch {
	case len(found) > 0:
		if err := d.adopt(ctx, d.db, s, found); err != nil {
			return s, err
		}
	case s.SettlesAt != nil && now.Before(*s.SettlesAt):
		// Too early to say: an attempt may still be creating it.
	default:
		why := apperr.Msg("ship.err.missing", s.Reference)
		if err := d.db.MarkShipmentMissing(ctx, id, why, now); err != nil {
			return s, err
		}
		d.log.Info("order reconciled: missing", "shipment", id)
	}
	return d.db.ShipmentByID(ctx, id)
}

// ReconcileAll settles every unknown order, and orders left "ordering" after
// their deadline (the process stopped during the call).
func (d *Desk) ReconcileAll(ctx context.Context) error {
	list, err := d.db.Unsettled(ctx, d.now())
	if err != nil {
		return err
	}
	var errs []error
	for _, s := range list {
		if _, err := d.Reconcile(ctx, s.ID); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// OrderAgain sends an order that reconciliation proved missing. Under the
// shipment's lock it asks the service by our reference once more, right
// before recording the new attempt: an order that is there after all is
// adopted, not ordered again.
func (d *Desk) OrderAgain(ctx context.Context, id int64) (storage.Shipment, error) {
	var (
		s       storage.Shipment
		attempt int64
		adopted bool
	)
	err := d.db.InTx(ctx, func(tx *storage.DB) error {
		cur, err := tx.LockShipment(ctx, id)
		if err != nil {
			return err
		}
		if cur.State != storage.StateMissing { // say why, without asking the service
			_, _, err := tx.ReopenShipment(ctx, cur, d.now(), d.deadline(d.now()))
			return err
		}
		found, err := d.atService(ctx, cur.Reference)
		if err != nil {
			return err
		}
		if len(found) > 0 {
			adopted = true
			return d.adopt(ctx, tx, cur, found)
		}
		now := d.now()
		s, attempt, err = tx.ReopenShipment(ctx, cur, now, d.deadline(now))
		return err
	})
	if err != nil || adopted {
		if err == nil {
			return d.db.ShipmentByID(ctx, id)
		}
		return s, err
	}
	var order shipping.Order
	if err := json.Unmarshal(s.Request, &order); err != nil {
		return s, fmt.Errorf("decode stored order %d: %w", id, err)
	}
	return d.send(ctx, s, attempt, order, false)
}

// FoundAtService takes an order that the service lists under the reference of
// one of our shipments: a late order for a shipment still waiting for it (or
// proved missing after all) is bound to it; any other is kept as a duplicate.
func (d *Desk) FoundAtService(ctx context.Context, si shipping.ShipmentInfo) error {
	s, err := d.db.ShipmentByReference(ctx, si.Reference)
	if err != nil {
		return err
	}
	if s.Tracking() == "" {
		return d.adopt(ctx, d.db, s, []shipping.ShipmentInfo{si})
	}
	if s.Tracking() == si.TrackingNumber {
		return nil
	}
	added, err := d.db.AddShipmentDuplicate(ctx, s.ID, si.TrackingNumber)
	if added {
		d.log.Warn("duplicate order at the service", "shipment", s.ID, "reference", s.Reference, "tracking", si.TrackingNumber)
	}
	return err
}

// CancelDuplicate cancels (storno) an extra order the service holds under a
// shipment's reference and forgets it.
func (d *Desk) CancelDuplicate(ctx context.Context, id int64, trackingNumber string) (storage.Shipment, error) {
	s, err := d.db.ShipmentByID(ctx, id)
	if err != nil {
		return s, err
	}
	if !slices.Contains(s.Duplicates, trackingNumber) {
		return s, invalid(apperr.Problems{"duplicate": apperr.Msg("ship.err.not_duplicate")})
	}
	if err := d.ship.Storno(ctx, []string{trackingNumber}); err != nil {
		return s, UpstreamError("ship.doing.cancel_duplicate", err)
	}
	if err := d.db.DropShipmentDuplicate(ctx, id, trackingNumber); err != nil {
		return s, err
	}
	d.log.Info("duplicate order cancelled", "shipment", id, "tracking", trackingNumber)
	return d.db.ShipmentByID(ctx, id)
}
