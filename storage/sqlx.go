package storage

import (
	"context"
	"database/sql"

	"github.com/jmoiron/sqlx"
)

var errNoRows = sql.ErrNoRows

func sqlxGet(ctx context.Context, db *DB, dest any, query string, args ...any) error {
	return sqlx.GetContext(ctx, db.x, dest, query, args...)
}

func sqlxSelect(ctx context.Context, db *DB, dest any, query string, args ...any) error {
	return sqlx.SelectContext(ctx, db.x, dest, query, args...)
}
