package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

// BatchLive is a batch as its page's live part reads it, in one statement
// (the page asks every few seconds while its rows are worked on or its
// labels made): the batch with its counts, whether queued rows wait for a
// worker, and its shipments with what the progress and the prints draw.
type BatchLive struct {
	Batch
	// Unleased: rows in a worker's state that no live worker holds, as
	// Unleased says.
	Unleased  bool
	Shipments []LiveShipment
}

// LiveShipment is a batch's shipment as the live part reads it. Of the
// shipment only its state, label and hand-over columns are read: id, state,
// status, returned, cancelled_at, label_mode, label_status, label_less,
// carrier and created_at, and of its request the first shipment's pickup
// day, sender (from) and the point it is handed in at (pickup_branch).
type LiveShipment struct {
	Shipment
	// CarrierName is the carrier table's name of the carrier ("" when the
	// table lacks it).
	CarrierName string
	// SenderContact and Sender: the sender whose contact the order names
	// (nil and empty when it names none that is kept).
	SenderContact *int64
	Sender        Address
}

// batchLiveQuery reads a batch, its counts and its shipments in the file's
// order; a batch without shipments comes as one row whose shipment id is 0.
// The carrier's name and the sender are joined to each shipment. The
// subqueries name the batch by $1, not b.id, so they are run once for the
// statement, not once for each of its rows.
const batchLiveQuery = `SELECT b.id, b.source, b.file_name, b.sender_id, b.handover, b.created_by, b.created_at, COALESCE(u.username, ''),
  COALESCE((SELECT json_object_agg(c.state, c.n) FROM (SELECT state, count(*) AS n FROM batch_rows WHERE batch_id = $1 GROUP BY state) c), '{}'),
  EXISTS (SELECT 1 FROM batch_rows WHERE ` + unleasedRows + `),
  COALESCE(s.id, 0), COALESCE(s.state, ''), COALESCE(s.status, ''), COALESCE(s.returned, false), s.cancelled_at,
  COALESCE(s.label_mode, ''), COALESCE(s.label_status, ''), COALESCE(s.label_less, false), COALESCE(s.carrier, ''),
  COALESCE(s.created_at, b.created_at), COALESCE(s.request, '{}'), COALESCE(s.carrier_name, ''), s.contact_id,
  COALESCE(s.company, ''), COALESCE(s.firstname, ''), COALESCE(s.surname, ''), COALESCE(s.street, ''), COALESCE(s.city, ''),
  COALESCE(s.zip, ''), COALESCE(s.country, ''), COALESCE(s.phone, ''), COALESCE(s.email, '')
FROM batches b LEFT JOIN users u ON u.id = b.created_by
LEFT JOIN LATERAL (
  SELECT r.line, r.id AS row_id, sh.id, sh.state, sh.status, sh.returned, sh.cancelled_at, sh.label_mode, sh.label_status,
    sh.label_less, sh.carrier, sh.created_at,
    jsonb_build_object('shipments', jsonb_build_array(jsonb_strip_nulls(jsonb_build_object(
      'from', sh.request->'shipments'->0->'from', 'pickup_date', sh.request->'shipments'->0->'pickup_date',
      'pickup_branch', sh.request->'shipments'->0->'pickup_branch')))) AS request,
    ca.name AS carrier_name, se.contact_id, se.company, se.firstname, se.surname, se.street, se.city, se.zip, se.country, se.phone, se.email
  FROM batch_rows r JOIN shipments sh ON sh.id = r.shipment_id
  LEFT JOIN carriers ca ON ca.code = sh.carrier
  LEFT JOIN senders se ON se.contact_id::text = sh.request->'shipments'->0->'from'->>'id'
  WHERE r.batch_id = $1 AND r.shipment_id IS NOT NULL
) s ON true
WHERE b.id = $1
ORDER BY s.line, s.row_id`

// BatchLive reads a batch for its page's live part; stale is when a
// worker's lease is taken to be left (see Unleased).
func (db *DB) BatchLive(ctx context.Context, id int64, stale time.Time) (BatchLive, error) {
	var out BatchLive
	rows, err := db.x.QueryContext(ctx, batchLiveQuery, id, stale)
	if err != nil {
		return out, wrapf(err, "live batch %d", id)
	}
	defer rows.Close()
	found := false
	for rows.Next() {
		var counts []byte
		var s LiveShipment
		b := &out.Batch
		a := &s.Sender
		if err := rows.Scan(&b.ID, &b.Source, &b.FileName, &b.SenderID, &b.Handover, &b.CreatedBy, &b.CreatedAt, &b.ByName,
			&counts, &out.Unleased,
			&s.ID, &s.State, &s.Status, &s.Returned, &s.CancelledAt, &s.LabelMode, &s.LabelStatus, &s.LabelLess, &s.Carrier,
			&s.CreatedAt, &s.Request, &s.CarrierName, &s.SenderContact,
			&a.Company, &a.Firstname, &a.Surname, &a.Street, &a.City, &a.Zip, &a.Country, &a.Phone, &a.Email); err != nil {
			return out, wrapf(err, "live batch %d", id)
		}
		if !found {
			found = true
			if err := json.Unmarshal(counts, &out.Counts); err != nil {
				return out, wrapf(err, "live batch %d: counts", id)
			}
			for _, n := range out.Counts {
				out.Rows += n
			}
		}
		if s.ID != 0 {
			out.Shipments = append(out.Shipments, s)
		}
	}
	if err := rows.Err(); err != nil {
		return out, wrapf(err, "live batch %d", id)
	}
	if !found {
		return out, wrapf(notFound(sql.ErrNoRows, "batch.err.no_batch"), "batch %d", id)
	}
	return out, nil
}
