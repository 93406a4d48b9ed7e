// Package pgtest gives each test a fresh, migrated PostgreSQL database on the cluster
// named by TEST_DATABASE_URL (make test starts one). Tests fail, never skip, when it
// is missing: a suite that silently skips its storage tests proves nothing.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"io"
	"log/slog"
	"net/url"
	"os"
	"testing"
	"time"

	_ "github.com/lib/pq"

	"shipdesk/storage"
)

// URL returns a connection URL to a new, empty database, dropped when t ends.
func URL(t testing.TB) string {
	t.Helper()
	admin := os.Getenv("TEST_DATABASE_URL")
	if admin == "" {
		t.Fatal("TEST_DATABASE_URL is not set: run the tests with `make test`, which starts a private PostgreSQL")
	}
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("TEST_DATABASE_URL: %v", err)
	}
	buf := make([]byte, 6)
	_, _ = rand.Read(buf)
	name := "test_" + hex.EncodeToString(buf)

	adminDB, err := sql.Open("postgres", admin)
	if err != nil {
		t.Fatalf("open admin database: %v", err)
	}
	defer adminDB.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := adminDB.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		db, err := sql.Open("postgres", admin)
		if err != nil {
			return
		}
		defer db.Close()
		_, _ = db.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
	})
	u.Path = "/" + name
	return u.String()
}

// New returns a migrated database, closed and dropped when t ends.
func New(t testing.TB) *storage.DB {
	t.Helper()
	db := Empty(t)
	if err := db.MigrateUp(context.Background(), slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatalf("migrate test database: %v", err)
	}
	return db
}

// Empty returns an unmigrated database, closed and dropped when t ends.
func Empty(t testing.TB) *storage.DB {
	t.Helper()
	db, err := storage.Open(context.Background(), URL(t))
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
