package web_test

import (
	"testing"
	"time"

	"shipdesk/identity"
)

// The reports count on the dashboard's clock, as the lists show: a claim
// settled today on that clock (four simulated days after the epoch, whatever
// today's date is on the wall) is in today's report, which by default ends
// today.
func TestReportsOnTheDashboardsClock(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	page := newCommission(t, env, b, nil)
	env.Sandbox.Advance(4 * 24 * time.Hour)
	moveTo(b, page, "processing")
	if r := moveTo(b, page, "outgoing", "resolution", "repaired", "reason", "Checked."); r.StatusCode != 303 {
		t.Fatalf("settle: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	manager := env.SignedIn(identity.Manager)
	if got := textOf(htmlOf(t, manager.Get("/reports").Body), "returns-resolved"); got != "1" {
		t.Errorf("the default report (the last 30 days to today) counts %q settled, want the one settled today", got)
	}
	today := env.App.Upstream.Now().Format("2006-01-02")
	if got := textOf(htmlOf(t, manager.Get("/reports?from="+today+"&to="+today).Body), "returns-resolved"); got != "1" {
		t.Errorf("today's report counts %q settled, want 1", got)
	}
}
