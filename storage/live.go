package storage

import (
	"context"
	"time"
)

// A page that shows one record asks for it to be refreshed when it is due;
// the claim is the pollers' (claimed_until), so of many pages showing the
// same record one asks the service, and a poller holding it is never doubled.

// DueShipment is a shipment claimed for a refresh, with what is due.
type DueShipment struct {
	Shipment
	LabelDue bool `db:"label_due"` // its label is pending and due a check
	TrackDue bool `db:"track_due"` // it moves and is due a tracking update
}

// ClaimShipmentIfDue holds one shipment for c.Lease when its label check or
// tracking update is due at c.Now, or its pending label was last checked at
// or before pendingBefore; ok is false when nothing is due or another holds it.
func (db *DB) ClaimShipmentIfDue(ctx context.Context, id int64, c Claim, pendingBefore time.Time) (d DueShipment, ok bool, err error) {
	const labelDue = `(label_status = 'PENDING' AND (COALESCE(next_label_check_at, '-infinity') <= $2 OR COALESCE(last_checked_at, '-infinity') <= $5))`
	const trackDue = `(NOT tracking_done AND COALESCE(next_track_at, '-infinity') <= $2)`
	var out []DueShipment
	err = sqlxSelect(ctx, db, &out, `
UPDATE shipments SET claimed_until = $2::timestamptz + $3 * interval '1 microsecond', claimed_by = $4
WHERE id = $1 AND state = 'created' AND cancelled_at IS NULL AND (claimed_until IS NULL OR claimed_until < $2)
    AND (`+labelDue+` OR `+trackDue+`)
RETURNING `+shipmentColumns+`, `+labelDue+` AS label_due, `+trackDue+` AS track_due`,
		id, c.Now, c.Lease.Microseconds(), c.Who, pendingBefore)
	if err != nil || len(out) == 0 {
		return d, false, wrapf(err, "claim shipment %d", id)
	}
	return out[0], true, nil
}

// ClaimCommissionIfDue holds one open commission for c.Lease when it is due
// a refresh at c.Now, as the commission poller would claim it.
func (db *DB) ClaimCommissionIfDue(ctx context.Context, id int64, c Claim) (Commission, bool, error) {
	var out []Commission
	err := sqlxSelect(ctx, db, &out, `
UPDATE commissions SET claimed_until = $2::timestamptz + $3 * interval '1 microsecond', claimed_by = $4
WHERE id = $1 AND state = 'created' AND status NOT IN ('closed', 'cancelled') AND COALESCE(next_sync_at, '-infinity') <= $2
    AND (claimed_until IS NULL OR claimed_until < $2)
RETURNING `+commissionColumns, id, c.Now, c.Lease.Microseconds(), c.Who)
	if err != nil || len(out) == 0 {
		return Commission{}, false, wrapf(err, "claim commission %d", id)
	}
	return out[0], true, nil
}
