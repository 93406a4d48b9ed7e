package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/client/sandboxctl"
	"shipdesk/clock"
	"shipdesk/i18n"
	"shipdesk/identity"
)

func simulatedNow(t *testing.T, env *apptest.Env) time.Time {
	t.Helper()
	c, err := env.App.Upstream.Controls.Now(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c.Now
}

func TestEveryRoleMovesTheSandboxClock(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	for _, role := range identity.Roles {
		b := env.SignedIn(role)
		if !strings.Contains(b.Get("/").Body, `data-testid="sandbox-clock"`) {
			t.Errorf("%s: no clock control in sandbox mode", role)
		}
		started := time.Now()
		before := simulatedNow(t, env)
		resp := b.PostForm("/sandbox-clock", url.Values{"minutes": {"60"}, "back": {"/?x=1"}})
		if resp.StatusCode != 303 || resp.Header.Get("Location") != "/?x=1" {
			t.Fatalf("%s: advance: %d %s", role, resp.StatusCode, resp.Header.Get("Location"))
		}
		// The clock runs on meanwhile and tells whole seconds: beyond the
		// hour it moves by what passed, to the second above.
		moved := simulatedNow(t, env).Sub(before)
		if ran := time.Since(started).Truncate(time.Second) + time.Second; moved < time.Hour || moved > time.Hour+ran {
			t.Errorf("%s: clock moved %s, want an hour and at most the %s that passed", role, moved, ran)
		}
		if body := b.Get("/").Body; !strings.Contains(body, "moved on by 60 minutes") {
			t.Errorf("%s: no confirmation", role)
		}
	}
}

func TestClockControlRefusesBadInput(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	anon := env.NewBrowser()
	started := time.Now()
	before := simulatedNow(t, env)
	if resp := anon.PostForm("/sandbox-clock", url.Values{"minutes": {"60"}}); resp.StatusCode != 303 || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
		t.Errorf("anonymous: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	b := env.SignedIn(identity.Clerk)
	for _, bad := range []string{"", "0", "-5", "abc", "1.5", "<script>alert(1)</script>", "99999999", "1; DROP TABLE users"} {
		resp := b.PostForm("/sandbox-clock", url.Values{"minutes": {bad}, "back": {"/shipping"}})
		if resp.StatusCode != 303 || resp.Header.Get("Location") != "/shipping" {
			t.Errorf("%q: %d %s", bad, resp.StatusCode, resp.Header.Get("Location"))
		}
		if body := b.Get("/").Body; !strings.Contains(body, "whole number of minutes") {
			t.Errorf("%q: no error shown", bad)
		}
	}
	for _, hostile := range []string{"//evil.example/", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", "/\t/evil.example", "/%09/evil.example"} {
		resp := b.PostForm("/sandbox-clock", url.Values{"minutes": {"1"}, "back": {hostile}})
		if resp.Header.Get("Location") != "/" {
			t.Errorf("back %q redirected to %q", hostile, resp.Header.Get("Location"))
		}
	}
	// The simulated clock also runs at real speed meanwhile, and the control
	// reports it to the second: what the posts moved it is the rest, within
	// a second or two of the 6 valid minutes, a whole minute from 5 or 7.
	d := simulatedNow(t, env).Sub(before)
	if moved := d - time.Since(started); moved < 6*time.Minute-2*time.Second || moved > 6*time.Minute+2*time.Second {
		t.Errorf("clock moved %s beyond the time that passed, want only the 6 valid minutes", moved)
	}
}

// sandboxFaults are the faults the sandbox plays now, as it lists them.
func sandboxFaults(t *testing.T, env *apptest.Env) []sandboxctl.Fault {
	t.Helper()
	list, err := env.App.Upstream.Controls.Faults(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// A manager turns on faults for a demonstration: the sandbox's interfaces
// are slowed or fail, the banner warns everyone, and turning them off ends
// them. Other roles and anonymous people may not.
func TestManagerSetsFaultsForADemo(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	anon := env.NewBrowser()
	if resp := anon.PostForm("/sandbox-faults", url.Values{"latency_ms": {"300"}}); resp.StatusCode != 303 || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
		t.Errorf("anonymous: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	others := map[identity.Role]*apptest.Browser{}
	for _, role := range []identity.Role{identity.Clerk, identity.Agent} {
		b := env.SignedIn(role)
		others[role] = b
		if resp := b.PostForm("/sandbox-faults", url.Values{"latency_ms": {"300"}}); resp.StatusCode != 403 {
			t.Errorf("%s: %d", role, resp.StatusCode)
		}
		if strings.Contains(b.Get("/").Body, `data-testid="sandbox-faults"`) {
			t.Errorf("%s is offered the faults", role)
		}
		if resp := b.Get("/sandbox-faults"); resp.StatusCode != 403 || strings.Contains(resp.Body, `data-testid="faults-form"`) {
			t.Errorf("%s opens the faults form: %d", role, resp.StatusCode)
		}
	}
	if n := len(sandboxFaults(t, env)); n != 0 {
		t.Fatalf("%d faults set by those who may not", n)
	}
	m := env.SignedIn(identity.Manager)
	if !strings.Contains(m.Get("/").Body, `href="/sandbox-faults"`) {
		t.Fatal("the manager is not offered the faults")
	}
	// The banner's link opens the form, which comes back to the page the
	// link was followed from.
	req, _ := http.NewRequest(http.MethodGet, env.URL+"/sandbox-faults", nil)
	req.Header.Set("Referer", env.URL+"/tracking?status=active&q=%3Cx%3E")
	if body := m.Do(req).Body; !strings.Contains(body, `data-testid="faults-form"`) ||
		!strings.Contains(body, `name="back" value="/tracking?status=active&amp;q=%3Cx%3E"`) {
		t.Fatalf("the faults page does not offer the form back to the list:\n%s", body)
	}
	// A Referer of another site, or one no page has, comes back to the start.
	for _, ref := range []string{"http://evil.example/shipping", env.URL + "//evil.example/", env.URL + "/a%00b",
		"javascript:alert(1)", env.URL + "/" + strings.Repeat("x", 5000), env.URL + "/sandbox-faults"} {
		req, _ := http.NewRequest(http.MethodGet, env.URL+"/sandbox-faults", nil)
		req.Header.Set("Referer", ref)
		resp := m.Do(req)
		if resp.StatusCode != 200 || !strings.Contains(resp.Body, `name="back" value="/"`) {
			t.Errorf("Referer %.60q: %d, the form does not come back to the start", ref, resp.StatusCode)
		}
	}
	resp := m.PostForm("/sandbox-faults", url.Values{"latency_ms": {"400"}, "error_percent": {"12,5"}, "lost_percent": {""}, "back": {"/shipping"}})
	if resp.StatusCode != 303 || resp.Header.Get("Location") != "/shipping" {
		t.Fatalf("set: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if got := sandboxFaults(t, env); len(got) != 1 || got[0].Path != "" || got[0].LatencyMS != 400 || got[0].ErrorRate != 0.125 || got[0].DropAfterRate != 0 {
		t.Fatalf("the sandbox plays %+v", got)
	}
	if body := m.Get("/shipping").Body; !strings.Contains(body, "Faults on: 400 ms delay, 12.5% error answers") {
		t.Error("no confirmation")
	}
	// Every role sees the warning in the banner.
	if body := others[identity.Agent].Get("/returns").Body; !strings.Contains(body, `data-testid="sandbox-faults-on"`) {
		t.Error("the banner does not warn of the faults")
	}
	watch := clock.Start()
	if r, err := http.Get(env.App.Upstream.Config.ShippingURL + "/shipments/list"); err == nil {
		r.Body.Close()
	}
	if took := watch.Elapsed(); took < 400*time.Millisecond {
		t.Errorf("a call to the sandbox took %s with 400 ms of delay", took)
	}
	// All errors: the service answers 503.
	m.PostForm("/sandbox-faults", url.Values{"error_percent": {"100"}, "back": {"/"}})
	if r, err := http.Get(env.App.Upstream.Config.ShippingURL + "/shipments/list"); err != nil || r.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("with all answers errors: %v %v", r, err)
	} else {
		r.Body.Close()
	}
	m.PostForm("/sandbox-faults", url.Values{"off": {"1"}, "latency_ms": {"999"}, "back": {"/"}})
	if n := len(sandboxFaults(t, env)); n != 0 {
		t.Errorf("%d faults left after turning them off", n)
	}
	body := m.Get("/").Body
	if !strings.Contains(body, "Faults off") || strings.Contains(body, `data-testid="sandbox-faults-on"`) {
		t.Error("turned off, the banner still warns or says nothing")
	}
	// Outside sandbox mode there are no faults to set.
	env.App.Upstream.Config.Sandbox = false
	if resp := m.PostForm("/sandbox-faults", url.Values{"latency_ms": {"300"}}); resp.StatusCode != 404 {
		t.Errorf("outside sandbox mode: %d", resp.StatusCode)
	}
	if resp := m.Get("/sandbox-faults"); resp.StatusCode != 404 {
		t.Errorf("outside sandbox mode the faults page answers %d", resp.StatusCode)
	}
	if n := len(sandboxFaults(t, env)); n != 0 {
		t.Errorf("outside sandbox mode %d faults were set", n)
	}
}

// Bad values set no fault and say what is wrong.
func TestFaultsRefuseBadInput(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	m := env.SignedIn(identity.Manager)
	for _, c := range []struct {
		field, value, want string
	}{
		{"latency_ms", "NaN", "whole milliseconds"},
		{"latency_ms", "-5", "whole milliseconds"},
		{"latency_ms", "1.5", "whole milliseconds"},
		{"latency_ms", "1e308", "whole milliseconds"},
		{"latency_ms", "99999999", "whole milliseconds"},
		{"latency_ms", "<script>alert(1)</script>", "whole milliseconds"},
		{"error_percent", "101", "Error answers (%): give a share"},
		{"error_percent", "Inf", "Error answers (%): give a share"},
		{"lost_percent", "-1", "Lost answers (%): give a share"},
		{"lost_percent", "a\x00b", "Lost answers (%): give a share"},
		{"lost_percent", "\xff\xfe", "Lost answers (%): give a share"},
		{"lost_percent", strings.Repeat("9", 10000), "Lost answers (%): give a share"},
		{"lost_percent", "'; DROP TABLE users; --", "Lost answers (%): give a share"},
		{"error_percent", "", "No fault given"},
	} {
		form := url.Values{c.field: {c.value}, "back": {"/shipping"}}
		if c.field == "lost_percent" && c.value == "-1" {
			form.Set("error_percent", "60")
		}
		resp := m.PostForm("/sandbox-faults", form)
		if resp.StatusCode != 303 || resp.Header.Get("Location") != "/shipping" {
			t.Errorf("%s=%q: %d %s", c.field, c.value, resp.StatusCode, resp.Header.Get("Location"))
		}
		if body := m.Get("/shipping").Body; !strings.Contains(body, c.want) {
			t.Errorf("%s=%q: no message %q", c.field, c.value, c.want)
		}
	}
	if resp := m.PostForm("/sandbox-faults", url.Values{"error_percent": {"60"}, "lost_percent": {"50"}}); resp.StatusCode != 303 {
		t.Errorf("more than all: %d", resp.StatusCode)
	}
	if body := m.Get("/").Body; !strings.Contains(body, "at most 100%") {
		t.Error("more than 100 % in all is not refused")
	}
	if n := len(sandboxFaults(t, env)); n != 0 {
		t.Errorf("bad input set %d faults", n)
	}
}

// The banner shows the simulated time on every page, in the reader's
// language, and the new time once the clock is moved.
func TestBannerShowsTheSimulatedTime(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	b := env.SignedIn(identity.Clerk)
	ctx := i18n.WithLang(context.Background(), i18n.English)
	// The page is read between two readings of the clock: it shows one of them.
	shows := func(path string) {
		t.Helper()
		before := i18n.DateTime(ctx, simulatedNow(t, env))
		body := b.Get(path).Body
		after := i18n.DateTime(ctx, simulatedNow(t, env))
		if !strings.Contains(body, `data-testid="sandbox-now"`) || !strings.Contains(body, before) && !strings.Contains(body, after) {
			t.Errorf("%s: the banner does not show the simulated time %s", path, after)
		}
	}
	shows("/shipping")
	shows("/shipping")
	b.PostForm("/sandbox-clock", url.Values{"minutes": {"1440"}, "back": {"/shipping"}})
	shows("/shipping") // with the flash
	shows("/tracking")
}

// Every htmx answer to staff brings the banner's time again, out of band, so
// a page that refreshes itself keeps its banner on the clock; a whole page
// draws its banner once, and an anonymous answer carries none.
func TestBannerTimeComesWithEveryHTMXAnswer(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	b := env.SignedIn(identity.Clerk)
	ctx := i18n.WithLang(context.Background(), i18n.English)
	oob := func(path string) *goquery.Selection {
		t.Helper()
		resp := getHTMX(env, b, path)
		return page(t, "<table>"+resp.Body+"</table>").Find(`#sandbox-state[hx-swap-oob=true]`)
	}
	env.Sandbox.Advance(48 * time.Hour)
	for _, path := range []string{"/shipping", "/shipping/pickups/carriers?address=1"} {
		before := i18n.DateTime(ctx, simulatedNow(t, env))
		got := oob(path)
		after := i18n.DateTime(ctx, simulatedNow(t, env))
		if got.Length() != 1 {
			t.Errorf("%s: %d banner times out of band", path, got.Length())
			continue
		}
		if s := got.Find(`[data-testid=sandbox-now] time`).Text(); s != before && s != after {
			t.Errorf("%s: the banner's time %q, want %q (the clock moved two days)", path, s, after)
		}
	}
	whole := page(t, b.Get("/shipping").Body)
	if n, o := whole.Find(`#sandbox-state`).Length(), whole.Find(`[hx-swap-oob]#sandbox-state`).Length(); n != 1 || o != 0 {
		t.Errorf("a whole page has %d banner times, %d out of band", n, o)
	}
	if r := getHTMX(env, env.NewBrowser(), "/login"); strings.Contains(r.Body, `id="sandbox-state" class="sandbox-state" hx-swap-oob`) {
		t.Error("an anonymous answer carries the banner's time")
	}
}
