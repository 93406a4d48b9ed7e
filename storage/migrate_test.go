package storage_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"shipdesk/storage/pgtest"
)

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestMigrationsApplyThenNoOp(t *testing.T) {
	ctx := context.Background()
	db := pgtest.Empty(t)
	if err := db.CheckMigrated(ctx); err == nil || !strings.Contains(err.Error(), "migrate") {
		t.Fatalf("an empty database must be reported as not migrated, got %v", err)
	}
	if err := db.MigrateUp(ctx, quietLog()); err != nil {
		t.Fatalf("first migrate: %v", err)
	}
	if err := db.MigrateUp(ctx, quietLog()); err != nil {
		t.Fatalf("second migrate must be a no-op: %v", err)
	}
	if err := db.CheckMigrated(ctx); err != nil {
		t.Fatalf("migrated database reported as behind: %v", err)
	}
	st, err := db.MigrationStatus(ctx)
	if err != nil || len(st) == 0 {
		t.Fatalf("status: %v %v", st, err)
	}
	for _, s := range st {
		if !s.Applied {
			t.Errorf("migration %d not applied", s.Version)
		}
	}
}

func TestMigrationsDownAndUpAgain(t *testing.T) {
	ctx := context.Background()
	db := pgtest.New(t)
	st, _ := db.MigrationStatus(ctx)
	for range st {
		if err := db.MigrateDown(ctx, quietLog()); err != nil {
			t.Fatalf("down: %v", err)
		}
	}
	if err := db.MigrateUp(ctx, quietLog()); err != nil {
		t.Fatalf("up after down: %v", err)
	}
}

// Several instances starting at once must not corrupt the schema: the session
// locker lets one apply each migration and the others wait.
func TestConcurrentMigrationsAreSerialised(t *testing.T) {
	ctx := context.Background()
	url := pgtest.URL(t)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db, err := openURL(ctx, url)
			if err != nil {
				errs <- err
				return
			}
			defer db.Close()
			errs <- db.MigrateUp(ctx, quietLog())
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("concurrent migrate: %v", err)
		}
	}
	db, err := openURL(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.CheckMigrated(ctx); err != nil {
		t.Fatal(err)
	}
}

// Nothing announces changes to sessions or users any more: nobody listens.
func TestSessionsAndUsersAnnounceNothing(t *testing.T) {
	t.Parallel()
	db := pgtest.New(t)
	var n int
	if err := db.SQL().QueryRowContext(context.Background(), `SELECT
		(SELECT count(*) FROM pg_trigger WHERE tgname IN ('users_announce', 'staff_sessions_announce')) +
		(SELECT count(*) FROM pg_proc WHERE proname IN ('announce_user_change', 'announce_session_change'))`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("%d triggers and functions announcing changes of sessions and users are left", n)
	}
}
