package storage

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"
)

var errNoRows = sql.ErrNoRows

func sqlxGet(ctx context.Context, db *DB, dest any, query string, args ...any) error {
	err := sqlx.GetContext(ctx, db.x, dest, query, args...)
	db.markRead(query)
	return err
}

func sqlxSelect(ctx context.Context, db *DB, dest any, query string, args ...any) error {
	err := sqlx.SelectContext(ctx, db.x, dest, query, args...)
	db.markRead(query)
	return err
}

// markRead moves the write mark again once a writing query outside a
// transaction has been read to its end: its commit has happened by then.
func (db *DB) markRead(query string) {
	if _, ok := db.x.(markingPool); ok && mayWrite(query) {
		db.marks.wrote()
	}
}
