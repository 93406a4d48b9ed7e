package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"shipdesk/apperr"
)

// States of a courier pickup ordered from the desk.
const (
	PickupSent    = "sent"    // recorded and sent; the answer may have been lost
	PickupOrdered = "ordered" // the service confirmed it
	PickupFailed  = "failed"  // the service has no such pickup: it may be ordered again
)

// Pickup is a courier pickup as we recorded it: the request, its state and the
// service's id and number once known.
type Pickup struct {
	ID         int64       `db:"id"`
	RequestKey string      `db:"request_key"`
	State      string      `db:"state"`
	ContactID  int64       `db:"contact_id"`
	Address    string      `db:"address"` // one line, as shown when ordered
	Date       time.Time   `db:"pickup_date"`
	TimeFrom   string      `db:"time_from"`
	TimeTo     string      `db:"time_to"`
	Packages   int         `db:"packages"`
	Weight     float64     `db:"weight"`
	Carrier    string      `db:"carrier"`
	Note       string      `db:"note"`
	UpstreamID *int64      `db:"upstream_id"`
	Number     string      `db:"number"`
	Error      apperr.Text `db:"error"`
	CreatedBy  *int64      `db:"created_by"`
	CreatedAt  time.Time   `db:"created_at"`
	UpdatedAt  time.Time   `db:"updated_at"`
	SettlesAt  *time.Time  `db:"settles_at"` // when its last attempt has settled at the service
}

// Day is the pickup date as YYYY-MM-DD.
func (p Pickup) Day() string { return p.Date.Format("2006-01-02") }

const pickupColumns = `id, request_key, state, contact_id, address, pickup_date, time_from, time_to, packages, weight,
carrier, note, upstream_id, number, error, created_by, created_at, updated_at, settles_at`

// BeginPickup records the intent to order, and its first attempt sent at sent
// and settled by deadline, before pickups/add is called. A second call with
// the same request key finds the first record: fresh is false.
func (db *DB) BeginPickup(ctx context.Context, p Pickup, sent, deadline time.Time) (out Pickup, attempt int64, fresh bool, err error) {
	err = db.InTx(ctx, func(tx *DB) error {
		out, fresh, err = tx.insertPickup(ctx, p)
		if err != nil || !fresh {
			return err
		}
		attempt, err = tx.beginAttempt(ctx, ofPickup, out.ID, sent, deadline)
		if err != nil {
			return err
		}
		out, err = tx.PickupByID(ctx, out.ID)
		return err
	})
	return out, attempt, fresh, err
}

func (db *DB) insertPickup(ctx context.Context, p Pickup) (out Pickup, fresh bool, err error) {
	const q = `
INSERT INTO pickups (request_key, state, contact_id, address, pickup_date, time_from, time_to, packages, weight, carrier, note, created_by,
    created_at, updated_at)
VALUES ($1, 'sent', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)
ON CONFLICT (request_key) DO NOTHING
RETURNING ` + pickupColumns
	err = sqlxGet(ctx, db, &out, q, p.RequestKey, p.ContactID, p.Address, p.Date, p.TimeFrom, p.TimeTo, p.Packages, p.Weight,
		p.Carrier, p.Note, p.CreatedBy, p.CreatedAt)
	switch {
	case err == nil:
		return out, true, nil
	case errors.Is(err, errNoRows):
		out, err = db.PickupByKey(ctx, p.RequestKey)
		return out, false, err
	}
	return Pickup{}, false, fmt.Errorf("record pickup %s: %w", p.RequestKey, err)
}

// PickupByKey finds the pickup recorded for a form's request key.
func (db *DB) PickupByKey(ctx context.Context, key string) (Pickup, error) {
	var p Pickup
	err := sqlxGet(ctx, db, &p, `SELECT `+pickupColumns+` FROM pickups WHERE request_key = $1`, key)
	return p, wrapf(notFound(err, "rec.no_pickup_for_form"), "pickup by key")
}

// PickupByID finds one recorded pickup.
func (db *DB) PickupByID(ctx context.Context, id int64) (Pickup, error) {
	var p Pickup
	err := sqlxGet(ctx, db, &p, `SELECT `+pickupColumns+` FROM pickups WHERE id = $1`, id)
	return p, wrapf(notFound(err, "rec.no_pickup", id), "pickup %d", id)
}

// RecordPickupOrdered stores the service's id and number of a pickup.
func (db *DB) RecordPickupOrdered(ctx context.Context, id, upstreamID int64, number string) error {
	res, err := db.x.ExecContext(ctx, `UPDATE pickups SET state = 'ordered', upstream_id = $2, number = $3, error = '', updated_at = now()
WHERE id = $1`, id, upstreamID, number)
	return wrapf(affectedOne(res, err, "rec.no_pickup", id), "record pickup %d ordered", id)
}

