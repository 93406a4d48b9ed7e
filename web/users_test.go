package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

func userID(t *testing.T, env *apptest.Env, name string) string {
	t.Helper()
	id, err := env.App.Staff.UserID(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return strconv.FormatInt(id, 10)
}

func TestManagerAddsUser(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	mgr := env.SignedIn(identity.Manager)
	resp := mgr.PostForm("/users", url.Values{"username": {"Jana.K"}, "role": {"agent"}, "password": {"a long password"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("add: %d %s", resp.StatusCode, resp.Body)
	}
	page := mgr.Get("/users").Body
	if !strings.Contains(page, "jana.k") || !strings.Contains(page, "User jana.k added.") {
		t.Fatal("new user or confirmation missing")
	}
	if resp := env.NewBrowser().PostForm("/login", url.Values{"username": {"jana.k"}, "password": {"a long password"}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the new user cannot sign in: %d", resp.StatusCode)
	}
}

func TestAddUserBadInputKeepsTypedValues(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	mgr := env.SignedIn(identity.Manager)
	cases := map[string]url.Values{
		"hostile username": {"username": {"<script>alert(1)</script>"}, "role": {"clerk"}, "password": {"a long password"}},
		"sql username":     {"username": {"x'; DROP TABLE users; --"}, "role": {"clerk"}, "password": {"a long password"}},
		"unknown role":     {"username": {"jana"}, "role": {"admin"}, "password": {"a long password"}},
		"short password":   {"username": {"jana"}, "role": {"agent"}, "password": {"short"}},
		"missing all":      {},
		"huge username":    {"username": {strings.Repeat("a", 5000)}, "role": {"clerk"}, "password": {"a long password"}},
	}
	for name, form := range cases {
		t.Run(name, func(t *testing.T) {
			resp := mgr.PostForm("/users", form)
			if resp.StatusCode != http.StatusUnprocessableEntity {
				t.Fatalf("status %d, want 422", resp.StatusCode)
			}
			if strings.Contains(resp.Body, "<script>alert") {
				t.Fatal("hostile input rendered unescaped")
			}
			if u := form.Get("username"); u != "" && len(u) < 100 && !strings.Contains(resp.Body, "value=\""+htmlEscape(u)+"\"") {
				t.Errorf("typed username %q not kept", u)
			}
			if !strings.Contains(resp.Body, "field-error") {
				t.Error("no error next to a field")
			}
		})
	}
	// Nothing stored was lost and the users table is intact.
	if !strings.Contains(mgr.Get("/users").Body, "manager1") {
		t.Fatal("existing users lost")
	}
}

func TestOversizedFormIsRefused(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	mgr := env.SignedIn(identity.Manager)
	resp := mgr.PostForm("/users", url.Values{"username": {strings.Repeat("a", 200<<10)}})
	// One way to read a form: too large is 413, said in words.
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(resp.Body, "too large") {
		t.Fatalf("oversized form: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if r := mgr.Get("/users"); r.StatusCode != 200 {
		t.Fatal("server unhealthy after an oversized form")
	}
}

func TestDuplicateUsernameIsMarked(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	mgr := env.SignedIn(identity.Manager)
	resp := mgr.PostForm("/users", url.Values{"username": {"manager1"}, "role": {"clerk"}, "password": {"a long password"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(resp.Body, "taken") {
		t.Fatalf("%d", resp.StatusCode)
	}
}

func TestResetPasswordEndsTheirSessions(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	clerk := env.SignedIn(identity.Clerk)
	mgr := env.SignedIn(identity.Manager)
	id := userID(t, env, "clerk1")
	if r := mgr.PostForm("/users/"+id+"/password", url.Values{"password": {"short"}}); r.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("short password accepted: %d", r.StatusCode)
	}
	if r := mgr.PostForm("/users/"+id+"/password", url.Values{"password": {"fresh password 2026"}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("reset: %d", r.StatusCode)
	}
	if r := clerk.Get("/shipping"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("the clerk's session survived the reset: %d", r.StatusCode)
	}
	detail := mgr.Get("/users/" + id).Body
	if !strings.Contains(detail, "password reset") {
		t.Error("reset missing from the audit trail")
	}
}

func TestManagerCannotDisableThemselves(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	mgr := env.SignedIn(identity.Manager)
	id := userID(t, env, "manager1")
	if r := mgr.PostForm("/users/"+id+"/disable", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("%d", r.StatusCode)
	}
	if !strings.Contains(mgr.Get("/users/"+id).Body, "cannot disable your own account") {
		t.Fatal("no explanation shown")
	}
	if r := mgr.Get("/users"); r.StatusCode != http.StatusOK {
		t.Fatal("manager was disabled")
	}
}

func TestUnknownUserIs404(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	mgr := env.SignedIn(identity.Manager)
	for _, p := range []string{"/users/99999", "/users/abc", "/users/-1"} {
		if r := mgr.Get(p); r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d", p, r.StatusCode)
		}
	}
}

func htmlEscape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")
	return r.Replace(s)
}
