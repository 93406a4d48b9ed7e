package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// After sign-in the browser goes to ?next only when it is a clean path of ours:
// "/<TAB>/evil.example" is read by browsers as //evil.example.
func TestSignInNeverRedirectsOffSite(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("ivana", identity.Clerk)
	for _, next := range []string{"/\t/evil.example", "/%09/evil.example", "/\n/evil.example", "//evil.example", "/\\evil.example", "https://evil.example"} {
		b := env.NewBrowser()
		form := b.Get("/login?next=" + url.QueryEscape(next))
		if strings.Contains(form.Body, "evil.example") {
			t.Errorf("next %q is carried into the sign-in form", next)
		}
		resp := b.PostForm("/login", url.Values{"username": {"ivana"}, "password": {pw}, "next": {next}})
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
			t.Errorf("next %q: %d to %q, want 303 to /", next, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	resp := env.NewBrowser().PostForm("/login", url.Values{"username": {"ivana"}, "password": {pw}, "next": {"/tracking?status=UNKNOWN"}})
	if resp.Header.Get("Location") != "/tracking?status=UNKNOWN" {
		t.Errorf("a clean local next was not kept: %q", resp.Header.Get("Location"))
	}
}
