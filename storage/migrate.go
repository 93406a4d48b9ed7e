package storage

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"shipdesk/migrations"
)

// MigrationState is one migration and whether it is applied.
type MigrationState struct {
	Version int64
	Source  string
	Applied bool
}

// migrator builds a goose provider with PostgreSQL's session locker, so that several
// instances starting at once apply each migration exactly once.
func (db *DB) migrator() (*goose.Provider, error) {
	// Retry every second for up to five minutes: instances starting together wait
	// for the first to finish instead of failing.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300))
	if err != nil {
		return nil, fmt.Errorf("migration locker: %w", err)
	}
	p, err := goose.NewProvider(goose.DialectPostgres, db.pool.DB, migrations.FS,
		goose.WithSessionLocker(locker),
		goose.WithLogger(goose.NopLogger()),
	)
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	return p, nil
}

// MigrateUp applies every pending migration and logs each one.
func (db *DB) MigrateUp(ctx context.Context, log *slog.Logger) error {
	p, err := db.migrator()
	if err != nil {
		return err
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	for _, r := range results {
		log.Info("migration applied", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
	}
	return nil
}

// MigrateDown rolls back the newest applied migration.
func (db *DB) MigrateDown(ctx context.Context, log *slog.Logger) error {
	p, err := db.migrator()
	if err != nil {
		return err
	}
	r, err := p.Down(ctx)
	if err != nil {
		return fmt.Errorf("roll back migration: %w", err)
	}
	log.Info("migration rolled back", "version", r.Source.Version, "file", r.Source.Path)
	return nil
}

// MigrateDownTo rolls back every migration after version (tests of a
// migration start from the schema before it).
func (db *DB) MigrateDownTo(ctx context.Context, version int64, log *slog.Logger) error {
	p, err := db.migrator()
	if err != nil {
		return err
	}
	results, err := p.DownTo(ctx, version)
	if err != nil {
		return fmt.Errorf("roll back migrations to %d: %w", version, err)
	}
	for _, r := range results {
		log.Info("migration rolled back", "version", r.Source.Version, "file", r.Source.Path)
	}
	return nil
}

// MigrationStatus lists every migration and whether it is applied.
func (db *DB) MigrationStatus(ctx context.Context) ([]MigrationState, error) {
	p, err := db.migrator()
	if err != nil {
		return nil, err
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("migration status: %w", err)
	}
	out := make([]MigrationState, 0, len(st))
	for _, s := range st {
		out = append(out, MigrationState{Version: s.Source.Version, Source: s.Source.Path, Applied: s.State == goose.StateApplied})
	}
	return out, nil
}

// CheckMigrated returns an error naming the pending migrations when the schema is
// behind the binary, so serve can refuse to start with a clear message.
func (db *DB) CheckMigrated(ctx context.Context) error {
	st, err := db.MigrationStatus(ctx)
	if err != nil {
		return err
	}
	pending := 0
	for _, s := range st {
		if !s.Applied {
			pending++
		}
	}
	if pending > 0 {
		return fmt.Errorf("the database schema is not up to date (%d of %d migrations pending): run `shipdesk migrate up` or start with `shipdesk serve --migrate`", pending, len(st))
	}
	return nil
}

// PrintStatus writes the migration status as a table.
func PrintStatus(w io.Writer, st []MigrationState) {
	for _, s := range st {
		state := "pending"
		if s.Applied {
			state = "applied"
		}
		fmt.Fprintf(w, "%05d  %-8s  %s\n", s.Version, state, s.Source)
	}
}
