package storage

import (
	"context"
	"slices"
	"time"

	"shipdesk/apperr"
)

// States of a batch row (see the batch_rows table).
const (
	RowProblem  = "problem"
	RowReady    = "ready"
	RowPricing  = "pricing"
	RowPriced   = "priced"
	RowOrdering = "ordering"
	RowOrdered  = "ordered"
	RowFailed   = "failed"
	// RowKnown: ordered already (a shipment, or another row that is being
	// ordered); never priced or ordered unless the clerk says it is a new parcel.
	RowKnown = "known"
)

// RowStates are the row states in the order a row goes through them.
var RowStates = []string{RowProblem, RowReady, RowPricing, RowPriced, RowOrdering, RowOrdered, RowFailed, RowKnown}

// Batch is one imported file of orders.
type Batch struct {
	ID        int64     `db:"id"`
	Source    string    `db:"source"`
	FileName  string    `db:"file_name"`
	SenderID  *int64    `db:"sender_id"`
	Handover  string    `db:"handover"`
	CreatedBy *int64    `db:"created_by"`
	CreatedAt time.Time `db:"created_at"`
	// ByName is the username of CreatedBy ("" when the account is gone).
	ByName string `db:"by_name"`
	// Counts are the rows by state (lists and the batch page).
	Counts map[string]int `db:"-"`
	Rows   int            `db:"-"`
}

// BatchRow is one order of a batch.
type BatchRow struct {
	ID         int64       `db:"id"`
	BatchID    int64       `db:"batch_id"`
	Line       int         `db:"line"`
	Raw        JSON        `db:"raw"`      // {field: text}
	Parsed     JSON        `db:"parsed"`   // orderfile.Order
	Problems   JSON        `db:"problems"` // [{field, text}]
	State      string      `db:"state"`
	RequestKey string      `db:"request_key"`
	Offers     JSON        `db:"offers"`
	Chosen     string      `db:"chosen"`
	ChosenBy   string      `db:"chosen_by"`
	Error      apperr.Text `db:"error"`
	LeasedAt   *time.Time  `db:"leased_at"`
	ShipmentID *int64      `db:"shipment_id"`
	// ShipmentState is the state of the row's shipment (ordering, created,
	// unknown, missing) when the row is read for a page; "" otherwise.
	ShipmentState string `db:"shipment_state"`
	// PointName is the name of the parcel point its code names, read with
	// the row for its page (rowReadColumns); '' otherwise.
	PointName string `db:"point_name"`
	// OfferCount is how many offers the row has, when its batch's page lists
	// it (EachBatchRow: Offers are then the chosen one alone); 0 otherwise.
	OfferCount int       `db:"offer_count"`
	DraftID    *int64    `db:"draft_id"`
	Drafting   bool      `db:"drafting"`
	UpdatedAt  time.Time `db:"updated_at"`
	// Reference and Fingerprint are what the row is recognised by when it is
	// ordered twice (the fingerprint only for a row without a reference).
	Reference   string `db:"reference"`
	Fingerprint string `db:"fingerprint"`
	// NewParcel: the clerk said the row is a new parcel, not the one it looks like.
	NewParcel bool `db:"new_parcel"`
	// What a known row was recognised as: a shipment, or a line of a batch.
	KnownShipment *int64 `db:"known_shipment"`
	KnownBatch    *int64 `db:"known_batch"`
	KnownLine     int    `db:"known_line"`
}

const batchColumns = `b.id, b.source, b.file_name, b.sender_id, b.handover, b.created_by, b.created_at, COALESCE(u.username, '') AS by_name`

// rowColumns are a row's columns. The readers that need only some of a
// row's offers put their own expression between rowColumnsHead and
// rowColumnsTail.
const rowColumns = rowColumnsHead + `offers` + rowColumnsTail

const (
	rowColumnsHead = `id, batch_id, line, raw, parsed, problems, state, request_key, `
	rowColumnsTail = ` AS offers, chosen, chosen_by, error,
leased_at, shipment_id, draft_id, drafting, updated_at, reference, fingerprint, new_parcel, known_shipment, known_batch, known_line`
)

// chosenOfferOnly reads a row's offers as its chosen one alone (none when
// nothing is chosen): what ordering a row and a closed row of its batch's
// page use of them. The offers are most of a row (a dozen, about 5 KB of
// JSON) and decoding them all to find one cost more than everything else a
// page does for the row.
const chosenOfferOnly = `jsonb_path_query_array(offers, '$[*] ? (@.choice == $c)', jsonb_build_object('c', chosen))`

