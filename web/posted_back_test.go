package web_test

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// A form drawn again with its problems after a post says "return here" as
// the page it was posted from, not as the post's address (which answers no
// GET): the language switch on it then lands on that page. A Referer of
// another host is not followed.
func TestFormDrawnAfterAPostReturnsToItsPage(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	b := env.SignedIn(identity.Manager)
	bad := url.Values{"username": {"x"}, "role": {"manager"}, "password": {"short"}}
	for _, c := range []struct{ referer, want string }{
		{env.URL + "/users?page=2", "/users?page=2"},
		{"", "/"},
		{"https://elsewhere.example/users", "/"},
	} {
		req, _ := http.NewRequest(http.MethodPost, env.URL+"/users", strings.NewReader(bad.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", env.URL)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		if c.referer != "" {
			req.Header.Set("Referer", c.referer)
		}
		r := b.Do(req)
		if r.StatusCode < 400 || r.StatusCode >= 500 {
			t.Fatalf("a bad user form: %d, want it drawn again with its problems", r.StatusCode)
		}
		back := `name="back" value="` + html.EscapeString(c.want) + `"`
		if !strings.Contains(r.Body, back) {
			t.Errorf("referer %q: the page does not return to %s", c.referer, c.want)
		}
		if strings.Contains(r.Body, `name="back" value="/users"`) && c.want != "/users" {
			t.Errorf("referer %q: the page returns to the post's own address", c.referer)
		}
	}
}
