package storage

import (
	"context"
	"errors"
	"time"
)

// ShipmentNote is an internal note on a shipment: the staff's own, never
// sent to the service.
type ShipmentNote struct {
	ID         int64     `db:"id"`
	RequestKey string    `db:"request_key"`
	ShipmentID int64     `db:"shipment_id"`
	Text       string    `db:"text"`
	Author     string    `db:"author"` // the author's user name; "" when the account is gone
	CreatedAt  time.Time `db:"created_at"`
}

// AddShipmentNote keeps a note and, in the same statement, the shipment's
// count of notes, its latest note and the text the list's search reads. The
// same request key again keeps nothing and returns the first note (fresh
// false). A shipment that does not exist is NotFound.
func (db *DB) AddShipmentNote(ctx context.Context, n ShipmentNote, by int64) (out ShipmentNote, fresh bool, err error) {
	const q = `
WITH note AS (
    INSERT INTO shipment_notes (request_key, shipment_id, text, created_by, created_at)
    SELECT $1, id, $3, $4, $5 FROM shipments WHERE id = $2
    ON CONFLICT (request_key) DO NOTHING
    RETURNING id, request_key, shipment_id, text, created_by, created_at
), shown AS (
    UPDATE shipments s SET note_count = s.note_count + 1, last_note = note.text,
        notes_search = CASE WHEN s.notes_search = '' THEN note.text ELSE s.notes_search || ' ' || note.text END
    FROM note WHERE s.id = note.shipment_id
)
SELECT note.id, note.request_key, note.shipment_id, note.text, coalesce(u.username, '') AS author, note.created_at
FROM note LEFT JOIN users u ON u.id = note.created_by`
	err = sqlxGet(ctx, db, &out, q, n.RequestKey, n.ShipmentID, n.Text, UserRef(by), n.CreatedAt)
	if !errors.Is(err, errNoRows) {
		return out, err == nil, wrapf(err, "note on shipment %d", n.ShipmentID)
	}
	err = sqlxGet(ctx, db, &out, `SELECT `+noteColumns+` FROM shipment_notes n LEFT JOIN users u ON u.id = n.created_by
WHERE n.request_key = $1`, n.RequestKey)
	if errors.Is(err, errNoRows) {
		if _, err := db.ShipmentByID(ctx, n.ShipmentID); err != nil {
			return out, false, err
		}
	}
	return out, false, wrapf(err, "note by key")
}

const noteColumns = `n.id, n.request_key, n.shipment_id, n.text, coalesce(u.username, '') AS author, n.created_at`

// ShipmentNotes are a shipment's notes, newest first.
func (db *DB) ShipmentNotes(ctx context.Context, shipmentID int64) ([]ShipmentNote, error) {
	var out []ShipmentNote
	err := sqlxSelect(ctx, db, &out, `SELECT `+noteColumns+` FROM shipment_notes n LEFT JOIN users u ON u.id = n.created_by
WHERE n.shipment_id = $1 ORDER BY n.id DESC`, shipmentID)
	return out, wrapf(err, "notes of shipment %d", shipmentID)
}
