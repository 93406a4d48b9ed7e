package pgtest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/url"
	"testing"

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
	return findOrMake(t, "shipdesk test template",
		func(ctx context.Context, q querier) (string, error) {
			if exists, err := databaseExists(ctx, q, name); err != nil || !exists {
				return "", err
			}
			return name, nil
		},
		func(ctx context.Context, conn *sql.Conn, admin string) (string, error) {
			return name, publish(ctx, conn, admin, name, "", func(ctx context.Context, url string) error {
				db, err := storage.Open(ctx, url)
				if err != nil {
					return err
				}
				defer db.Close() // a template is copied only while nobody is connected to it
				return db.MigrateUp(ctx, slog.New(slog.NewTextHandler(io.Discard, nil)))
			})
		})
}

// publish makes the database name on the cluster that admin names: a copy
// of from (an empty database when from is ""), filled by fill, then renamed
// to name, so that nobody ever copies it half made. fill must close every
// connection it opened, since a database in use can be neither renamed nor
// copied. The caller holds the advisory lock that guards name.
func publish(ctx context.Context, conn *sql.Conn, admin, name, from string, fill func(ctx context.Context, url string) error) error {
	building := name + "_building"
	if _, err := conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+building+` WITH (FORCE)`); err != nil {
		return fmt.Errorf("drop an unfinished %s: %w", building, err)
	}
	create := `CREATE DATABASE ` + building
	if from != "" {
		create += ` TEMPLATE ` + from + ` STRATEGY FILE_COPY`
	}
	if _, err := conn.ExecContext(ctx, create); err != nil {
		return fmt.Errorf("create %s: %w", building, err)
	}
	u, err := url.Parse(admin)
	if err != nil {
		return fmt.Errorf("TEST_DATABASE_URL: %w", err)
	}
	u.Path = "/" + building
	if err := fill(ctx, u.String()); err != nil {
		return fmt.Errorf("fill %s: %w", building, err)
	}
	if _, err := conn.ExecContext(ctx, `ALTER DATABASE `+building+` RENAME TO `+name); err != nil {
		return fmt.Errorf("publish %s: %w", name, err)
	}
	return nil
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
