package storage

import (
	"context"
	"time"

	"shipdesk/apperr"
)

// Kinds of writes back to the shop.
const (
	ShopWriteTracking = "tracking" // the tracking number on the order ("" clears it)
	ShopWriteStatus   = "status"   // the order moved to a status of the shop's
)

// ShopWrite is one write back to the shop (table shop_writes), with the
// queue's columns.
type ShopWrite struct {
	ID             int64       `db:"id"`
	EventKey       string      `db:"event_key"`
	OrderCode      string      `db:"order_code"`
	ShipmentID     *int64      `db:"shipment_id"`
	Kind           string      `db:"kind"`
	TrackingNumber string      `db:"tracking_number"`
	StatusID       *int        `db:"status_id"`
	Quiet          bool        `db:"quiet"`
	CreatedAt      time.Time   `db:"created_at"`
	State          string      `db:"state"`
	Attempts       int         `db:"attempts"`
	NextAttemptAt  time.Time   `db:"next_attempt_at"`
	LastError      apperr.Text `db:"last_error"`
	SentAt         *time.Time  `db:"sent_at"`
}

const shopWriteColumns = `id, event_key, order_code, shipment_id, kind, tracking_number, status_id, quiet, created_at,
state, attempts, next_attempt_at, last_error, sent_at`

// shopWritesOf records the writes back to the shop that a change of
// shipments causes, as a part of the statement that makes the change (it
// reads the changed rows as x: shopWriteSource's columns), so a write exists
// exactly when its change does, once per event: a parcel of a shop's order
// got its tracking number; it was handed over (the carrier has it: on its
// way, out for delivery or delivered) and the connection names a status for
// that; it was cancelled after it had a number, which clears the order's
// number, or puts back that of another live parcel of the order.
const shopWritesOf = `INSERT INTO shop_writes (event_key, order_code, shipment_id, kind, tracking_number, status_id, quiet, created_at, next_attempt_at)
SELECT e.key, p.order_code, x.id, e.kind, e.tracking, e.status_id, e.quiet, COALESCE(x.last_checked_at, now()), COALESCE(x.last_checked_at, now())
FROM x
JOIN shop_parcels p ON p.reference = x.reference
LEFT JOIN shop_connections c ON c.id = 1
CROSS JOIN LATERAL (VALUES
    ('tracking:' || x.id || ':' || COALESCE(x.tracking_number, ''), 'tracking', COALESCE(x.tracking_number, ''), NULL::int, true,
        x.tracking_number IS NOT NULL AND x.cancelled_at IS NULL),
    ('handover:' || x.id, 'status', '', c.handover_status, COALESCE(c.handover_quiet, true),
        x.status IN ('INTRANSIT', 'ONDELIVERY', 'DELIVERED') AND x.cancelled_at IS NULL AND c.handover_status IS NOT NULL),
    ('storno:' || x.id, 'tracking', COALESCE((SELECT s2.tracking_number FROM shop_parcels p2 JOIN shipments s2 ON s2.reference = p2.reference
        WHERE p2.order_code = p.order_code AND s2.id <> x.id AND s2.tracking_number IS NOT NULL AND s2.cancelled_at IS NULL
        ORDER BY s2.id DESC LIMIT 1), ''), NULL::int, true,
        x.cancelled_at IS NOT NULL AND x.tracking_number IS NOT NULL)
) AS e(key, kind, tracking, status_id, quiet, due)
WHERE e.due
ON CONFLICT (event_key) DO NOTHING`

// shopWriteSource are the columns of shipments shopWritesOf reads.
const shopWriteSource = `id, reference, tracking_number, status, cancelled_at, last_checked_at`

// withShopWrites makes an UPDATE of shipments (returning at least
// shopWriteSource) record the writes back to the shop it causes, in the same
// statement; the statement returns what the UPDATE returns. more are CTEs
// to run first ("a AS (…), ").
func withShopWrites(more, update string) string {
	return `WITH ` + more + `x AS (` + update + `), w AS (` + shopWritesOf + `) SELECT * FROM x`
}

// shopWriteQueue is the writes back to the shop as a queue (queue.go): an
// order's writes are sent one after the other, in the order of their
// events, so a storno's clearing never overtakes the number it clears.
var shopWriteQueue = queue{table: "shop_writes", kind: "shop_writes", columns: shopWriteColumns,
	due: `NOT EXISTS (SELECT FROM shop_writes e WHERE e.order_code = q.order_code AND e.id < q.id AND e.state IN ('queued', 'sending'))`}

// LeaseShopWrites takes writes that are due (the queues' lease).
func (db *DB) LeaseShopWrites(ctx context.Context, c Lease) ([]ShopWrite, error) {
	var out []ShopWrite
	err := db.lease(ctx, shopWriteQueue, c, &out, nil)
	return out, err
}

// ShopWriteSent records that the shop took the write.
func (db *DB) ShopWriteSent(ctx context.Context, id int64, who string, now time.Time) (bool, error) {
	return db.sent(ctx, shopWriteQueue.table, id, who, now)
}

// ShopWriteRetry puts the write back to wait for its next attempt, with
// the shop's answer.
func (db *DB) ShopWriteRetry(ctx context.Context, id int64, who string, next time.Time, why apperr.Text) (bool, error) {
	return db.retry(ctx, shopWriteQueue.table, id, who, next, storedText(why))
}

// ShopWriteGaveUp keeps the write as failed for good, with the shop's answer.
func (db *DB) ShopWriteGaveUp(ctx context.Context, id int64, who string, why apperr.Text) (bool, error) {
	return db.gaveUp(ctx, shopWriteQueue.table, id, who, storedText(why))
}

// storedText is a text as its column keeps it.
func storedText(t apperr.Text) string {
	v, _ := t.Value()
	s, _ := v.(string)
	return s
}

// ShopWrites lists what was written, or is to be written, to an order,
// oldest first.
func (db *DB) ShopWrites(ctx context.Context, code string) ([]ShopWrite, error) {
	var out []ShopWrite
	err := sqlxSelect(ctx, db, &out, `SELECT `+shopWriteColumns+` FROM shop_writes WHERE order_code = $1 ORDER BY id`, code)
	return out, wrapf(err, "writes to shop order %s", code)
}

// RequeueShopWrite sends a write that failed for good once more (a person
// fixed what the shop refused): its attempts start again.
func (db *DB) RequeueShopWrite(ctx context.Context, id int64, now time.Time) error {
	res, err := db.x.ExecContext(ctx, `UPDATE shop_writes SET state = 'queued', attempts = 0, next_attempt_at = $2 WHERE id = $1 AND state = 'failed'`, id, now)
	return wrapf(affectedOne(res, err, "shop.err.write_not_failed", id), "queue shop write %d again", id)
}
