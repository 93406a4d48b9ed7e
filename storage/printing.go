package storage

import (
	"context"
	"time"

	"github.com/lib/pq"
)

// beingMade is a shipment whose label is still to come from the service:
// ordered, not cancelled, label pending. Label-free shipments (code instead
// of a label) and labels the courier brings are not among them.
const beingMade = `state = 'created' AND label_status = 'PENDING' AND cancelled_at IS NULL AND status <> 'CANCELLED'
  AND label_mode NOT IN ('CODE', 'CARRIER')`

// PrintBatch is one print of labels: who printed which shipments when, and how.
type PrintBatch struct {
	ID            int64         `db:"id"`
	PrintedBy     *int64        `db:"printed_by"`
	PrintedByName string        `db:"printed_by_name"` // the username; empty when the account is gone
	PrintedAt     time.Time     `db:"printed_at"`
	Format        string        `db:"format"`   // A6 or A4
	StartAt       int           `db:"start_at"` // first position on the first A4 sheet
	Labels        int           `db:"labels"`   // label pages printed
	ReprintOf     *int64        `db:"reprint_of"`
	ShipmentIDs   pq.Int64Array `db:"shipment_ids"` // in print order
}

const printBatchSelect = `SELECT b.id, b.printed_by, COALESCE(u.username, '') AS printed_by_name, b.printed_at, b.format, b.start_at,
    b.labels, b.reprint_of,
    ARRAY(SELECT s.shipment_id FROM print_batch_shipments s WHERE s.batch_id = b.id ORDER BY s.position) AS shipment_ids
FROM print_batches b LEFT JOIN users u ON u.id = b.printed_by`

// RecordPrintBatch stores a print with its shipments and marks their labels
// printed, in one transaction.
func (db *DB) RecordPrintBatch(ctx context.Context, b PrintBatch) (PrintBatch, error) {
	var id int64
	err := db.InTx(ctx, func(tx *DB) error {
		err := sqlxGet(ctx, tx, &id, `INSERT INTO print_batches (printed_by, printed_at, format, start_at, labels, reprint_of)
VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, b.PrintedBy, b.PrintedAt, b.Format, b.StartAt, b.Labels, b.ReprintOf)
		if err != nil {
			return err
		}
		_, err = tx.x.ExecContext(ctx, `INSERT INTO print_batch_shipments (batch_id, position, shipment_id)
SELECT $1, p.position, p.id FROM unnest($2::bigint[]) WITH ORDINALITY AS p (id, position)`, id, pqArray([]int64(b.ShipmentIDs)))
		if err != nil {
			return err
		}
		return tx.MarkPrinted(ctx, []int64(b.ShipmentIDs), b.PrintedAt)
	})
	if err != nil {
		return b, wrapf(err, "record print batch of %d shipments", len(b.ShipmentIDs))
	}
	return db.PrintBatchByID(ctx, id)
}

// RecentPrintBatches lists the newest prints, newest first.
func (db *DB) RecentPrintBatches(ctx context.Context, limit int) ([]PrintBatch, error) {
	var out []PrintBatch
	err := sqlxSelect(ctx, db, &out, printBatchSelect+` ORDER BY b.printed_at DESC, b.id DESC LIMIT $1`, limit)
	return out, wrapf(err, "recent print batches")
}

// PrintBatchByID finds one print.
func (db *DB) PrintBatchByID(ctx context.Context, id int64) (PrintBatch, error) {
	var b PrintBatch
	err := sqlxGet(ctx, db, &b, printBatchSelect+` WHERE b.id = $1`, id)
	return b, wrapf(notFound(err, "print.no_batch"), "print batch %d", id)
}
