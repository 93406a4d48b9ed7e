package storage

import (
	"context"
	"fmt"
)

// SaveReturnSender sets the sender a customer's return parcel goes to; nil
// is the default sender. A sender that is not in the address book (any
// more) is a NotFound, and nothing changes.
func (db *DB) SaveReturnSender(ctx context.Context, id *int64) error {
	const q = `UPDATE shipping_settings SET return_sender_id = $1, updated_at = now()
WHERE id = 1 AND ($1::bigint IS NULL OR EXISTS (SELECT 1 FROM senders WHERE id = $1))`
	res, err := db.x.ExecContext(ctx, q, id)
	var shown int64 // the settings' row is always there: only a sender can be missing
	if id != nil {
		shown = *id
	}
	return wrapf(affectedOne(res, err, "rec.no_sender", shown), "save the return address")
}

// ReturnSender is the sender a customer's return parcel goes to: the one
// chosen in the settings, else the default sender (the first of Senders).
// An address book without senders is a NotFound.
func (db *DB) ReturnSender(ctx context.Context) (Sender, error) {
	const q = `SELECT ` + senderColumns + ` FROM senders
ORDER BY id IS NOT DISTINCT FROM (SELECT return_sender_id FROM shipping_settings WHERE id = 1) DESC, is_default DESC, label, id
LIMIT 1`
	var s Sender
	if err := sqlxGet(ctx, db, &s, q); err != nil {
		return Sender{}, fmt.Errorf("return address: %w", notFound(err, "retparcel.err.no_return_address"))
	}
	return s, nil
}
