package desk

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/exactlyonce"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Ordering exactly once: the protocol is package exactlyonce's; the desk
// supplies its adapter (orders): how a shipment is recorded, created, found
// at the service by its reference and adopted.

// Order orders the shipment of the form: validate, record the intent and its
// first attempt, create, record the reply. A second call with the same form
// returns the first order. When the answer is lost the shipment is "unknown"
// and checked at once; it becomes "missing" only after its deadline.
func (d *Desk) Order(ctx context.Context, f Form, by int64) (storage.Shipment, error) {
	return d.order(ctx, f, by, d.freshReads(), false)
}

// order is Order with the tables the form is checked against read by rd;
// keyChecked: the caller has just found no order under the form's key (a
// race after it is caught when the intent is recorded).
func (d *Desk) order(ctx context.Context, f Form, by int64, rd *rowReads, keyChecked bool) (storage.Shipment, error) {
	o, err := d.readyOrder(ctx, f, by, rd, keyChecked)
	if err != nil || o.sent != nil {
		return o.sentBefore(), err
	}
	now := d.now()
	s, attempt, isNew, err := d.db.BeginShipment(ctx, o.intent, now, d.deadline(now))
	return d.sendBegun(ctx, o.order, o.fresh, s, attempt, isNew, err, nil)
}

// orderReady is an order checked by our rules and the service's, with its
// intent, ready to be recorded and sent; or the order sent before under
// the form's key (sent).
type orderReady struct {
	order  shipping.Order
	intent storage.Shipment
	fresh  func() // runs once the intent is recorded, before it is sent
	sent   *storage.Shipment
}

func (o orderReady) sentBefore() storage.Shipment {
	if o.sent == nil {
		return storage.Shipment{}
	}
	return *o.sent
}

// readyOrder checks the form's order (our rules, then the service's
// validate) and makes its intent.
func (d *Desk) readyOrder(ctx context.Context, f Form, by int64, rd *rowReads, keyChecked bool) (orderReady, error) {
	from, err := rd.sender(ctx, f)
	if err != nil {
		return orderReady{}, err
	}
	f.Carrier = rd.carrier(ctx, f.Offer.Carrier)
	if err := invalid(f.CheckForOrder(from.Country)); err != nil {
		return orderReady{}, err
	}
	if !keyChecked {
		if existing, err := d.db.ShipmentByKey(ctx, f.Key); err == nil {
			return orderReady{sent: &existing}, nil // this form was sent already
		}
	}
	order := shipping.Order{Currency: "CZK", PaymentType: shipping.PaymentCredit, Shipments: []shipping.Shipment{d.shipment(f, from)}}
	if err := d.ship.Validate(ctx, order); err != nil {
		return orderReady{}, UpstreamError("ship.doing.check", err)
	}
	intent, err := intentOf(f, order, by)
	if err != nil {
		return orderReady{}, err
	}
	o := orderReady{order: order, intent: intent}
	if f.SaveRecipient {
		o.fresh = func() {
			if _, err := d.db.SaveRecipient(ctx, f.To.stored()); err != nil {
				d.log.Warn("save recipient", "err", err) // the order matters more than the address book
			}
		}
	}
	return o, nil
}

// place records the intent of the form's order and its first attempt in one
// transaction, then sends it exactly once (orders). An order recorded
// already under the form's key is returned as it stands; fresh runs only
// for a new one, before it is sent.
func (d *Desk) place(ctx context.Context, f Form, order shipping.Order, by int64, fresh func()) (storage.Shipment, error) {
	intent, err := intentOf(f, order, by)
	if err != nil {
		return storage.Shipment{}, err
	}
	now := d.now()
	s, attempt, isNew, err := d.db.BeginShipment(ctx, intent, now, d.deadline(now))
	return d.sendBegun(ctx, order, fresh, s, attempt, isNew, err, nil)
}

