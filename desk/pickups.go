package desk

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/exactlyonce"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Courier pickups: the intent is recorded before pickups/add (which is not
// idempotent) and the outcome after. A lost answer leaves the pickup "sent";
// pickups/list then shows whether the service has it, and only a pickup it
// does not have may be ordered again.

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
	req := f.request()
	day, _ := time.Parse("2006-01-02", req.Date)
	intent := storage.Pickup{RequestKey: f.Key, ContactID: req.AddressID, Address: line, Date: day, TimeFrom: req.TimeFrom,
		TimeTo: req.TimeTo, Packages: req.Packages, Weight: req.Weight, Carrier: req.Carrier, Note: req.Note, CreatedBy: storage.UserRef(by),
		CreatedAt: d.now()}
	p, fresh, err := d.db.BeginPickup(ctx, intent)
	if err != nil || !fresh {
		return p, err
	}
	return d.sendPickup(ctx, p)
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

// sendPickup calls pickups/add for a recorded intent and records what happened.
func (d *Desk) sendPickup(ctx context.Context, p storage.Pickup) (storage.Pickup, error) {
	ctx, callCtx, cancel := exactlyonce.Detach(ctx, d.OrderTimeout)
	defer cancel()
	got, err := d.ship.AddPickup(callCtx, requestOf(p))
	switch {
	case err == nil:
		textin.FromService(got)
		if err := d.db.RecordPickupOrdered(ctx, p.ID, got.ID, got.Number); err != nil {
			return p, err
		}
		d.log.Info("pickup ordered", "pickup", p.ID, "number", got.Number, "date", p.Day())
	case transport.IsRefused(err):
		if dropErr := d.db.DropPickupIntent(ctx, p.ID); dropErr != nil {
			return p, dropErr
		}
		return storage.Pickup{}, upstream.WithField(PickupField).Map("pick.doing.order", err)
	default:
		d.log.Warn("pickup outcome unknown", "pickup", p.ID, "err", err)
		if err := d.db.MarkPickup(ctx, p.ID, storage.PickupSent, apperr.Msg(OutcomeUnknown)); err != nil {
			return p, err
		}
		if settled, cerr := d.CheckPickup(ctx, p.ID); cerr == nil {
			return settled, nil
		}
	}
	return d.db.PickupByID(ctx, p.ID)
}

// CheckPickup settles a pickup whose answer was lost: a pickup of the service
// at the same address, day and window that no other record claims means it was
// ordered; none means it was not (and may be ordered again).
func (d *Desk) CheckPickup(ctx context.Context, id int64) (storage.Pickup, error) {
	p, err := d.db.PickupByID(ctx, id)
	if err != nil || p.State != storage.PickupSent {
		return p, err
	}
	list, err := d.ship.Pickups(ctx, p.Day(), p.Day())
	if err != nil {
		return p, UpstreamError("pick.doing.check", err)
	}
	textin.FromService(&list)
	known, err := d.db.KnownPickupIDs(ctx, p.Date, p.ID)
	if err != nil {
		return p, err
	}
	for _, up := range list {
		if up.AddressID == p.ContactID && up.Date == p.Day() && up.TimeFrom == p.TimeFrom && up.TimeTo == p.TimeTo && !known[up.ID] {
			if err := d.db.RecordPickupOrdered(ctx, id, up.ID, up.Number); err != nil {
				return p, err
			}
			d.log.Info("pickup checked: ordered", "pickup", id, "number", up.Number)
			return d.db.PickupByID(ctx, id)
		}
	}
	if err := d.db.MarkPickup(ctx, id, storage.PickupFailed, apperr.Msg("pick.err.missing")); err != nil {
		return p, err
	}
	d.log.Info("pickup checked: missing", "pickup", id)
	return d.db.PickupByID(ctx, id)
}

// OrderPickupAgain sends a pickup that a check proved missing.
func (d *Desk) OrderPickupAgain(ctx context.Context, id int64) (storage.Pickup, error) {
	p, err := d.db.ReopenPickup(ctx, id)
	if err != nil {
		return p, err
	}
	return d.sendPickup(ctx, p)
}

// CheckAllPickups settles every pickup still "sent" after grace (its answer
// was lost, or the process stopped during the call).
func (d *Desk) CheckAllPickups(ctx context.Context, grace time.Duration) error {
	list, err := d.db.UnsettledPickups(ctx, d.now().Add(-grace))
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range list {
		if _, err := d.CheckPickup(ctx, p.ID); err != nil {
			errs = append(errs, fmt.Errorf("check pickup %d: %w", p.ID, err))
		}
	}
	return errors.Join(errs...)
}