// MarkPickup sets the state of a pickup and why.
func (db *DB) MarkPickup(ctx context.Context, id int64, state string, why apperr.Text) error {
	res, err := db.x.ExecContext(ctx, `UPDATE pickups SET state = $2, error = $3, updated_at = now() WHERE id = $1`, id, state, why)
	return wrapf(affectedOne(res, err, "rec.no_pickup", id), "mark pickup %d %s", id, state)
}

// DropPickupIntent forgets a pickup the service refused, so the corrected form
// can be sent again under the same key.
func (db *DB) DropPickupIntent(ctx context.Context, id int64) error {
	_, err := db.x.ExecContext(ctx, `DELETE FROM pickups WHERE id = $1 AND state = 'sent'`, id)
	return wrapf(err, "drop pickup intent %d", id)
}

// LockPickup reads a pickup and locks it until the transaction ends.
func (db *DB) LockPickup(ctx context.Context, id int64) (Pickup, error) {
	var p Pickup
	err := sqlxGet(ctx, db, &p, `SELECT `+pickupColumns+` FROM pickups WHERE id = $1 FOR UPDATE`, id)
	return p, wrapf(notFound(err, "rec.no_pickup", id), "lock pickup %d", id)
}

// ReopenPickup sends a failed pickup again, with a new attempt sent at sent
// and settled by deadline: only a pickup the service proved it does not have
// may be ordered again.
func (db *DB) ReopenPickup(ctx context.Context, p Pickup, sent, deadline time.Time) (Pickup, int64, error) {
	var out Pickup
	err := sqlxGet(ctx, db, &out, `UPDATE pickups SET state = 'sent', error = '', updated_at = now()
WHERE id = $1 AND state = 'failed' RETURNING `+pickupColumns, p.ID)
	if errors.Is(err, errNoRows) {
		return p, 0, apperr.New(apperr.Conflict, "rec.pickup_again", p.ID)
	}
	if err != nil {
		return p, 0, wrapf(err, "reopen pickup %d", p.ID)
	}
	attempt, err := db.beginAttempt(ctx, ofPickup, out.ID, sent, deadline)
	if err != nil {
		return out, 0, err
	}
	out.SettlesAt = &deadline
	return out, attempt, nil
}

// KnownPickupIDs are the service's pickup ids already recorded for other
// pickups on a day, so a check never takes one of them for a lost answer.
func (db *DB) KnownPickupIDs(ctx context.Context, day time.Time, except int64) (map[int64]bool, error) {
	var ids []int64
	err := sqlxSelect(ctx, db, &ids, `SELECT upstream_id FROM pickups WHERE pickup_date = $1 AND id <> $2 AND upstream_id IS NOT NULL`, day, except)
	out := make(map[int64]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out, wrapf(err, "known pickups on %s", day.Format("2006-01-02"))
}

// PickupsFrom lists pickups dated from day on, soonest first.
func (db *DB) PickupsFrom(ctx context.Context, day time.Time, limit int) ([]Pickup, error) {
	var out []Pickup
	err := sqlxSelect(ctx, db, &out, `SELECT `+pickupColumns+` FROM pickups WHERE pickup_date >= $1
ORDER BY pickup_date, time_from, id LIMIT $2`, day, limit)
	return out, wrapf(err, "pickups from %s", day.Format("2006-01-02"))
}

// PickupsBefore lists pickups dated before day, latest first.
func (db *DB) PickupsBefore(ctx context.Context, day time.Time, limit int) ([]Pickup, error) {
	var out []Pickup
	err := sqlxSelect(ctx, db, &out, `SELECT `+pickupColumns+` FROM pickups WHERE pickup_date < $1
ORDER BY pickup_date DESC, time_from DESC, id DESC LIMIT $2`, day, limit)
	return out, wrapf(err, "pickups before %s", day.Format("2006-01-02"))
}

// UnsettledPickups are pickups still "sent": their answer was lost, or their
// process stopped during the call, or the call is under way (the check then
// finds the pickup, or waits for its deadline).
func (db *DB) UnsettledPickups(ctx context.Context, _ time.Time) ([]Pickup, error) {
	var out []Pickup
	err := sqlxSelect(ctx, db, &out, `SELECT `+pickupColumns+` FROM pickups WHERE state = 'sent' ORDER BY id LIMIT 100`)
	return out, wrapf(err, "unsettled pickups")
}
