package web_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// staffPages lists every GET page behind sign-in with the roles that may see it.
var staffPages = []struct {
	path  string
	roles []identity.Role
}{
	{"/", identity.Roles},
	{"/shortcuts", identity.Roles},
	{"/sandbox-faults", identity.RolesFor(identity.Connection)},
	{"/shipping", identity.RolesFor(identity.Shipping)},
	{"/tracking", identity.RolesFor(identity.Tracking)},
	{"/returns", identity.RolesFor(identity.Returns)},
	{"/reports", identity.RolesFor(identity.Reports)},
	{"/users", identity.RolesFor(identity.Users)},
	{"/users/1", identity.RolesFor(identity.Users)},
	{"/connection", identity.RolesFor(identity.Connection)},
	{"/settings/parcel-mail", identity.RolesFor(identity.Connection)},
	{"/sandbox/mail", identity.RolesFor(identity.Returns)},
	{"/metrics", identity.RolesFor(identity.Connection)},
}

func TestAnonymousIsSentToSignIn(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	b := env.NewBrowser()
	for _, p := range staffPages {
		resp := b.Get(p.path)
		loc := resp.Header.Get("Location")
		if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/login") {
			t.Errorf("GET %s anonymous: %d %q, want 303 to /login", p.path, resp.StatusCode, loc)
		}
	}
	for _, post := range []string{"/users", "/users/1/disable", "/logout"} {
		resp := b.PostForm(post, url.Values{})
		if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
			t.Errorf("POST %s anonymous: %d, want 303 to /login", post, resp.StatusCode)
		}
	}
}

func TestEachRoleIsRefusedOtherRolesPages(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	browsers := map[identity.Role]*apptest.Browser{}
	for _, r := range identity.Roles {
		browsers[r] = env.SignedIn(r)
	}
	for _, p := range staffPages {
		for _, r := range identity.Roles {
			allowed := false
			for _, a := range p.roles {
				allowed = allowed || a == r
			}
			resp := browsers[r].Get(p.path)
			switch {
			case allowed && resp.StatusCode != http.StatusOK:
				t.Errorf("%s GET %s: %d, want 200", r, p.path, resp.StatusCode)
			case !allowed && resp.StatusCode != http.StatusForbidden:
				t.Errorf("%s GET %s: %d, want 403", r, p.path, resp.StatusCode)
			}
		}
	}
	// Posts are guarded the same way.
	for _, r := range []identity.Role{identity.Clerk, identity.Agent} {
		resp := browsers[r].PostForm("/users", url.Values{"username": {"mallory"}, "role": {"manager"}, "password": {"0123456789ab"}})
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s POST /users: %d, want 403", r, resp.StatusCode)
		}
	}
}

func TestNavigationShowsOnlyTheRolesAreas(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	for _, r := range identity.Roles {
		body := env.SignedIn(r).Get("/").Body
		for _, a := range identity.Areas {
			link := `href="/` + string(a) + `"`
			if has := strings.Contains(body, link); has != r.May(a) {
				t.Errorf("%s home: link to %s shown=%v, want %v", r, a, has, r.May(a))
			}
		}
	}
}

func TestWrongPasswordKeepsUsername(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	env.AddUser("ivana", identity.Clerk)
	resp := env.NewBrowser().PostForm("/login", url.Values{"username": {"ivana"}, "password": {"not her password"}})
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status %d, want 401", resp.StatusCode)
	}
	if !strings.Contains(resp.Body, `value="ivana"`) {
		t.Error("the typed username is not kept")
	}
	if strings.Contains(resp.Body, "not her password") {
		t.Error("the password is echoed back")
	}
	if !strings.Contains(resp.Body, "username or password is not right") {
		t.Error("no error message shown")
	}
}

func TestMissingCredentialsAreMarked(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	resp := env.NewBrowser().PostForm("/login", url.Values{"username": {"ivana"}})
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(resp.Body, `aria-invalid="true"`) {
		t.Fatalf("status %d; missing password must be marked on the field", resp.StatusCode)
	}
}

func TestDisabledUserCannotSignIn(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("petr", identity.Agent)
	mgr := env.SignedIn(identity.Manager)
	id := userID(t, env, "petr")
	if resp := mgr.PostForm("/users/"+id+"/disable", nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("disable: %d", resp.StatusCode)
	}
	resp := env.NewBrowser().PostForm("/login", url.Values{"username": {"petr"}, "password": {pw}})
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("disabled user sign-in: %d, want 401", resp.StatusCode)
	}
}

func TestCrossOriginPostIsRefused(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	mgr := env.SignedIn(identity.Manager)
	form := url.Values{"username": {"mallory"}, "role": {"manager"}, "password": {"0123456789abc"}}
	req, _ := http.NewRequest(http.MethodPost, env.URL+"/users", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp := mgr.Do(req)
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-origin post: %d, want 403", resp.StatusCode)
	}
	if strings.Contains(mgr.Get("/users").Body, "mallory") {
		t.Fatal("the cross-origin post created a user")
	}
}