// intentOf is what is recorded of the form's order before it is sent.
func intentOf(f Form, order shipping.Order, by int64) (storage.Shipment, error) {
	raw, err := json.Marshal(order)
	if err != nil {
		return storage.Shipment{}, fmt.Errorf("encode order: %w", err)
	}
	intent := storage.Shipment{
		RequestKey: f.Key, Reference: order.Shipments[0].Reference, Request: raw, Carrier: f.Offer.Carrier,
		ServiceID: f.Offer.ServiceID, ServiceName: f.Offer.Service,
		RecipientName: f.To.Name(), RecipientCity: f.To.City, LabelLess: f.LabelLess, CreatedBy: storage.UserRef(by),
		NoCustomerMail: f.NoCustomerMail,
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
	return intent, nil
}

// recordCreated records a created order's answer (exactlyonce.Kind.Created);
// nil: at once, as the form does.
type recordCreated func(ctx context.Context, id, attempt int64, created *shipping.Created, at time.Time) (storage.Shipment, error)

// sendBegun sends an order whose intent BeginShipment answered (s, attempt,
// isNew, err) exactly once, recording its answer by created (nil: at once).
func (d *Desk) sendBegun(ctx context.Context, order shipping.Order, fresh func(), s storage.Shipment, attempt int64, isNew bool, err error,
	created recordCreated) (storage.Shipment, error) {
	if apperr.Is(err, apperr.Conflict) { // the reference is taken: the clerk's field says so
		msg := apperr.TextOf(err)
		return s, &apperr.Error{Code: apperr.Conflict, Message: msg, Fields: apperr.Problems{"reference": msg}, Err: err}
	}
	if err != nil || !isNew {
		return s, err
	}
	if fresh != nil {
		fresh()
	}
	k := d.orders()
	if created != nil {
		k.Created = created
	}
	return k.Send(ctx, s, attempt, order, true)
}

// orders is the exactly-once protocol over the desk's shipments.
func (d *Desk) orders() *exactlyonce.Kind[storage.Shipment, shipping.Order, *shipping.Created, shipping.ShipmentInfo] {
	return &exactlyonce.Kind[storage.Shipment, shipping.Order, *shipping.Created, shipping.ShipmentInfo]{
		Name: "shipment", DB: d.db, Clock: d.clock, Log: d.log, Timeout: d.OrderTimeout, Settle: d.Settle,
		StateOf: func(s storage.Shipment) exactlyonce.State {
			return exactlyonce.State{ID: s.ID, State: s.State, SettlesAt: s.SettlesAt}
		},
		Load: func(ctx context.Context, db *storage.DB, id int64) (storage.Shipment, error) {
			return db.ShipmentByID(ctx, id)
		},
		Lock: func(ctx context.Context, tx *storage.DB, id int64) (storage.Shipment, error) {
			return tx.LockShipment(ctx, id)
		},
		Reopen: func(ctx context.Context, tx *storage.DB, s storage.Shipment, sent, deadline time.Time) (storage.Shipment, int64, error) {
			return tx.ReopenShipment(ctx, s, sent, deadline)
		},
		DropIntent:  d.db.DropShipmentIntent,
		MarkMissing: d.db.MarkShipmentMissing,
		MarkUnknown: func(ctx context.Context, id int64, why apperr.Text) error {
			return d.db.MarkShipmentOutcome(ctx, id, storage.StateUnknown, why)
		},
		Unsettled: d.db.Unsettled,
		Request: func(s storage.Shipment) (shipping.Order, error) {
			var order shipping.Order
			if err := json.Unmarshal(s.Request, &order); err != nil {
				return order, fmt.Errorf("decode stored order %d: %w", s.ID, err)
			}
			return order, nil
		},
		Create: d.ship.Create,
		Created: func(ctx context.Context, id, attempt int64, created *shipping.Created, at time.Time) (storage.Shipment, error) {
			r := createdReply(created)
			s, duplicate, err := d.db.RecordCreated(ctx, id, attempt, r, at)
			if duplicate {
				d.log.Warn("duplicate order at the service", "shipment", id, "tracking", r.TrackingNumber)
			}
			return s, err
		},
		Find: func(ctx context.Context, s storage.Shipment) ([]shipping.ShipmentInfo, error) {
			return d.atService(ctx, s.Reference)
		},
		Adopt:   d.adopt,
		Failed:  func(err error) error { return UpstreamError("ship.doing.order", err) },
		Refused: apperr.Msg("ship.err.refused_order"),
		Waiting: waitingText,
		Missing: func(s storage.Shipment) apperr.Text { return apperr.Msg("ship.err.missing", s.Reference) },
	}
}

// createdReply is what the service's answer to a create says of the shipment.
func createdReply(created *shipping.Created) storage.Reply {
	r := ReplyOf(created.Shipments[0])
	r.OrderToken, r.OrderNumber = textin.ServiceText(created.OrderToken), textin.ServiceText(created.OrderNumber)
	return r
}

// deadline is when an attempt sent at sent has settled at the service.
func (d *Desk) deadline(sent time.Time) time.Time { return d.orders().Deadline(sent) }

// NotConfirmed opens what a shipment whose answer was lost says (its key).
const NotConfirmed = "ship.err.not_confirmed"

func waitingText(until time.Time) apperr.Text {
	return apperr.Msg("ship.err.waiting", apperr.Msg(NotConfirmed), apperr.Deadline(until))
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
	return nil
}

// Reconcile settles an order whose answer was lost by asking the service for
// orders with its reference (exactlyonce.Kind.Reconcile).
func (d *Desk) Reconcile(ctx context.Context, id int64) (storage.Shipment, error) {
	return d.orders().Reconcile(ctx, id)
}

// ReconcileAll settles every unknown order, and orders left "ordering" after
// their deadline (the process stopped during the call).
func (d *Desk) ReconcileAll(ctx context.Context) error { return d.orders().ReconcileAll(ctx) }

// OrderAgain sends an order that reconciliation proved missing; an order
// that is there after all is adopted, not ordered again (exactlyonce.Kind.Again).
func (d *Desk) OrderAgain(ctx context.Context, id int64) (storage.Shipment, error) {
	return d.orders().Again(ctx, id)
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