// rowReadColumns are a row's columns with its shipment's state, for the
// readers of a batch page: an ordered row whose order's outcome is open says so.
const rowReadColumns = rowColumns + shipmentStateColumn + pointNameColumn

// pointNameColumn is the name of the parcel point a row's code names, a
// point of its chosen offer's carrier first: the page says a point by its
// name (” when the cache has no point of that code).
const pointNameColumn = `, COALESCE((SELECT p.name FROM parcel_points p WHERE p.code = batch_rows.parsed->>'point_code'
  ORDER BY upper(p.carrier) = upper(COALESCE(jsonb_path_query_first(batch_rows.offers, '$[*] ? (@.choice == $c).offer.Carrier',
    jsonb_build_object('c', batch_rows.chosen)) #>> '{}', '')) DESC, p.carrier LIMIT 1), '') AS point_name`

const shipmentStateColumn = `, COALESCE((SELECT s.state FROM shipments s WHERE s.id = batch_rows.shipment_id), '') AS shipment_state`

// CreateBatch records a batch and its rows in one transaction.
func (db *DB) CreateBatch(ctx context.Context, b Batch, rows []BatchRow) (Batch, error) {
	err := db.InTx(ctx, func(tx *DB) error {
		err := sqlxGet(ctx, tx, &b.ID, `INSERT INTO batches (source, file_name, sender_id, handover, created_by, created_at)
VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, b.Source, b.FileName, b.SenderID, b.Handover, b.CreatedBy, b.CreatedAt)
		if err != nil {
			return err
		}
		// The rows go a thousand to a statement: a file of 10,000 orders is
		// ten round trips, not 10,000.
		for chunk := range slices.Chunk(rows, 1000) {
			lines := make([]int64, len(chunk))
			knownLines := make([]int64, len(chunk))
			knownShipments := make([]int64, len(chunk))
			knownBatches := make([]int64, len(chunk))
			var raw, parsed, problems, states, keys, refs, prints []string
			for i, r := range chunk {
				lines[i], knownLines[i] = int64(r.Line), int64(r.KnownLine)
				if r.KnownShipment != nil {
					knownShipments[i] = *r.KnownShipment
				}
				if r.KnownBatch != nil {
					knownBatches[i] = *r.KnownBatch
				}
				raw, parsed, problems = append(raw, r.Raw.text()), append(parsed, r.Parsed.text()), append(problems, r.Problems.text())
				states, keys = append(states, r.State), append(keys, r.RequestKey)
				refs, prints = append(refs, r.Reference), append(prints, r.Fingerprint)
			}
			// A row known as a line of its own file (known_line without a
			// batch) names this batch.
			if _, err := tx.x.ExecContext(ctx, `INSERT INTO batch_rows (batch_id, line, raw, parsed, problems, state, request_key,
    reference, fingerprint, known_line, known_shipment, known_batch)
SELECT $1, l, r, p, pr, s, k, ref, fp, kl, NULLIF(ks, 0), CASE WHEN kb <> 0 THEN kb WHEN kl <> 0 THEN $1 END
FROM unnest($2::int[], $3::text[]::jsonb[], $4::text[]::jsonb[], $5::text[]::jsonb[], $6::text[], $7::text[],
    $8::text[], $9::text[], $10::int[], $11::bigint[], $12::bigint[]) AS u(l, r, p, pr, s, k, ref, fp, kl, ks, kb)`,
				b.ID, pqArray(lines), pqArray(raw), pqArray(parsed), pqArray(problems), pqArray(states), pqArray(keys),
				pqArray(refs), pqArray(prints), pqArray(knownLines), pqArray(knownShipments), pqArray(knownBatches)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return b, wrapf(err, "create batch")
	}
	return db.BatchByID(ctx, b.ID)
}

// BatchByID finds a batch with its counts.
func (db *DB) BatchByID(ctx context.Context, id int64) (Batch, error) {
	var b Batch
	err := sqlxGet(ctx, db, &b, `SELECT `+batchColumns+` FROM batches b LEFT JOIN users u ON u.id = b.created_by WHERE b.id = $1`, id)
	if err != nil {
		return b, wrapf(notFound(err, "batch.err.no_batch"), "batch %d", id)
	}
	counts, err := db.batchCounts(ctx, []int64{id})
	b.Counts = counts[id]
	for _, n := range b.Counts {
		b.Rows += n
	}
	return b, err
}

func (db *DB) batchCounts(ctx context.Context, ids []int64) (map[int64]map[string]int, error) {
	var list []struct {
		BatchID int64  `db:"batch_id"`
		State   string `db:"state"`
		N       int    `db:"n"`
	}
	err := sqlxSelect(ctx, db, &list, `SELECT batch_id, state, count(*) AS n FROM batch_rows WHERE batch_id = ANY($1) GROUP BY batch_id, state`,
		pqArray(ids))
	out := map[int64]map[string]int{}
	for _, c := range list {
		if out[c.BatchID] == nil {
			out[c.BatchID] = map[string]int{}
		}
		out[c.BatchID][c.State] = c.N
	}
	return out, wrapf(err, "count batch rows")
}

// Batches lists the latest batches, newest first, with their counts.
func (db *DB) Batches(ctx context.Context, limit int) ([]Batch, error) {
	var out []Batch
	err := sqlxSelect(ctx, db, &out, `SELECT `+batchColumns+` FROM batches b LEFT JOIN users u ON u.id = b.created_by
ORDER BY b.created_at DESC, b.id DESC LIMIT $1`, limit)
	if err != nil || len(out) == 0 {
		return out, wrapf(err, "list batches")
	}
	ids := make([]int64, len(out))
	for i, b := range out {
		ids[i] = b.ID
	}
	counts, err := db.batchCounts(ctx, ids)
	for i := range out {
		out[i].Counts = counts[out[i].ID]
		for _, n := range out[i].Counts {
			out[i].Rows += n
		}
	}
	return out, err
}

// BatchRows lists a batch's rows in the file's order.
func (db *DB) BatchRows(ctx context.Context, batch int64) ([]BatchRow, error) {
	var out []BatchRow
	err := sqlxSelect(ctx, db, &out, `SELECT `+rowReadColumns+` FROM batch_rows WHERE batch_id = $1 ORDER BY line, id`, batch)
	return out, wrapf(err, "rows of batch %d", batch)
}

// listedRowColumns are a row's columns as its batch's page lists it ($2: the
// open row).
const listedRowColumns = rowColumnsHead + `CASE WHEN id = $2 THEN offers ELSE ` + chosenOfferOnly + ` END` + rowColumnsTail +
	shipmentStateColumn + pointNameColumn + `, jsonb_array_length(offers) AS offer_count`

// EachBatchRow calls fn for each of a batch's rows in the file's order, as
// the batch's page lists them: every row's offers are its chosen one alone
// (OfferCount says how many it has) but the open row's, which are all of
// them. It streams them from the database, so a page of a large batch holds
// one row at a time. An error of fn ends the reading and is returned.
func (db *DB) EachBatchRow(ctx context.Context, batch, open int64, fn func(BatchRow) error) error {
	rows, err := db.x.QueryxContext(ctx, `SELECT `+listedRowColumns+` FROM batch_rows WHERE batch_id = $1 ORDER BY line, id`, batch, open)
	if err != nil {
		return wrapf(err, "rows of batch %d", batch)
	}
	defer rows.Close()
	for rows.Next() {
		var r BatchRow
		if err := rows.StructScan(&r); err != nil {
			return wrapf(err, "rows of batch %d", batch)
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	return wrapf(rows.Err(), "rows of batch %d", batch)
}

// Draftable counts a batch's rows that may still go as drafts: ready or
// priced, and not sent as one.
func (db *DB) Draftable(ctx context.Context, batch int64) (int, error) {
	var n int
	err := sqlxGet(ctx, db, &n, `SELECT count(*) FROM batch_rows WHERE batch_id = $1 AND state IN ('ready', 'priced') AND draft_id IS NULL`, batch)
	return n, wrapf(err, "draftable rows of batch %d", batch)
}

// BatchRow finds one row of a batch; a row of another batch is not found.
func (db *DB) BatchRow(ctx context.Context, batch, id int64) (BatchRow, error) {
	var r BatchRow
	err := sqlxGet(ctx, db, &r, `SELECT `+rowReadColumns+` FROM batch_rows WHERE batch_id = $1 AND id = $2`, batch, id)
	return r, wrapf(notFound(err, "batch.err.no_row"), "row %d of batch %d", id, batch)
}

// UpdateRowCells stores a row's edited cells and its new check, when the row
// is still in one of the states from; it says whether it was.
func (db *DB) UpdateRowCells(ctx context.Context, r BatchRow, from []string) (bool, error) {
	res, err := db.x.ExecContext(ctx, `UPDATE batch_rows SET raw = $3, parsed = $4, problems = $5, state = $6, offers = '[]',
    chosen = '', chosen_by = '', error = '', leased_at = NULL, updated_at = now(),
    reference = $8, fingerprint = $9, new_parcel = $10, known_shipment = $11, known_batch = $12, known_line = $13
WHERE batch_id = $1 AND id = $2 AND state = ANY($7)`, r.BatchID, r.ID, r.Raw, r.Parsed, r.Problems, r.State, pqArray(from),
		r.Reference, r.Fingerprint, r.NewParcel, r.KnownShipment, r.KnownBatch, r.KnownLine)
	if err != nil {
		return false, wrapf(err, "update row %d", r.ID)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// QueueRows moves a batch's rows in state from to state to, queued for a
// worker, and says how many it moved (it reads none of them back: a batch
// may be large). Two clerks pressing the same button move each row once:
// the update is the lease.
func (db *DB) QueueRows(ctx context.Context, batch int64, from, to string) (int, error) {
	res, err := db.x.ExecContext(ctx, `UPDATE batch_rows SET state = $3, leased_at = NULL, error = '', updated_at = now()
WHERE batch_id = $1 AND state = $2 AND NOT drafting AND draft_id IS NULL`, batch, from, to)
	if err != nil {
		return 0, wrapf(err, "queue rows of batch %d", batch)
	}
	n, err := res.RowsAffected()
	return int(n), wrapf(err, "queue rows of batch %d", batch)
}

// QueueRow moves one row from a state to another (a row ordered again).
func (db *DB) QueueRow(ctx context.Context, batch, id int64, from, to string) (bool, error) {
	res, err := db.x.ExecContext(ctx, `UPDATE batch_rows SET state = $4, leased_at = NULL, error = '', updated_at = now()
WHERE batch_id = $1 AND id = $2 AND state = $3 AND draft_id IS NULL`, batch, id, from, to)
	if err != nil {
		return false, wrapf(err, "queue row %d", id)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// leasedRowColumns are a leased row's columns: a row to order needs only
// its chosen offer; a row to price gets new offers.
const leasedRowColumns = rowColumnsHead + `CASE WHEN state = 'ordering' THEN ` + chosenOfferOnly + ` ELSE offers END` + rowColumnsTail

// LeaseRows takes up to limit rows of a batch waiting for a worker (queued,
// or leased before stale by a worker that has gone), rows to price before
// rows to order ('pricing' sorts after 'ordering'), each in the file's
// order (and returned so), skipping rows another worker holds.
// batch_rows_waiting_idx holds them in that order: a lease reads the rows
// it takes, not every row waiting.
func (db *DB) LeaseRows(ctx context.Context, batch int64, now, stale time.Time, limit int) ([]BatchRow, error) {
	var out []BatchRow
	err := sqlxSelect(ctx, db, &out, `WITH leased AS (UPDATE batch_rows SET leased_at = $2, updated_at = now() WHERE id IN (
    SELECT id FROM batch_rows WHERE batch_id = $1 AND state IN ('pricing', 'ordering') AND (leased_at IS NULL OR leased_at < $3)
    ORDER BY state DESC, line, id LIMIT $4 FOR UPDATE SKIP LOCKED)
RETURNING `+leasedRowColumns+`)
SELECT * FROM leased ORDER BY state DESC, line, id`, batch, now, stale, limit)
	return out, wrapf(err, "lease rows of batch %d", batch)
}

// unleasedRows are the rows of batch $1 in a worker's state that no live
// worker holds: leased before $2, or never.
const unleasedRows = `batch_id = $1 AND state IN ('pricing', 'ordering') AND (leased_at IS NULL OR leased_at < $2)`

// BatchesWaiting are the batches with rows in a worker's state that no live
// worker holds (leased before stale, or never).
func (db *DB) BatchesWaiting(ctx context.Context, stale time.Time) ([]int64, error) {
	var ids []int64
	err := sqlxSelect(ctx, db, &ids, `SELECT DISTINCT batch_id FROM batch_rows WHERE state IN ('pricing', 'ordering')
    AND (leased_at IS NULL OR leased_at < $1) ORDER BY batch_id`, stale)
	return ids, wrapf(err, "batches waiting for a worker")
}

// ChooseRowOffer records the clerk's choice of another offer of a priced row.
func (db *DB) ChooseRowOffer(ctx context.Context, batch, id int64, choice string) (bool, error) {
	res, err := db.x.ExecContext(ctx, `UPDATE batch_rows SET chosen = $3, chosen_by = 'clerk', updated_at = now()
WHERE batch_id = $1 AND id = $2 AND state = 'priced'`, batch, id, choice)
	if err != nil {
		return false, wrapf(err, "choose offer of row %d", id)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// TakeDrafts takes a batch's rows that may go as drafts (ready or priced,
// neither ordered nor sent as a draft) for one sender of drafts.
func (db *DB) TakeDrafts(ctx context.Context, batch int64) ([]BatchRow, error) {
	var out []BatchRow
	err := sqlxSelect(ctx, db, &out, `UPDATE batch_rows SET drafting = true, updated_at = now()
WHERE batch_id = $1 AND state IN ('ready', 'priced') AND draft_id IS NULL AND NOT drafting RETURNING `+rowColumns, batch)
	return out, wrapf(err, "lease drafts of batch %d", batch)
}

// RowDrafted records the draft a row went as (nil: it did not; why says so).
func (db *DB) RowDrafted(ctx context.Context, id int64, draft *int64, why apperr.Text) error {
	_, err := db.x.ExecContext(ctx, `UPDATE batch_rows SET drafting = false, draft_id = $2, error = $3, updated_at = now() WHERE id = $1`,
		id, draft, why)
	return wrapf(err, "record draft of row %d", id)
}

// BatchShipmentIDs are the shipments ordered from a batch, in the file's order.
func (db *DB) BatchShipmentIDs(ctx context.Context, batch int64) ([]int64, error) {
	var out []int64
	err := sqlxSelect(ctx, db, &out, `SELECT shipment_id FROM batch_rows WHERE batch_id = $1 AND shipment_id IS NOT NULL ORDER BY line, id`, batch)
	return out, wrapf(err, "shipments of batch %d", batch)
}

// SaveMapping keeps a source's column mapping (JSON) under its name.
func (db *DB) SaveMapping(ctx context.Context, source string, mapping JSON) error {
	_, err := db.x.ExecContext(ctx, `INSERT INTO batch_mappings (source, mapping) VALUES ($1, $2)
ON CONFLICT (source) DO UPDATE SET mapping = EXCLUDED.mapping, updated_at = now()`, source, mapping)
	return wrapf(err, "save mapping of %s", source)
}

// StoredMapping is a source's kept mapping.
type StoredMapping struct {
	Source  string `db:"source"`
	Mapping JSON   `db:"mapping"`
}

// Mappings lists the kept mappings, the latest used first.
func (db *DB) Mappings(ctx context.Context) ([]StoredMapping, error) {
	var out []StoredMapping
	err := sqlxSelect(ctx, db, &out, `SELECT source, mapping FROM batch_mappings ORDER BY updated_at DESC, source LIMIT 100`)
	return out, wrapf(err, "list mappings")
}

// KeepUpload keeps an uploaded file while its columns are mapped.
func (db *DB) KeepUpload(ctx context.Context, name string, data []byte, by *int64) (int64, error) {
	var id int64
	err := sqlxGet(ctx, db, &id, `INSERT INTO batch_uploads (file_name, data, created_by) VALUES ($1, $2, $3) RETURNING id`, name, data, by)
	_, _ = db.x.ExecContext(ctx, `DELETE FROM batch_uploads WHERE created_at < now() - interval '1 day'`)
	return id, wrapf(err, "keep upload")
}

// Upload finds a kept upload of a person.
func (db *DB) Upload(ctx context.Context, id int64, by *int64) (name string, data []byte, err error) {
	var u struct {
		Name string `db:"file_name"`
		Data []byte `db:"data"`
	}
	err = sqlxGet(ctx, db, &u, `SELECT file_name, data FROM batch_uploads WHERE id = $1 AND created_by IS NOT DISTINCT FROM $2`, id, by)
	return u.Name, u.Data, wrapf(notFound(err, "batch.err.no_upload"), "upload %d", id)
}

// DropUpload forgets a kept upload.
func (db *DB) DropUpload(ctx context.Context, id int64) error {
	_, err := db.x.ExecContext(ctx, `DELETE FROM batch_uploads WHERE id = $1`, id)
	return wrapf(err, "drop upload %d", id)
}

// PointsByCode finds the points of any carrier with a code.
func (db *DB) PointsByCode(ctx context.Context, code string) ([]ParcelPoint, error) {
	var out []ParcelPoint
	err := sqlxSelect(ctx, db, &out, `SELECT id, carrier, code, name, street, city, zip, country, is_locker, location_id,
    max_length, max_width, max_height, max_weight FROM parcel_points WHERE code = $1 ORDER BY carrier LIMIT 5`, code)
	return out, wrapf(err, "points with code %s", code)
}
