package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// A signed-in request reads its session, and its user's role and language,
// in one statement; when the session was last marked used over a minute
// ago, the same statement marks it used again.
func TestASignedInRequestReadsItsSessionInOneStatement(t *testing.T) {
	t.Parallel()
	db, proxy := dbThroughProxy(t)
	env := apptest.StartWith(t, db)
	br := env.SignedIn(identity.Clerk)
	ctx := context.Background()
	for _, idle := range []int{0, 120} {
		if _, err := db.Exec(ctx, `UPDATE staff_sessions SET last_seen_at = now() - make_interval(secs => $1)`, idle); err != nil {
			t.Fatal(err)
		}
		proxy.Take()
		if r := br.Get("/no-such-page"); r.StatusCode != http.StatusNotFound {
			t.Fatalf("a signed-in 404: %d", r.StatusCode)
		}
		texts, _ := proxy.Take()
		n := 0
		for text, c := range texts {
			if strings.Contains(text, "staff_sessions") {
				n += c
			}
		}
		if n != 1 {
			t.Errorf("last used %d s ago: %d statements on sessions, want 1: %v", idle, n, texts)
		}
		var secs float64
		if err := db.SQL().QueryRowContext(ctx, `SELECT extract(epoch FROM now() - last_seen_at) FROM staff_sessions`).Scan(&secs); err != nil {
			t.Fatal(err)
		}
		if secs > 5 && idle > 60 {
			t.Errorf("last used %d s ago, the request did not mark the session used (idle %.0f s)", idle, secs)
		}
	}
}

// Signing out ends the session and leaves a message for the next page: one
// session cookie in the answer carries both, the message without the session.
func TestSignOutSetsOneSessionCookie(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	br := env.SignedIn(identity.Clerk)
	r := br.PostForm("/logout", nil)
	if r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign out: %d", r.StatusCode)
	}
	n := 0
	for _, line := range r.Header.Values("Set-Cookie") {
		if c, err := http.ParseSetCookie(line); err == nil && c.Name == "shipdesk" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("sign-out set %d session cookies, want 1: %q", n, r.Header.Values("Set-Cookie"))
	}
	page := br.Get("/login")
	if !strings.Contains(page.Body, "You are signed out.") {
		t.Errorf("the page after sign-out does not say so: %.300s", page.Body)
	}
	if again := br.Get("/login"); strings.Contains(again.Body, "You are signed out.") {
		t.Error("the sign-out message shows twice")
	}
	if r := br.Get("/shipping"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("after sign-out the cookie still opens a page: %d", r.StatusCode)
	}
}
