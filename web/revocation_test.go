package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// Two instances of one installation: two dashboards on one database. What
// ends a session on one must end it on the other on the very next request,
// with no wait: each request reads its session's row.

// twoInstances starts two dashboards on one new database.
func twoInstances(t *testing.T) (a, b *apptest.Env) {
	t.Helper()
	dbURL := pgtest.URL(t)
	db, err := storage.Open(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.MigrateUp(context.Background(), slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		t.Fatal(err)
	}
	return apptest.StartWith(t, db), apptest.StartWith(t, db)
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

// live says env lets the cookie's session in.
func live(t *testing.T, env *apptest.Env, cookie, what string) {
	t.Helper()
	if code := getWith(t, env, cookie, "/"); code != http.StatusOK {
		t.Fatalf("%s: a live session: %d", what, code)
	}
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
	a, b := twoInstances(t)
	pw := a.AddUser("ivana", identity.Clerk)
	for range 3 {
		br := signInAs(t, a, "ivana", pw)
		cookie := sessionCookie(t, a, br)
		live(t, b, cookie, "signed in on A, on B")
		live(t, a, cookie, "signed in on A, on A")
		if r := br.PostForm("/logout", nil); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign out: %d", r.StatusCode)
		}
		refused(t, b, cookie, "sign-out on A, then B")
		refused(t, a, cookie, "sign-out on A, then A")
	}
}

func TestDisablingEndsTheSessionsOnEveryInstance(t *testing.T) {
	t.Parallel()
	a, b := twoInstances(t)
	pw := a.AddUser("ivana", identity.Clerk)
	mgr := a.SignedIn(identity.Manager)
	cookie := sessionCookie(t, a, signInAs(t, a, "ivana", pw))
	other := sessionCookie(t, a, signInAs(t, a, "ivana", pw))
	live(t, b, cookie, "signed in on A, on B")
	live(t, b, other, "signed in again on A, on B")
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
	a, b := twoInstances(t)
	pw := a.AddUser("ivana", identity.Clerk)
	mgr := a.SignedIn(identity.Manager)
	cookie := sessionCookie(t, a, signInAs(t, a, "ivana", pw))
	live(t, b, cookie, "signed in on A, on B")
	if r := mgr.PostForm("/users/"+userID(t, a, "ivana")+"/password", url.Values{"password": {"a new password 2026"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("reset: %d", r.StatusCode)
	}
	refused(t, b, cookie, "password reset on A, then B")
	// Signed in again with the new password, the account works on B.
	live(t, b, sessionCookie(t, a, signInAs(t, a, "ivana", "a new password 2026")), "signed in again after the reset, on B")
}

// The language a staff member chooses shows on the next page on any instance.
func TestLanguageChoiceShowsOnEveryInstance(t *testing.T) {
	t.Parallel()
	a, b := twoInstances(t)
	pw := a.AddUser("ivana", identity.Clerk)
	br := signInAs(t, a, "ivana", pw)
	cookie := sessionCookie(t, a, br)
	live(t, b, cookie, "signed in on A, on B")
	if r := br.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("language: %d", r.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodGet, b.URL+"/", nil)
	req.Header.Set("Cookie", cookie) // the session alone: no language cookie
	if r := br.Do(req); !strings.Contains(r.Body, `<html lang="cs">`) {
		t.Fatalf("B still shows another language: %.300s", r.Body)
	}
}
