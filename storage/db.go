// Package storage is the PostgreSQL side of shipdesk: the connection pool, the
// embedded migrations, and one file of queries per table. SQL lives only here.
package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"

	"shipdesk/apperr"
)

// DB runs queries on the pool or, inside InTx, on one transaction: the same methods
// serve both.
type DB struct {
	x    sqlx.ExtContext
	pool *sqlx.DB
}

// Open connects to PostgreSQL and checks the connection.
//
// Queries send their parameters with the statement in one round trip
// (lib/pq's binary_parameters): without it every query with parameters waits
// for the server to describe the statement before binding it. The one thing
// it changes is that []byte parameters go as binary data, so the JSON this
// package stores goes as text (JSON.Value).
func Open(ctx context.Context, url string) (*DB, error) { return open(ctx, url, true) }

// open is Open, with the round trip per statement chosen (its benchmark
// measures the two ways side by side).
func open(ctx context.Context, url string, oneRoundTrip bool) (*DB, error) {
	cfg, err := pq.NewConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	cfg.BinaryParameters = oneRoundTrip
	connector, err := pq.NewConnectorConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("open database: %w", err)
	}
	pool := sqlx.NewDb(sql.OpenDB(connector), "postgres")
	pool.SetMaxOpenConns(20)
	pool.SetMaxIdleConns(10)
	pool.SetConnMaxIdleTime(5 * time.Minute)
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.PingContext(pingCtx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to database: %w", err)
	}
	return &DB{x: pool, pool: pool}, nil
}

// Close closes the pool.
func (db *DB) Close() error { return db.pool.Close() }

// Ping checks that the database answers (for /readyz).
func (db *DB) Ping(ctx context.Context) error { return db.pool.PingContext(ctx) }

// SQL returns the underlying pool, for migrations and tests.
func (db *DB) SQL() *sql.DB { return db.pool.DB }

// InTx runs fn in a transaction, committing when fn returns nil.
func (db *DB) InTx(ctx context.Context, fn func(tx *DB) error) error {
	if _, nested := db.x.(*sqlx.Tx); nested {
		return fn(db)
	}
	tx, err := db.pool.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	defer tx.Rollback()
	if err := fn(&DB{x: tx, pool: db.pool}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit transaction: %w", err)
	}
	return nil
}

// notFound turns sql.ErrNoRows into an apperr NotFound with a message for a
// person (a key of the catalog and its arguments).
func notFound(err error, key string, args ...any) error {
	if errors.Is(err, sql.ErrNoRows) {
		e := apperr.New(apperr.NotFound, key, args...)
		e.Err = err
		return e
	}
	return err
}

// conflict turns a unique violation (23505) into an apperr Conflict.
func conflict(err error, key string, args ...any) error {
	var pqErr *pq.Error
	if errors.As(err, &pqErr) && pqErr.Code == "23505" {
		e := apperr.New(apperr.Conflict, key, args...)
		e.Err = err
		return e
	}
	return err
}

// wrapf adds context to err; nil stays nil.
func wrapf(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(args, err)...)
}

// affectedOne turns "no row changed" into a NotFound with a message for a person.
func affectedOne(res sql.Result, err error, key string, args ...any) error {
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.New(apperr.NotFound, key, args...)
	}
	return nil
}

// Exec runs a statement without results (for settings such as SET LOCAL in tests
// and benchmarks).
func (db *DB) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return db.x.ExecContext(ctx, query, args...)
}

// pqArray passes a Go slice as a PostgreSQL array.
func pqArray(v any) any { return pq.Array(v) }

// UserRef is the staff member behind a change as a nullable reference; 0 (the
// system itself, demo data) is none.
func UserRef(id int64) *int64 {
	if id == 0 {
		return nil
	}
	return &id
}
