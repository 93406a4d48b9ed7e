package storage_test

import (
	"context"
	"testing"
	"time"

	"shipdesk/apperr"
	"shipdesk/identity"
	"shipdesk/storage/pgtest"
)

// Reading a live session marks it used in the same statement, but at most
// once a minute; a session idle too long, revoked, or of a disabled user is
// not live, and reading it marks nothing.
func TestLiveSessionMarksItsUseAtMostOnceAMinute(t *testing.T) {
	t.Parallel()
	db := pgtest.New(t)
	ctx := context.Background()
	u, err := db.CreateUser(ctx, "ivana", identity.Clerk, "not-a-hash")
	if err != nil {
		t.Fatal(err)
	}
	token := []byte("a session token's hash, 32 bytes")
	if err := db.CreateSession(ctx, token, u.ID, time.Now().Add(time.Hour), "127.0.0.1", "test"); err != nil {
		t.Fatal(err)
	}
	// idleFor sets when the session was last used, as seconds before now().
	idleFor := func(secs int) {
		t.Helper()
		if _, err := db.Exec(ctx, `UPDATE staff_sessions SET last_seen_at = now() - make_interval(secs => $1) WHERE token_hash = $2`, secs, token); err != nil {
			t.Fatal(err)
		}
	}
	// idle is how long ago, in seconds, the database says it was last used.
	idle := func() float64 {
		t.Helper()
		var secs float64
		if err := db.SQL().QueryRowContext(ctx, `SELECT extract(epoch FROM now() - last_seen_at) FROM staff_sessions WHERE token_hash = $1`, token).Scan(&secs); err != nil {
			t.Fatal(err)
		}
		return secs
	}

	idleFor(30)
	if s, err := db.LiveSession(ctx, token, time.Hour); err != nil || s.Username != "ivana" {
		t.Fatalf("a live session: %+v, %v", s, err)
	}
	if got := idle(); got < 29 {
		t.Errorf("used 30 s ago, the session was marked used again (idle %.0f s)", got)
	}
	idleFor(90)
	if _, err := db.LiveSession(ctx, token, time.Hour); err != nil {
		t.Fatal(err)
	}
	if got := idle(); got > 5 {
		t.Errorf("used 90 s ago, the session was not marked used (idle %.0f s)", got)
	}

	idleFor(2 * 3600)
	if _, err := db.LiveSession(ctx, token, time.Hour); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("a session idle past its limit: %v", err)
	}
	if got := idle(); got < 2*3600-5 {
		t.Errorf("an idle session was marked used (idle %.0f s)", got)
	}
	idleFor(0)
	if err := db.SetDisabled(ctx, u.ID, true); err != nil {
		t.Fatal(err)
	}
	if _, err := db.LiveSession(ctx, token, time.Hour); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("a disabled user's session: %v", err)
	}
	if err := db.SetDisabled(ctx, u.ID, false); err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeSession(ctx, token); err != nil {
		t.Fatal(err)
	}
	if _, err := db.LiveSession(ctx, token, time.Hour); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("a revoked session: %v", err)
	}
}