func TestSignOutInvalidatesSession(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	b := env.SignedIn(identity.Clerk)
	u, _ := url.Parse(env.URL)
	stolen := b.Jar.Cookies(u)
	if resp := b.PostForm("/logout", nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("logout: %d", resp.StatusCode)
	}
	// Replaying the cookie from before sign-out must not work.
	replay := env.NewBrowser()
	replay.Jar.SetCookies(u, stolen)
	resp := replay.Get("/shipping")
	if resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
		t.Fatalf("old cookie after sign-out: %d, want redirect to sign-in", resp.StatusCode)
	}
}

func TestThrottleSlowsPasswordGuessing(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	env.AddUser("ivana", identity.Clerk)
	b := env.NewBrowser()
	codes := map[int]int{}
	for i := 0; i < 12; i++ {
		codes[b.PostForm("/login", url.Values{"username": {"ivana"}, "password": {"guess"}}).StatusCode]++
	}
	if codes[http.StatusTooManyRequests] == 0 || codes[http.StatusUnauthorized] > 5 {
		t.Fatalf("answers %v: guessing was not slowed", codes)
	}
	resp := b.PostForm("/login", url.Values{"username": {"ivana"}, "password": {"pw-ivana-long-enough"}})
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(resp.Body, "Wait") {
		t.Fatalf("right password during the lock-out: %d", resp.StatusCode)
	}
	// The refusal says when to come back, as the page does.
	secs := resp.Header.Get("Retry-After")
	if n, err := strconv.Atoi(secs); err != nil || n < 1 || !strings.Contains(resp.Body, "Wait "+secs+" second") {
		t.Errorf("Retry-After %q with the page's %q", secs, problemsOf(resp.Body))
	}
}

func TestCookieIsHardened(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("ivana", identity.Clerk)
	b := env.NewBrowser()
	req, _ := http.NewRequest(http.MethodPost, env.URL+"/login", strings.NewReader(url.Values{"username": {"ivana"}, "password": {pw}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := b.Client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	c := resp.Header.Get("Set-Cookie")
	for _, want := range []string{"HttpOnly", "SameSite=Lax"} {
		if !strings.Contains(c, want) {
			t.Errorf("cookie %q lacks %s", c, want)
		}
	}
	if strings.Contains(c, "Secure") {
		t.Errorf("plain HTTP must not get a Secure cookie (the browser would drop it): %q", c)
	}
}

func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	resp := env.NewBrowser().Get("/login")
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "frame-ancestors 'none'") || strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("CSP %q", csp)
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" || resp.Header.Get("Referrer-Policy") == "" || resp.Header.Get("X-Request-Id") == "" {
		t.Errorf("headers %v", resp.Header)
	}
	if strings.Contains(resp.Body, "<script>") || strings.Contains(resp.Body, " onclick=") {
		t.Error("the page has an inline script, which the CSP forbids")
	}
}

func TestOpenRedirectIsRefused(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("ivana", identity.Clerk)
	for _, next := range []string{"https://evil.example/", "//evil.example/", "/\\evil.example"} {
		resp := env.NewBrowser().PostForm("/login", url.Values{"username": {"ivana"}, "password": {pw}, "next": {next}})
		if loc := resp.Header.Get("Location"); loc != "/" {
			t.Errorf("next=%q redirected to %q", next, loc)
		}
	}
	resp := env.NewBrowser().PostForm("/login", url.Values{"username": {"ivana"}, "password": {pw}, "next": {"/tracking?x=1"}})
	if loc := resp.Header.Get("Location"); loc != "/tracking?x=1" {
		t.Errorf("local next lost: %q", loc)
	}
}

func TestNotFoundPage(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	resp := env.SignedIn(identity.Clerk).Get("/no/such/page")
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(resp.Body, "Page not found") {
		t.Fatalf("%d", resp.StatusCode)
	}
	if strings.Contains(resp.Body, "%!") {
		t.Errorf("the page has a formatting mistake: %s", resp.Body[strings.Index(resp.Body, "%!"):])
	}
}

func TestHealthAndReadiness(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	b := env.NewBrowser()
	if r := b.Get("/healthz"); r.StatusCode != 200 {
		t.Errorf("healthz %d", r.StatusCode)
	}
	if r := b.Get("/readyz"); r.StatusCode != 200 || !strings.Contains(r.Body, "ready") {
		t.Errorf("readyz %d %q", r.StatusCode, r.Body)
	}
	env.App.DB.Close()
	if r := b.Get("/readyz"); r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("readyz with the database closed: %d, want 503", r.StatusCode)
	}
}

func TestStaticFilesAreServedWithETag(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	b := env.NewBrowser()
	r := b.Get("/static/htmx.min.js")
	if r.StatusCode != 200 || !strings.Contains(r.Body, `version:"2.0.11"`) || r.Header.Get("ETag") == "" {
		t.Fatalf("htmx: %d etag %q", r.StatusCode, r.Header.Get("ETag"))
	}
	req, _ := http.NewRequest(http.MethodGet, env.URL+"/static/htmx.min.js", nil)
	req.Header.Set("If-None-Match", r.Header.Get("ETag"))
	if r2 := b.Do(req); r2.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: %d, want 304", r2.StatusCode)
	}
}
