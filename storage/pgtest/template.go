package pgtest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"testing"
	"time"

	"shipdesk/migrations"
	"shipdesk/storage"
)

// migrated names a database on the cluster that holds the schema of this
// tree's migrations, made once and copied for every test: migrating a fresh
// database costs about a second, a copy a tenth of that. Its name carries a
// hash of the migration files, so a changed migration makes a new template
// and an old one is never used; test processes that run side by side make it
// under one advisory lock, and it is published by a rename, so no test ever
// copies a half-migrated schema.
func migrated(t testing.TB) string {
	t.Helper()
	name := "tmpl_" + migrationsHash(t)
	admin := os.Getenv("TEST_DATABASE_URL")
	if admin == "" {
		t.Fatal("TEST_DATABASE_URL is not set: run the tests with `make test`, which starts a private PostgreSQL")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	adminDB, err := sql.Open("postgres", admin)
	if err != nil {
		t.Fatalf("open admin database: %v", err)
	}
	defer adminDB.Close()
	conn, err := adminDB.Conn(ctx) // the lock belongs to one session
	if err != nil {
		t.Fatalf("admin connection: %v", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock(hashtext('shipdesk test template'))`); err != nil {
		t.Fatalf("lock the test template: %v", err)
	}
	defer conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock(hashtext('shipdesk test template'))`) //nolint:errcheck // the session ends right after
	var exists bool
	if err := conn.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name).Scan(&exists); err != nil {
		t.Fatalf("look for the test template: %v", err)
	}
	if exists {
		return name
	}
	building := name + "_building"
	if _, err := conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+building+` WITH (FORCE)`); err != nil {
		t.Fatalf("drop an unfinished test template: %v", err)
	}
	if _, err := conn.ExecContext(ctx, `CREATE DATABASE `+building); err != nil {
		t.Fatalf("create the test template: %v", err)
	}
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("TEST_DATABASE_URL: %v", err)
	}
	u.Path = "/" + building
	db, err := storage.Open(ctx, u.String())
	if err != nil {
		t.Fatalf("open the test template: %v", err)
	}
	err = db.MigrateUp(ctx, slog.New(slog.NewTextHandler(io.Discard, nil)))
	db.Close() // a template is copied only while nobody is connected to it
	if err != nil {
		t.Fatalf("migrate the test template: %v", err)
	}
	if _, err := conn.ExecContext(ctx, `ALTER DATABASE `+building+` RENAME TO `+name); err != nil {
		t.Fatalf("publish the test template: %v", err)
	}
	return name
}

// migrationsHash is a short hash of every migration file's name and text.
func migrationsHash(t testing.TB) string {
	t.Helper()
	h := sha256.New()
	err := fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migrations.FS, path)
		if err != nil {
			return err
		}
		h.Write([]byte(path))
		h.Write([]byte{0})
		h.Write(b)
		return nil
	})
	if err != nil {
		t.Fatalf("read the migrations: %v", err)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
