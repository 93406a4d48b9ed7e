package web_test

import (
	"net/http"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// The parts a live page asks for again are guarded as their pages: another
// area's role is refused, an anonymous request goes to sign in.
func TestLiveFragmentsRefuseOtherRolesAndAnonymous(t *testing.T) {
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
