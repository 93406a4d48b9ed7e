package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// A page that shows a record reads it in one statement. A shipment's page
// waiting for its label has the stale pending labels checked through the
// label poller's lease (leased_until), in its batches, so the number of open
// pages never multiplies the calls; a commission's page leases its
// commission as its poller would.

// ShipmentLive is a shipment as its page's polling shows it: the row and its
// tracking events (Events' order), read in one statement, since every open
// page asks for it every few seconds.
func (db *DB) ShipmentLive(ctx context.Context, id int64) (Shipment, []Event, error) {
	var row struct {
		Shipment
		Events []byte `db:"events"`
	}
	err := sqlxGet(ctx, db, &row, `SELECT `+shipmentColumns+`, COALESCE((
    SELECT json_agg(json_build_object('package_index', e.package_index, 'occurred', e.occurred, 'status', e.status,
        'name', e.name, 'location', e.location) ORDER BY e.package_index, e.occurred DESC, e.status DESC)
    FROM tracking_events e WHERE e.shipment_id = shipments.id), '[]') AS events
FROM shipments WHERE id = $1`, id)
	if err != nil {
		return Shipment{}, nil, wrapf(notFound(err, "rec.no_shipment", id), "shipment %d", id)
	}
	var events []Event
	if err := json.Unmarshal(row.Events, &events); err != nil {
		return Shipment{}, nil, fmt.Errorf("events of %d: %w", id, err)
	}
	return row.Shipment, events, nil
}

// CommissionLive is a commission with its files (UploadsOf's order and
// fields, without their bytes or tokens), read in one statement: what its
// page's polling shows.
func (db *DB) CommissionLive(ctx context.Context, id int64) (Commission, []Upload, error) {
	var row struct {
		Commission
		Files []byte `db:"files"`
	}
	err := sqlxGet(ctx, db, &row, `SELECT `+commissionColumns+`, COALESCE((
    SELECT json_agg(json_build_object('id', u.id, 'filename', u.filename, 'size', u.size) ORDER BY u.id)
    FROM uploads u WHERE u.commission_id = commissions.id), '[]') AS files
FROM commissions WHERE id = $1`, id)
	if err != nil {
		return Commission{}, nil, wrapf(notFound(err, "rec.no_commission", id), "commission %d", id)
	}
	var files []Upload
	if err := json.Unmarshal(row.Files, &files); err != nil {
		return Commission{}, nil, fmt.Errorf("files of commission %d: %w", id, err)
	}
	return row.Commission, files, nil
}

// LeaseStaleLabels takes, as the label poller does, up to c.Limit shipments
// whose label is pending and due a check at c.Now or last checked at or
// before pendingBefore: a page waiting for one label has the others that
// waited as long checked in the same call. A label whose checks fail waits
// out its backoff (next_label_check_at) whatever the pages show
// (desk.LabelCheckDue says the same of one shipment).
func (db *DB) LeaseStaleLabels(ctx context.Context, c Lease, pendingBefore time.Time) ([]Shipment, error) {
	return db.leaseDue(ctx, c, "label",
		`state = 'created' AND label_status = 'PENDING' AND cancelled_at IS NULL
    AND (COALESCE(next_label_check_at, '-infinity') <= $1
        OR poll_failures = 0 AND COALESCE(last_checked_at, '-infinity') <= $5)`,
		`COALESCE(next_label_check_at, '-infinity'), id`, pendingBefore) // the few pending labels: any order reads them
}

// LeaseCommissionIfDue holds one open commission for c.For when it is due
// a refresh at c.Now, as the commission poller would lease it
// (workbench.Detail.SyncDue says the same of a commission read).
func (db *DB) LeaseCommissionIfDue(ctx context.Context, id int64, c Lease) (Commission, bool, error) {
	var out []Commission
	err := sqlxSelect(ctx, db, &out, `
UPDATE commissions SET leased_until = $2::timestamptz + $3 * interval '1 microsecond', leased_by = $4
WHERE id = $1 AND state = 'created' AND status NOT IN ('closed', 'cancelled') AND COALESCE(next_sync_at, '-infinity') <= $2
    AND (leased_until IS NULL OR leased_until < $2)
RETURNING `+commissionColumns, id, c.Now, c.For.Microseconds(), c.Who)
	if err != nil || len(out) == 0 {
		return Commission{}, false, wrapf(err, "lease commission %d", id)
	}
	return out[0], true, nil
}

// PrintLive is the print queue's live part in one statement: the labels to
// print (PrintQueue) and those still being made (beingMade).
func (db *DB) PrintLive(ctx context.Context) (ready, making []Shipment, err error) {
	var rows []struct {
		Shipment
		Ready bool `db:"ready"`
	}
	err = sqlxSelect(ctx, db, &rows, `
(SELECT `+shipmentColumns+`, true AS ready FROM shipments WHERE `+toPrint+` ORDER BY id LIMIT 500)
UNION ALL
(SELECT `+shipmentColumns+`, false FROM shipments WHERE `+beingMade+` ORDER BY id LIMIT 500)`)
	for _, r := range rows {
		if r.Ready {
			ready = append(ready, r.Shipment)
		} else {
			making = append(making, r.Shipment)
		}
	}
	return ready, making, wrapf(err, "print queue")
}

// RecentAndToPrint lists the newest shipments with how many labels wait to
// be printed (PrintQueue's length), in one statement: the shipping desk's
// live part.
func (db *DB) RecentAndToPrint(ctx context.Context, limit int) ([]Shipment, int, error) {
	var rows []struct {
		Shipment
		ToPrint int `db:"to_print"`
	}
	err := sqlxSelect(ctx, db, &rows, `SELECT `+shipmentColumns+`,
    (SELECT count(*) FROM (SELECT FROM shipments WHERE `+toPrint+` LIMIT 500) AS q) AS to_print
FROM shipments ORDER BY created_at DESC, id DESC LIMIT $1`, limit)
	if err != nil || len(rows) == 0 {
		return nil, 0, wrapf(err, "recent shipments")
	}
	out := make([]Shipment, len(rows))
	for i, r := range rows {
		out[i] = r.Shipment
	}
	return out, rows[0].ToPrint, nil
}
