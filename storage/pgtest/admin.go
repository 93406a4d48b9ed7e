package pgtest

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"os"
	"sync"
	"testing"
	"time"
)

// adminPool is the connection pool to the cluster's own database, shared by
// the tests of one process for creating, copying and dropping their
// databases. A PostgreSQL connection is a server process of its own: its
// start and end cost the server about 40 ms of CPU on a two-core CI machine,
// and each test used to open four of them (the template's lookup, its lock,
// the copy, the drop): half of all the connections of a run.
var adminPool = sync.OnceValues(func() (*sql.DB, error) {
	url := os.Getenv("TEST_DATABASE_URL")
	if url == "" {
		return nil, errors.New("TEST_DATABASE_URL is not set: run the tests with `make test`, which starts a private PostgreSQL")
	}
	db, err := sql.Open("postgres", url)
	if err != nil {
		return nil, err
	}
	db.SetMaxIdleConns(4) // a package runs four tests at a time
	return db, nil
})

// cluster returns the shared pool and the cluster's URL; it fails t when no
// cluster is named.
func cluster(t testing.TB) (*sql.DB, string) {
	t.Helper()
	db, err := adminPool()
	if err != nil {
		t.Fatal(err)
	}
	return db, os.Getenv("TEST_DATABASE_URL")
}

// lockedSession takes a session of the admin pool that holds the advisory
// lock named lock until done is called, with a context for the work done
// under the lock and the cluster's URL.
func lockedSession(t testing.TB, lock string) (ctx context.Context, conn *sql.Conn, url string, done func()) {
	t.Helper()
	pool, url := cluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	conn, err := pool.Conn(ctx) // the lock belongs to one session
	if err == nil {
		if _, err = conn.ExecContext(ctx, `SELECT pg_advisory_lock(hashtext($1))`, lock); err != nil {
			conn.Close()
		}
	}
	if err != nil {
		cancel()
		t.Fatalf("lock %q: %v", lock, err)
	}
	return ctx, conn, url, func() {
		defer cancel()
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_unlock(hashtext($1))`, lock); err != nil {
			// The session may still hold the lock: end it rather than
			// return it to the pool, so the lock ends with it.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		conn.Close()
	}
}

// findOrMake returns what find finds on the cluster. When it finds nothing,
// it takes the advisory lock named lock, looks again (another process may
// have made it while this one waited) and otherwise makes it with build under
// the lock. What find finds needs no lock: templates are made under the
// lock and published by a rename, so they are whole once they can be found.
func findOrMake(t testing.TB, lock string, find func(context.Context, querier) (string, error),
	build func(ctx context.Context, conn *sql.Conn, admin string) (string, error)) string {
	t.Helper()
	pool, _ := cluster(t)
	name, err := find(context.Background(), pool)
	if err == nil && name == "" {
		ctx, conn, admin, done := lockedSession(t, lock)
		defer done()
		if name, err = find(ctx, conn); err == nil && name == "" {
			name, err = build(ctx, conn, admin)
		}
	}
	if err != nil {
		t.Fatalf("test template (%s): %v", lock, err)
	}
	return name
}

// querier is the admin pool or one of its sessions.
type querier interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	QueryRowContext(context.Context, string, ...any) *sql.Row
}

// databaseExists says whether the cluster holds a database named name.
func databaseExists(ctx context.Context, q querier, name string) (bool, error) {
	var exists bool
	err := q.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists)
	return exists, err
}
