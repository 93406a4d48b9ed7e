package staff

import (
	"context"
	"crypto/sha256"
	"io"
	"log/slog"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"shipdesk/apperr"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// cachedService is a staff service with a cache of live sessions on a real
// change feed, and a signed-in clerk's token.
func cachedService(t *testing.T, cfg Config) (*Service, *storage.DB, *storage.Feed, string) {
	t.Helper()
	db := pgtest.New(t)
	feed, err := db.OpenFeed("", slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(feed.Close)
	cfg.BcryptCost, cfg.Changes = bcrypt.MinCost, feed
	s, err := New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.AddUser(ctx, CLI, "ivana", identity.Clerk, "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	_, token, err := s.SignIn(ctx, "ivana", "correct horse battery", "10.0.0.1", "")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a fresh feed", func() bool { return feed.Fresh() })
	return s, db, feed, token
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !ok(); {
		if time.Now().After(deadline) {
			t.Fatalf("waited in vain for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestSessionChecksComeFromTheCache(t *testing.T) {
	s, _, feed, token := cachedService(t, Config{})
	ctx := context.Background()
	for range 3 {
		waitFor(t, "a fresh feed", func() bool { return feed.Fresh() })
		st, err := s.Authenticate(ctx, token)
		if err != nil || st.Username != "ivana" || st.Role != identity.Clerk {
			t.Fatalf("authenticate: %+v %v", st, err)
		}
	}
	if hits, misses := s.SessionCacheStats(); hits < 2 || misses != 1 {
		t.Fatalf("%d hits, %d misses; want the first check to ask the database and the others not", hits, misses)
	}
}

// A lookup that read the database before a change was announced may not
// keep what it read, even when it finishes after the change was heard.
func TestALookupOlderThanAChangeIsNotKept(t *testing.T) {
	s, db, _, token := cachedService(t, Config{})
	ctx := context.Background()
	h := sha256.Sum256([]byte(token))
	now := time.Now()
	_, _, ok, gen := s.cache.get(h, now, time.Hour)
	if ok {
		t.Fatal("a session nobody checked yet is cached")
	}
	live, err := db.LiveSession(ctx, h[:], time.Hour) // read before the revocation
	if err != nil {
		t.Fatal(err)
	}
	if err := db.RevokeSession(ctx, h[:]); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the revocation to be heard", func() bool {
		s.cache.mu.Lock()
		defer s.cache.mu.Unlock()
		return s.cache.gen != gen
	})
	s.cache.put(h, cachedSession{staff: identity.Staff{ID: live.UserID, Username: live.Username, Role: live.Role},
		lastSeen: now, expires: live.ExpiresAt}, gen)
	if _, _, ok, _ := s.cache.get(h, time.Now(), time.Hour); ok {
		t.Fatal("a lookup older than the revocation was kept")
	}
	if _, err := s.Authenticate(ctx, token); !apperr.Is(err, apperr.Unauthorized) {
		t.Fatalf("revoked session: %v", err)
	}
}

// The idle and absolute limits hold for cached sessions too.
func TestCachedSessionsExpire(t *testing.T) {
	ctx := context.Background()
	s, _, feed, token := cachedService(t, Config{IdleTimeout: time.Second, AbsoluteTimeout: time.Hour})
	if _, err := s.Authenticate(ctx, token); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	waitFor(t, "a fresh feed", func() bool { return feed.Fresh() })
	if _, err := s.Authenticate(ctx, token); !apperr.Is(err, apperr.Unauthorized) {
		t.Fatalf("idle cached session still valid: %v", err)
	}

	s2, _, feed2, token2 := cachedService(t, Config{IdleTimeout: time.Hour, AbsoluteTimeout: time.Second})
	if _, err := s2.Authenticate(ctx, token2); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond)
	waitFor(t, "a fresh feed", func() bool { return feed2.Fresh() })
	if _, err := s2.Authenticate(ctx, token2); !apperr.Is(err, apperr.Unauthorized) {
		t.Fatalf("cached session past its absolute expiry still valid: %v", err)
	}
}
