package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Event is one tracking event of one package.
type Event struct {
	PackageIndex int       `db:"package_index" json:"package_index"`
	Occurred     time.Time `db:"occurred" json:"occurred"`
	Status       string    `db:"status" json:"status"`
	Name         string    `db:"name" json:"name"`
	Location     string    `db:"location" json:"location"`
}

// Lease is what a poller asks for: up to Limit records due at Now, held for
// For by Who so another instance skips them (the columns leased_until and
// leased_by keep it). A customer's claim is another thing (claims.go).
type Lease struct {
	Who   string
	Now   time.Time
	Limit int
	For   time.Duration
}

// Advisory lock class of the pollers' leases (the two-key form, beside sign-in's).
const lockClassLease = 7310

// leaseWait is the longest a lease waits for the one before it; a lease that
// waits longer fails, and the poller tries again on its next tick.
const leaseWait = "10s"

// leaseDue marks due shipments as held and returns them, in the order of the
// due index (index and order must match it, so a lease reads one batch of
// entries). Leases of one kind are taken one after the other (an advisory
// lock until the lease commits), so each sees every lease before it: a lease
// takes a full batch while Limit shipments are due and free, and only the
// last of an interval's work takes fewer. FOR UPDATE SKIP LOCKED still passes
// over a row another writer holds at that moment; the lease makes sure two
// instances never take the same shipment.
func (db *DB) leaseDue(ctx context.Context, c Lease, kind, due, order string, more ...any) ([]Shipment, error) {
	q := `
UPDATE shipments SET leased_until = $1::timestamptz + $2 * interval '1 microsecond', leased_by = $3
WHERE id IN (
    SELECT id FROM shipments
    WHERE ` + due + ` AND (leased_until IS NULL OR leased_until < $1)
    ORDER BY ` + order + `
    LIMIT $4
    FOR UPDATE SKIP LOCKED)
RETURNING ` + shipmentColumns
	var out []Shipment
	err := db.InTx(ctx, func(tx *DB) error {
		if _, err := tx.x.ExecContext(ctx, `SELECT set_config('lock_timeout', $1, true)`, leaseWait); err != nil {
			return err
		}
		if _, err := tx.x.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1, hashtext($2))`, lockClassLease, kind); err != nil {
			return err
		}
		return sqlxSelect(ctx, tx, &out, q, append([]any{c.Now, c.For.Microseconds(), c.Who, c.Limit}, more...)...)
	})
	return out, wrapf(err, "lease shipments for %s", c.Who)
}

// LeaseLabelChecks takes shipments whose label is pending and due a check
// (index shipments_label_due_idx).
func (db *DB) LeaseLabelChecks(ctx context.Context, c Lease) ([]Shipment, error) {
	return db.leaseDue(ctx, c, "label",
		`state = 'created' AND label_status = 'PENDING' AND cancelled_at IS NULL AND COALESCE(next_label_check_at, '-infinity') <= $1`,
		`COALESCE(next_label_check_at, '-infinity'), id`)
}

// LeaseTracking takes shipments still on their way and due a tracking update
// (index shipments_track_due_idx).
func (db *DB) LeaseTracking(ctx context.Context, c Lease) ([]Shipment, error) {
	return db.leaseDue(ctx, c, "tracking",
		`state = 'created' AND NOT tracking_done AND cancelled_at IS NULL AND COALESCE(next_track_at, '-infinity') <= $1`,
		`COALESCE(next_track_at, '-infinity'), id`)
}

// RecordLabelCheck stores a detail answer, releases the lease and schedules the
// next check (nil: no more checks needed).
func (db *DB) RecordLabelCheck(ctx context.Context, id int64, r Reply, now time.Time, next *time.Time) error {
	return db.InTx(ctx, func(tx *DB) error {
		if err := tx.RecordState(ctx, id, r, now); err != nil {
			return err
		}
		_, err := tx.x.ExecContext(ctx, `UPDATE shipments SET next_label_check_at = $2, leased_until = NULL, poll_failures = 0 WHERE id = $1`, id, next)
		return wrapf(err, "schedule label check of %d", id)
	})
}

// Tracked is one shipment's tracking answer: its status, whether it goes
// back to the sender, its events and when it is next due (nil: it has arrived
// or was cancelled).
type Tracked struct {
	ID       int64      `json:"id"`
	Status   string     `json:"status"`
	Returned bool       `json:"returned"`
	Events   []Event    `json:"-"`
	Next     *time.Time `json:"next"`
}

// trackedEvent is an event of a batch, with its shipment.
type trackedEvent struct {
	ShipmentID int64 `json:"shipment_id"`
	Event
}

// RecordTracking stores one shipment's tracking answer (RecordTrackings).
func (db *DB) RecordTracking(ctx context.Context, id int64, status string, returned bool, events []Event, now time.Time, next *time.Time) error {
	return db.RecordTrackings(ctx, []Tracked{{ID: id, Status: status, Returned: returned, Events: events, Next: next}}, now)
}

// RecordTrackings stores the tracking answers of a batch of shipments in one
// transaction of two statements, whatever the batch's size: new events (those
// seen before are skipped), each shipment's status, per-package statuses,
// returned and delivered, its next update, and the release of its lease.
func (db *DB) RecordTrackings(ctx context.Context, batch []Tracked, now time.Time) error {
	return db.RecordTrackingsThen(ctx, batch, now, nil)
}

// Stored is what a stored batch of tracking answers changed, handed to the
// caller's work in the same transaction: the batch's shipments and those
// that got new events.
type Stored struct {
	IDs, Moved []int64
}

// RecordTrackingsThen is RecordTrackings that runs then (when not nil) in
// its transaction after the answers are stored, so what the answers cause
// (the customer's mail) is recorded exactly when they are.
func (db *DB) RecordTrackingsThen(ctx context.Context, batch []Tracked, now time.Time, then func(tx *DB, st Stored) error) error {
	if len(batch) == 0 {
		return nil
	}
	events := []trackedEvent{}
	for _, t := range batch {
		for _, e := range t.Events {
			events = append(events, trackedEvent{ShipmentID: t.ID, Event: e})
		}
	}
	eventDoc, err := json.Marshal(events)
	if err != nil {
		return fmt.Errorf("encode events of %d shipments: %w", len(batch), err)
	}
	shipmentDoc, err := json.Marshal(batch)
	if err != nil {
		return fmt.Errorf("encode tracking of %d shipments: %w", len(batch), err)
	}
	return db.InTx(ctx, func(tx *DB) error {
		var st Stored
		err := sqlxSelect(ctx, tx, &st.Moved, `
WITH n AS (INSERT INTO tracking_events (shipment_id, package_index, occurred, status, name, location)
SELECT shipment_id, package_index, occurred, status, name, location
FROM jsonb_to_recordset($1::jsonb) AS e(shipment_id bigint, package_index int, occurred timestamptz, status text, name text, location text)
ON CONFLICT DO NOTHING
RETURNING shipment_id)
SELECT DISTINCT shipment_id FROM n`, string(eventDoc))
		if err != nil {
			return fmt.Errorf("store events of %d shipments: %w", len(batch), err)
		}
		// Each package takes the status of its newest event; delivered_at is the
		// newest DELIVERED event.
		_, err = tx.x.ExecContext(ctx, withShopWrites("", `
UPDATE shipments s SET status = t.status, returned = t.returned, last_checked_at = $2, next_track_at = t.next, leased_until = NULL,
    poll_failures = 0, tracking_done = t.next IS NULL,
    cancelled_at = CASE WHEN t.status = 'CANCELLED' THEN COALESCE(s.cancelled_at, $2) ELSE s.cancelled_at END,
    delivered_at = CASE WHEN t.status = 'DELIVERED' THEN COALESCE(s.delivered_at,
        (SELECT max(occurred) FROM tracking_events WHERE shipment_id = s.id AND status = 'DELIVERED'), $2)
        ELSE s.delivered_at END,
    packages = COALESCE((
        SELECT jsonb_agg(CASE WHEN latest.status IS NULL THEN p.pkg ELSE jsonb_set(p.pkg, '{status}', to_jsonb(latest.status)) END ORDER BY p.idx)
        FROM jsonb_array_elements(s.packages) WITH ORDINALITY AS p(pkg, idx)
        LEFT JOIN LATERAL (SELECT status FROM tracking_events e WHERE e.shipment_id = s.id AND e.package_index = p.idx - 1
            ORDER BY occurred DESC LIMIT 1) latest ON true), '[]')
FROM jsonb_to_recordset($1::jsonb) AS t(id bigint, status text, returned boolean, next timestamptz)
WHERE s.id = t.id
RETURNING s.id, s.reference, s.tracking_number, s.status, s.cancelled_at, s.last_checked_at`), string(shipmentDoc), now)
		if err != nil || then == nil {
			return wrapf(err, "record tracking of %d shipments", len(batch))
		}
		for _, t := range batch {
			st.IDs = append(st.IDs, t.ID)
		}
		return then(tx, st)
	})
}

// PollFailed releases leases after a failed call and backs off: the next try
// comes after base doubled for every failure in a row, at most limit.
func (db *DB) PollFailed(ctx context.Context, ids []int64, label bool, now time.Time, base, limit time.Duration) error {
	column := "next_track_at"
	if label {
		column = "next_label_check_at"
	}
	_, err := db.x.ExecContext(ctx, `
UPDATE shipments SET poll_failures = poll_failures + 1, leased_until = NULL,
    `+column+` = $2::timestamptz + least($3 * power(2, poll_failures), $4) * interval '1 microsecond'
WHERE id = ANY($1)`, pqArray(ids), now, base.Microseconds(), limit.Microseconds())
	return wrapf(err, "back off %d shipments", len(ids))
}

// Events returns a shipment's events, per package, newest first.
func (db *DB) Events(ctx context.Context, shipmentID int64) ([]Event, error) {
	var out []Event
	err := sqlxSelect(ctx, db, &out, `SELECT package_index, occurred, status, name, location FROM tracking_events
WHERE shipment_id = $1 ORDER BY package_index, occurred DESC, status DESC`, shipmentID)
	return out, wrapf(err, "events of %d", shipmentID)
}

// KnownNumbers returns which tracking numbers are stored already, and the
// references that shipdesk's own orders carry (as "ref:" + reference).
func (db *DB) KnownNumbers(ctx context.Context, numbers, references []string) (map[string]bool, error) {
	var rows []string
	err := sqlxSelect(ctx, db, &rows, `
SELECT tracking_number FROM shipments WHERE tracking_number = ANY($1)
UNION ALL
SELECT 'ref:' || reference FROM shipments WHERE reference = ANY($2) AND origin = 'shipdesk'`, pqArray(numbers), pqArray(references))
	known := map[string]bool{}
	for _, n := range rows {
		known[n] = true
	}
	return known, wrapf(err, "known tracking numbers")
}

// ImportShipment stores a shipment found at the service that shipdesk did not
// order; a tracking number stored already is left as it is.
func (db *DB) ImportShipment(ctx context.Context, s Shipment, r Reply, now time.Time) (int64, error) {
	var id int64
	err := sqlxGet(ctx, db, &id, `
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, service_name,
    recipient_name, recipient_city, tracking_number, order_id, order_number, status, label_mode, label_status,
    packages, returned, origin, ordered_at, last_checked_at, created_at)
VALUES (gen_random_uuid(), $1, 'created', '{}', $2, $3, '', $4, $5, $6, NULLIF($7, 0), NULLIF($8, ''), $9, $10, $11,
    $12, $13, 'service', $14, $14, $14)
ON CONFLICT (tracking_number) DO NOTHING
RETURNING id`, s.Reference, s.Carrier, s.ServiceID, s.RecipientName, s.RecipientCity, r.TrackingNumber,
		r.OrderID, r.OrderNumber, r.Status, r.LabelMode, r.LabelStatus, r.Packages, r.Returned, now)
	if errors.Is(err, errNoRows) {
		return 0, nil
	}
	return id, wrapf(err, "import shipment %s", r.TrackingNumber)
}
