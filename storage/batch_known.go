package storage

import (
	"context"
	"math"
)

// OrderedMatch is something already ordered that a batch row looks like: a
// shipment with its reference, or a row (of any batch) that is ordered or
// being ordered, with its reference or fingerprint.
type OrderedMatch struct {
	Reference   string `db:"reference"`
	Fingerprint string `db:"fingerprint"`
	ShipmentID  *int64 `db:"shipment_id"`
	BatchID     int64  `db:"batch_id"` // 0: a shipment not ordered from a batch row
	Line        int    `db:"line"`
	RowID       int64  `db:"row_id"`
}

// BeforeAll is the row id a match of a new file's rows is made before: every
// row stored is earlier than the file's.
const BeforeAll = math.MaxInt64

// OrderedMatches finds what was ordered with one of the references, or
// (rows only) one of the fingerprints: shipments that exist or may exist,
// rows ordered, and rows being ordered that were stored before the row
// before (so that of two rows ordered at once the earlier one goes).
// Shipments come first, then rows in the order they were stored.
func (db *DB) OrderedMatches(ctx context.Context, refs, prints []string, before int64) ([]OrderedMatch, error) {
	_, out, err := db.orderedMatches(ctx, refs, prints, before, "")
	return out, err
}

// RowMatches are OrderedMatches for a row about to be ordered, asked in the
// same statement as whether an order is recorded under the row's request
// key (keyed: the row was sent before, and its matches are not asked for).
func (db *DB) RowMatches(ctx context.Context, key string, refs, prints []string, before int64) (keyed bool, matches []OrderedMatch, err error) {
	return db.orderedMatches(ctx, refs, prints, before, key)
}

func (db *DB) orderedMatches(ctx context.Context, refs, prints []string, before int64, key string) (bool, []OrderedMatch, error) {
	var found []struct {
		OrderedMatch
		Keyed bool `db:"keyed"`
	}
	if len(refs) == 0 && len(prints) == 0 && key == "" {
		return false, nil, nil
	}
	var keyArg any // NULL: no key asked for
	if key != "" {
		keyArg = key
	}
	err := sqlxSelect(ctx, db, &found, `SELECT reference, fingerprint, shipment_id, batch_id, line, row_id, keyed FROM (
SELECT reference, '' AS fingerprint, id AS shipment_id, 0::bigint AS batch_id, 0 AS line, 0::bigint AS row_id,
    COALESCE(request_key = $4::uuid, false) AS keyed, CASE WHEN request_key = $4::uuid THEN 0 ELSE 1 END AS k, id AS o
FROM shipments WHERE (reference = ANY($1) AND state <> 'missing') OR request_key = $4::uuid
UNION ALL
SELECT reference, fingerprint, shipment_id, batch_id, line, id, false, 2, id FROM batch_rows
WHERE (reference <> '' AND reference = ANY($1) OR fingerprint <> '' AND fingerprint = ANY($2))
    AND state IN ('ordering', 'ordered') AND id <> $3 AND (state = 'ordered' OR id < $3)
) AS m ORDER BY k, o`, pqArray(refs), pqArray(prints), before, keyArg)
	if err != nil {
		return false, nil, wrapf(err, "match ordered rows")
	}
	out := make([]OrderedMatch, 0, len(found))
	for _, m := range found {
		if m.Keyed {
			return true, nil, nil
		}
		out = append(out, m.OrderedMatch)
	}
	return false, out, nil
}

// RowKnownAt records that a row being ordered turned out to be ordered
// already (its reference is taken): it becomes known, with what it is.
func (db *DB) RowKnownAt(ctx context.Context, id int64, m OrderedMatch) error {
	var batch *int64
	if m.BatchID != 0 {
		batch = &m.BatchID
	}
	_, err := db.x.ExecContext(ctx, `UPDATE batch_rows SET state = 'known', known_shipment = $2, known_batch = $3, known_line = $4,
    error = '', leased_at = NULL, updated_at = now()
WHERE id = $1 AND state = 'ordering'`, id, m.ShipmentID, batch, m.Line)
	return wrapf(err, "record row %d as ordered before", id)
}

// ReferenceUsed says whether a reference is taken: a shipment that exists or
// may exist carries it, or a batch row that is not itself known as ordered
// before (those carry the reference of what they are).
func (db *DB) ReferenceUsed(ctx context.Context, reference string) (bool, error) {
	var used bool
	err := sqlxGet(ctx, db, &used, `SELECT EXISTS (SELECT FROM shipments WHERE reference = $1 AND state <> 'missing')
    OR EXISTS (SELECT FROM batch_rows WHERE reference = $1 AND state <> 'known')`, reference)
	return used, wrapf(err, "is reference %s used", reference)
}
