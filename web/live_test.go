package web_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// The parts a live page asks for again are guarded as their pages: another
// area's role is refused, an anonymous request goes to sign in.
func TestLiveFragmentsRefuseOtherRolesAndAnonymous(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	agent, clerk, anon := env.SignedIn(identity.Agent), env.SignedIn(identity.Clerk), env.NewBrowser()
	for _, tc := range []struct {
		path  string
		wrong *apptest.Browser
	}{
		{"/shipping/shipments/1/status", agent},
		{"/shipping/batches/1/progress", agent},
		{"/shipping/print/live", agent},
		{"/returns/commissions/1/live", clerk},
	} {
		if r := tc.wrong.Get(tc.path); r.StatusCode != http.StatusForbidden {
			t.Errorf("wrong role GET %s: %d", tc.path, r.StatusCode)
		}
		if r := anon.Get(tc.path); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous GET %s: %d %s", tc.path, r.StatusCode, r.Header.Get("Location"))
		}
	}
}

// The print queue and the home page say how old their picture of the parcels
// is, on the dashboard's clock; the queue's poll brings a new age even when
// its list is the same.
func TestQueueAndHomeSayHowOldTheirPictureIs(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	place(t, b, shipmentForm(t, env), "UPS")
	labelsMade(t, env)
	queue := htmlOf(t, b.Get("/shipping/print").Body)
	if got := queue.Find(`[data-testid=shipments] [data-testid=age]`).Text(); got != "checked just now" {
		t.Errorf("queue row age %q", got)
	}
	version := queue.Find(`input[name=v]`).AttrOr("value", "")
	if r := b.Get("/shipping/print/live?v=" + version); r.StatusCode != http.StatusNoContent {
		t.Errorf("an unchanged queue: %d", r.StatusCode)
	}
	home := func(br *apptest.Browser) string {
		return htmlOf(t, br.Get("/").Body).Find(`#home-live [data-testid=age]`).Text()
	}
	if got := home(b); got != "Parcels as the service said them: checked just now." {
		t.Errorf("home age %q", got)
	}
	env.Sandbox.Advance(3 * time.Minute)
	r := b.Get("/shipping/print/live?v=" + version)
	if age := htmlOf(t, r.Body).Find(`[data-testid=age]`).Text(); r.StatusCode != http.StatusOK || age != "checked 3 min ago" {
		t.Errorf("the queue three minutes later: %d %q", r.StatusCode, age)
	}
	if got := home(b); got != "Parcels as the service said them: checked 3 min ago." {
		t.Errorf("home age three minutes later %q", got)
	}
	if got := home(env.SignedIn(identity.Agent)); got != "" {
		t.Errorf("the returns desk's home speaks of parcels: %q", got)
	}
}
