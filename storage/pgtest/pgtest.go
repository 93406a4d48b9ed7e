// Package pgtest gives each test a fresh, migrated PostgreSQL database on the cluster
// named by TEST_DATABASE_URL (make test starts one). Tests fail, never skip, when it
// is missing: a suite that silently skips its storage tests proves nothing.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"testing"
	"time"

	_ "github.com/lib/pq"

	"shipdesk/storage"
)

// URL returns a connection URL to a new, empty database, dropped when t ends.
func URL(t testing.TB) string {
	t.Helper()
	return create(t, "")
}

// create makes a new database, a copy of template when one is named, and
// returns its URL; it is dropped when t ends.
func create(t testing.TB, template string) string {
	t.Helper()
	adminDB, admin := cluster(t)
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("TEST_DATABASE_URL: %v", err)
	}
	buf := make([]byte, 6)
	_, _ = rand.Read(buf)
	name := "test_" + hex.EncodeToString(buf)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	stmt := "CREATE DATABASE " + name
	// A file copy of the small template costs the cluster about half the
	// work of the default strategy, which writes every page to the WAL: with
	// a database per test, copying was a third of the suite's PostgreSQL time.
	if template != "" {
		stmt += " TEMPLATE " + template + " STRATEGY FILE_COPY"
	}
	if _, err := adminDB.ExecContext(ctx, stmt); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		_, _ = adminDB.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
	})
	u.Path = "/" + name
	return u.String()
}

// New returns a migrated database, closed and dropped when t ends.
func New(t testing.TB) *storage.DB {
	t.Helper()
	db, _ := NewWithURL(t)
	return db
}

// NewWithURL returns a migrated database and its URL, for tests that also
// start processes on it; it is closed and dropped when t ends.
func NewWithURL(t testing.TB) (*storage.DB, string) {
	t.Helper()
	url := create(t, migrated(t))
	return open(t, url), url
}

// Empty returns an unmigrated database, closed and dropped when t ends.
func Empty(t testing.TB) *storage.DB {
	t.Helper()
	return open(t, URL(t))
}

func open(t testing.TB, url string) *storage.DB {
	t.Helper()
	db, err := storage.Open(context.Background(), url)
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Stop makes db's database stop answering, as in an outage: its connections are
// ended and new ones refused. The database is still dropped when t ends.
func Stop(t testing.TB, db *storage.DB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var name string
	if err := db.SQL().QueryRowContext(ctx, `SELECT current_database()`).Scan(&name); err != nil {
		t.Fatalf("name of the test database: %v", err)
	}
	admin, _ := cluster(t)
	if _, err := admin.ExecContext(ctx, `ALTER DATABASE "`+name+`" ALLOW_CONNECTIONS false`); err != nil {
		t.Fatalf("refuse connections to %s: %v", name, err)
	}
	if _, err := admin.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, name); err != nil {
		t.Fatalf("end connections to %s: %v", name, err)
	}
}
