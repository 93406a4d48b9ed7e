package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// LinkAsk is a customer's ask for a claim link as it was answered: what they
// typed (the reference read, the e-mail lowered or the phone's last nine
// digits) and the language they read. It is looked up after the answer.
type LinkAsk struct {
	ID        int64     `db:"id"`
	Reference string    `db:"reference"`
	Email     string    `db:"email"`
	Phone     string    `db:"phone"`
	Language  string    `db:"language"`
	AskedAt   time.Time `db:"asked_at"`
}

const linkAskColumns = `id, reference, email, phone, language, asked_at`

// RecordLinkAsk keeps an ask until it is looked up.
func (db *DB) RecordLinkAsk(ctx context.Context, a LinkAsk) error {
	_, err := db.x.ExecContext(ctx, `INSERT INTO claim_link_asks (reference, email, phone, language, asked_at) VALUES ($1, $2, $3, $4, $5)`,
		a.Reference, a.Email, a.Phone, a.Language, a.AskedAt)
	return wrapf(err, "keep link ask")
}

// TakeLinkAsk takes the oldest ask after id that no other transaction holds
// and deletes it in this one (it must run inside InTx): the ask is gone
// exactly when what its transaction records is kept, and stays for the next
// round when it rolls back. found is false when none is left.
func (db *DB) TakeLinkAsk(ctx context.Context, after int64) (a LinkAsk, found bool, err error) {
	if _, inTx := db.x.(*sqlx.Tx); !inTx {
		return a, false, errors.New("take link ask: not in a transaction")
	}
	err = sqlxGet(ctx, db, &a, `DELETE FROM claim_link_asks WHERE id = (SELECT id FROM claim_link_asks WHERE id > $1
ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING `+linkAskColumns, after)
	if errors.Is(err, sql.ErrNoRows) {
		return a, false, nil
	}
	if err != nil {
		return a, false, fmt.Errorf("take link ask: %w", err)
	}
	return a, true, nil
}

// PruneLinkAsks forgets asks made before t that could not be answered: a
// link asked for so long ago would be of no use, and the ask is a stranger's
// typing, kept no longer than it serves.
func (db *DB) PruneLinkAsks(ctx context.Context, t time.Time) error {
	_, err := db.x.ExecContext(ctx, `DELETE FROM claim_link_asks WHERE asked_at < $1`, t)
	return wrapf(err, "prune link asks")
}
