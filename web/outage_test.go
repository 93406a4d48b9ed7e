package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// While the database is down, pages keep their style (static files need neither
// the database nor a cookie) and sign-in says the dashboard is unavailable
// instead of failing with a 500.
func TestDatabaseOutage(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("ivana", identity.Clerk)
	signedIn := env.SignedIn(identity.Clerk)
	env.StopDatabase()

	for name, b := range map[string]*apptest.Browser{"anonymous": env.NewBrowser(), "signed in": signedIn} {
		for _, path := range []string{"/static/app.css", "/static/htmx.min.js", "/healthz"} {
			resp := b.Get(path)
			if resp.StatusCode != http.StatusOK || resp.Body == "" {
				t.Errorf("%s GET %s during the outage: %d", name, path, resp.StatusCode)
			}
			if c := resp.Header.Get("Set-Cookie"); c != "" {
				t.Errorf("%s GET %s sets a cookie: %q", name, path, c)
			}
		}
		resp := b.PostForm("/login", url.Values{"username": {"ivana"}, "password": {pw}})
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("%s sign-in during the outage: %d, want 503", name, resp.StatusCode)
		}
		if !strings.Contains(resp.Body, "The dashboard is temporarily unavailable; try again in a minute.") {
			t.Errorf("%s sign-in during the outage says: %s", name, problemsOf(resp.Body))
		}
	}
	if resp := env.NewBrowser().Get("/readyz"); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("readyz during the outage: %d", resp.StatusCode)
	}
	if resp := signedIn.Get("/shipping"); resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("a page during the outage: %d, want 503", resp.StatusCode)
	}
}
