package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/staff"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// Two instances of one installation: two dashboards on one database, each
// with its own cache of live sessions. What ends a session on one must end
// it on the other on the very next request.

// twoInstances starts two dashboards on one new database; o is for the
// second (B), which may listen through a proxy.
func twoInstances(t *testing.T, o apptest.Options) (a, b *apptest.Env, dbURL string) {
	t.Helper()
	dbURL = pgtest.URL(t)
	db, err := storage.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.MigrateUp(context.Background(), slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	a = apptest.StartWith(t, db)
	if o.ListenURL != "" {
		o.ListenURL = strings.ReplaceAll(o.ListenURL, "DBNAME", strings.TrimPrefix(mustURL(t, dbURL).Path, "/"))
	}
	b = apptest.StartWithOptions(t, db, o)
	return a, b, dbURL
}

func mustURL(t testing.TB, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// sessionCookie is the browser's session cookie, to send again after the
// browser has dropped it.
func sessionCookie(t *testing.T, env *apptest.Env, br *apptest.Browser) string {
	t.Helper()
	for _, c := range br.Jar.Cookies(mustURL(t, env.URL)) {
		if c.Name == "shipdesk" {
			return c.Name + "=" + c.Value
		}
	}
	t.Fatal("no session cookie")
	return ""
}

// getWith fetches path from env with exactly this cookie.
func getWith(t *testing.T, env *apptest.Env, cookie, path string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, env.URL+path, nil)
	req.Header.Set("Cookie", cookie)
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// cached makes sure env answers the cookie's session from its cache: it
// asks until one answer came from memory (the change feed may not be fresh
// yet, right after start or a reconnection).
func cached(t *testing.T, env *apptest.Env, cookie string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
		before, _ := env.App.Staff.SessionCacheStats()
		if code := getWith(t, env, cookie, "/"); code != http.StatusOK {
			t.Fatalf("a live session: %d", code)
		}
		if hits, _ := env.App.Staff.SessionCacheStats(); hits > before {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the session was never answered from the cache")
}

// refused says the session is over: sign-in, not the page.
func refused(t *testing.T, env *apptest.Env, cookie, what string) {
	t.Helper()
	if code := getWith(t, env, cookie, "/"); code != http.StatusSeeOther {
		t.Fatalf("%s: the old session still opens the home page (%d)", what, code)
	}
	if code := getWith(t, env, cookie, "/no-such-page"); code != http.StatusSeeOther {
		t.Fatalf("%s: the old session still gets past sign-in (%d)", what, code)
	}
}

// signInAs signs a new browser in on env as username.
func signInAs(t *testing.T, env *apptest.Env, username, password string) *apptest.Browser {
	t.Helper()
	br := env.NewBrowser()
	if r := br.PostForm("/login", url.Values{"username": {username}, "password": {password}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign in %s: %d", username, r.StatusCode)
	}
	return br
}

func TestSignOutEndsTheSessionOnEveryInstance(t *testing.T) {
	t.Parallel()
	a, b, _ := twoInstances(t, apptest.Options{})
	pw := a.AddUser("ivana", identity.Clerk)
	for round := range 3 {
		br := signInAs(t, a, "ivana", pw)
		cookie := sessionCookie(t, a, br)
		cached(t, b, cookie)
		cached(t, a, cookie)
		if r := br.PostForm("/logout", nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign out: %d", r.StatusCode)
		}
		refused(t, b, cookie, "sign-out on A, then B")
		refused(t, a, cookie, "sign-out on A, then A")
		if round == 0 {
			if hits, misses := b.App.Staff.SessionCacheStats(); hits == 0 || misses == 0 {
				t.Errorf("B's cache: %d hits, %d misses", hits, misses)
			}
		}
	}
}

func TestDisablingEndsTheSessionsOnEveryInstance(t *testing.T) {
	t.Parallel()
	a, b, _ := twoInstances(t, apptest.Options{})
	pw := a.AddUser("ivana", identity.Clerk)
	mgr := a.SignedIn(identity.Manager)
	cookie := sessionCookie(t, a, signInAs(t, a, "ivana", pw))
	other := sessionCookie(t, a, signInAs(t, a, "ivana", pw))
	cached(t, b, cookie)
	cached(t, b, other)
	if r := mgr.PostForm("/users/"+userID(t, a, "ivana")+"/disable", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("disable: %d", r.StatusCode)
	}
	refused(t, b, cookie, "disabled on A, then B")
	refused(t, b, other, "disabled on A, then B, another browser")
	refused(t, a, cookie, "disabled on A, then A")
	// The manager's own session is untouched.
	if code := getWith(t, b, sessionCookie(t, a, mgr), "/users"); code != http.StatusOK {
		t.Fatalf("the manager on B: %d", code)
	}
}

func TestPasswordResetEndsTheSessionsOnEveryInstance(t *testing.T) {
	t.Parallel()
	a, b, _ := twoInstances(t, apptest.Options{})
	pw := a.AddUser("ivana", identity.Clerk)
	mgr := a.SignedIn(identity.Manager)
	cookie := sessionCookie(t, a, signInAs(t, a, "ivana", pw))
	cached(t, b, cookie)
	if r := mgr.PostForm("/users/"+userID(t, a, "ivana")+"/password", url.Values{"password": {"a new password 2026"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("reset: %d", r.StatusCode)
	}
	refused(t, b, cookie, "password reset on A, then B")
	// Signed in again with the new password, the account works on B.
	cached(t, b, sessionCookie(t, a, signInAs(t, a, "ivana", "a new password 2026")))
}

// The language a staff member chooses shows on the next page on any instance.
func TestLanguageChoiceShowsOnEveryInstance(t *testing.T) {
	t.Parallel()
	a, b, _ := twoInstances(t, apptest.Options{})
	pw := a.AddUser("ivana", identity.Clerk)
	br := signInAs(t, a, "ivana", pw)
	cookie := sessionCookie(t, a, br)
	cached(t, b, cookie)
	if r := br.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("language: %d", r.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodGet, b.URL+"/", nil)
	req.Header.Set("Cookie", cookie) // the session alone: no language cookie
	if r := br.Do(req); !strings.Contains(r.Body, `<html lang="cs">`) {
		t.Fatalf("B still shows another language: %.300s", r.Body)
	}
}

// When B's change feed loses its connection, or its connection hangs, what
// is revoked meanwhile is refused on B all the same; live sessions still
// work, and once the feed is back B answers from its cache again.
func TestRevokedSessionsAreRefusedWhileTheFeedIsDown(t *testing.T) {
	t.Parallel()
	proxy := startPGProxy(t)
	a, b, _ := twoInstances(t, apptest.Options{ListenURL: proxy.url})
	pw := a.AddUser("ivana", identity.Clerk)

	for _, mode := range []proxyMode{proxyCut, proxyHang} {
		// A fresh feed and a cached session on B.
		proxy.set(proxyPass)
		br := signInAs(t, a, "ivana", pw)
		cookie := sessionCookie(t, a, br)
		cached(t, b, cookie)
		live := sessionCookie(t, a, signInAs(t, a, "ivana", pw))
		cached(t, b, live)

		proxy.set(mode)
		if r := br.PostForm("/logout", nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign out: %d", r.StatusCode)
		}
		refused(t, b, cookie, "sign-out on A while B's feed is "+mode.String())
		if code := getWith(t, b, live, "/"); code != http.StatusOK {
			t.Fatalf("a live session on B while its feed is %s: %d", mode, code)
		}
		// Disabling, with the feed still down.
		id, err := a.App.Staff.UserID(context.Background(), "ivana")
		if err != nil {
			t.Fatal(err)
		}
		if err := a.App.Staff.SetDisabled(context.Background(), staff.CLI, id, true); err != nil {
			t.Fatal(err)
		}
		refused(t, b, live, "disabled while B's feed is "+mode.String())
		if err := a.App.Staff.SetDisabled(context.Background(), staff.CLI, id, false); err != nil {
			t.Fatal(err)
		}
	}
	// Back again: B's feed reconnects and B answers from its cache.
	before := b.App.Feed.Reconnections()
	proxy.set(proxyPass)
	cached(t, b, sessionCookie(t, a, signInAs(t, a, "ivana", pw)))
	if b.App.Feed.Reconnections() <= before {
		t.Error("B's feed did not connect again")
	}
}

// The feed's connection ended by the database (a restart, an administrator):
// it reconnects, and nothing revoked meanwhile is accepted.
func TestRevokedSessionsAreRefusedWhenTheFeedIsCut(t *testing.T) {
	t.Parallel()
	a, b, dbURL := twoInstances(t, apptest.Options{})
	pw := a.AddUser("ivana", identity.Clerk)
	name := strings.TrimPrefix(mustURL(t, dbURL).Path, "/")
	for range 3 {
		br := signInAs(t, a, "ivana", pw)
		cookie := sessionCookie(t, a, br)
		cached(t, b, cookie)
		if _, err := a.App.DB.SQL().Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
			WHERE datname = $1 AND application_name = $2`, name, storage.FeedApplicationName); err != nil {
			t.Fatal(err)
		}
		if r := br.PostForm("/logout", nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign out: %d", r.StatusCode)
		}
		refused(t, b, cookie, "sign-out on A while the feeds reconnect")
	}
	cached(t, b, sessionCookie(t, a, signInAs(t, a, "ivana", pw)))
	if b.App.Feed.Reconnections() == 0 {
		t.Error("B's feed never reconnected")
	}
}
