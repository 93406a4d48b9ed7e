package desk

import (
	"context"
	"fmt"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/exactlyonce"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Courier pickups are created at the service exactly once by the protocol of
// package exactlyonce: the intent and each attempt are recorded before
// pickups/add (which is not idempotent). A lost answer leaves the pickup
// "sent"; pickups/list then shows whether the service has it, and only a
// pickup it does not have after the last attempt's deadline may be ordered
// again. The desk supplies the adapter (pickups).

// PickupAddresses are the service's stored addresses a courier can come to.
func (d *Desk) PickupAddresses(ctx context.Context) ([]PickupAddress, error) {
	list, err := d.ship.Contacts(ctx)
	if err != nil {
		return nil, UpstreamError("pick.doing.addresses", err)
	}
	out := make([]PickupAddress, 0, len(list))
	for _, c := range list {
		out = append(out, pickupAddressOf(c))
	}
	return out, nil
}

// contactLine is a stored address on one line.
func contactLine(c shipping.Contact) string {
	name := c.Company
	if name == "" {
		name = strings.TrimSpace(c.Firstname + " " + c.Surname)
	}
	return strings.Trim(fmt.Sprintf("%s, %s, %s %s", name, c.Street, c.Zip, c.City), ", ")
}

// OrderPickup orders the courier of a checked form. A second call with the same
// form finds the first pickup instead of ordering another.
func (d *Desk) OrderPickup(ctx context.Context, f PickupForm, today time.Time, by int64) (storage.Pickup, error) {
	if f.Key == "" {
		return storage.Pickup{}, apperr.Fields("pick.err.damaged", apperr.Problems{"form": apperr.Msg("pick.err.no_key")})
	}
	if existing, err := d.db.PickupByKey(ctx, f.Key); err == nil {
		return existing, nil // this form was sent already
	}
	if _, problems := ParsePickupForm(f.asValues(), today); len(problems) > 0 {
		return storage.Pickup{}, invalid(problems)
	}
	addresses, err := d.PickupAddresses(ctx)
	if err != nil {
		return storage.Pickup{}, err
	}
	line := ""
	for _, c := range addresses {
		if c.ID == f.ContactID {
			line = c.Line
		}
	}
	if line == "" {
		return storage.Pickup{}, apperr.Fields("form.see_fields", apperr.Problems{"address": apperr.Msg("pick.err.no_address")})
	}
	if err := d.checkPickupCarrier(ctx, f); err != nil {
		return storage.Pickup{}, err
	}
	req := f.request()
	day, _ := time.Parse("2006-01-02", req.Date)
	intent := storage.Pickup{RequestKey: f.Key, ContactID: req.AddressID, Address: line, Date: day, TimeFrom: req.TimeFrom,
		TimeTo: req.TimeTo, Packages: req.Packages, Weight: req.Weight, Carrier: req.Carrier, Note: req.Note, CreatedBy: storage.UserRef(by),
		CreatedAt: d.now()}
	k := d.pickups()
	now := d.now()
	p, attempt, fresh, err := d.db.BeginPickup(ctx, intent, now, k.Deadline(now))
	if err != nil || !fresh {
		return p, err
	}
	return k.Send(ctx, p, attempt, requestOf(p), true)
}

// asValues lets OrderPickup run the form's own checks on a form built in code.
func (f PickupForm) asValues() map[string][]string {
	out := map[string][]string{}
	for k, v := range f.Values() {
		out[k] = []string{v}
	}
	return out
}

func requestOf(p storage.Pickup) shipping.PickupRequest {
	return shipping.PickupRequest{AddressID: p.ContactID, Date: p.Day(), TimeFrom: p.TimeFrom, TimeTo: p.TimeTo,
		Packages: p.Packages, Weight: p.Weight, Carrier: p.Carrier, Note: p.Note}
}

// pickups is the exactly-once protocol over the desk's courier pickups. A
// pickup's "sent" is the protocol's open outcome, its "failed" the proof that
// the service has none.
func (d *Desk) pickups() *exactlyonce.Kind[storage.Pickup, shipping.PickupRequest, *shipping.Pickup, shipping.Pickup] {
	return &exactlyonce.Kind[storage.Pickup, shipping.PickupRequest, *shipping.Pickup, shipping.Pickup]{
		Name: "pickup", DB: d.db, Clock: d.clock, Log: d.log, Timeout: d.OrderTimeout, Settle: d.Settle,
		StateOf: func(p storage.Pickup) exactlyonce.State {
			state := map[string]string{storage.PickupSent: storage.StateUnknown, storage.PickupFailed: storage.StateMissing}[p.State]
			return exactlyonce.State{ID: p.ID, State: state, SettlesAt: p.SettlesAt}
		},
		Load: func(ctx context.Context, db *storage.DB, id int64) (storage.Pickup, error) {
			return db.PickupByID(ctx, id)
		},
		Lock: func(ctx context.Context, tx *storage.DB, id int64) (storage.Pickup, error) {
			return tx.LockPickup(ctx, id)
		},
		Reopen: func(ctx context.Context, tx *storage.DB, p storage.Pickup, sent, deadline time.Time) (storage.Pickup, int64, error) {
			return tx.ReopenPickup(ctx, p, sent, deadline)
		},
		DropIntent: d.db.DropPickupIntent,
		MarkMissing: func(ctx context.Context, id int64, why apperr.Text, _ time.Time) error {
			return d.db.MarkPickup(ctx, id, storage.PickupFailed, why)
		},
		MarkUnknown: func(ctx context.Context, id int64, why apperr.Text) error {
			return d.db.MarkPickup(ctx, id, storage.PickupSent, why)
		},
		Unsettled: d.db.UnsettledPickups,
		Request:   func(p storage.Pickup) (shipping.PickupRequest, error) { return requestOf(p), nil },
		Create:    d.ship.AddPickup,
		Record: func(ctx context.Context, id int64, got *shipping.Pickup) error {
			textin.FromService(got)
			return d.db.RecordPickupOrdered(ctx, id, got.ID, got.Number)
		},
		Find: d.pickupsAtService,
		Adopt: func(ctx context.Context, db *storage.DB, p storage.Pickup, found []shipping.Pickup) error {
			return db.RecordPickupOrdered(ctx, p.ID, found[0].ID, found[0].Number)
		},
		Failed:  func(err error) error { return upstream.WithField(PickupField).Map("pick.doing.order", err) },
		Refused: apperr.Msg("pick.err.missing"),
		Waiting: func(time.Time) apperr.Text { return apperr.Msg(OutcomeUnknown) },
		Missing: func(storage.Pickup) apperr.Text { return apperr.Msg("pick.err.missing") },
	}
}

// pickupsAtService are the service's pickups at the pickup's address, day and
// window that no other record of ours takes: ours, when its answer was lost.
func (d *Desk) pickupsAtService(ctx context.Context, p storage.Pickup) ([]shipping.Pickup, error) {
	list, err := d.ship.Pickups(ctx, p.Day(), p.Day())
	if err != nil {
		return nil, UpstreamError("pick.doing.check", err)
	}
	textin.FromService(&list)
	known, err := d.db.KnownPickupIDs(ctx, p.Date, p.ID)
	if err != nil {
		return nil, err
	}
	var out []shipping.Pickup
	for _, up := range list {
		if up.AddressID == p.ContactID && up.Date == p.Day() && up.TimeFrom == p.TimeFrom && up.TimeTo == p.TimeTo && !known[up.ID] {
			out = append(out, up)
		}
	}
	return out, nil
}

// CheckPickup settles a pickup whose answer was lost: found at the service
// means ordered; none means not ordered, once its last attempt's deadline has
// passed (exactlyonce.Kind.Reconcile).
func (d *Desk) CheckPickup(ctx context.Context, id int64) (storage.Pickup, error) {
	return d.pickups().Reconcile(ctx, id)
}

// OrderPickupAgain sends a pickup that a check proved missing; one the
// service has after all is taken instead (exactlyonce.Kind.Again).
func (d *Desk) OrderPickupAgain(ctx context.Context, id int64) (storage.Pickup, error) {
	return d.pickups().Again(ctx, id)
}

// CheckAllPickups settles every pickup still "sent".
func (d *Desk) CheckAllPickups(ctx context.Context) error { return d.pickups().ReconcileAll(ctx) }
