package web_test

import (
	"testing"
	"time"

	"shipdesk/app/apptest"
)

// A commission's page and its live part lease the commission (to read it from
// the service) only when it is due: the polls in between read what is
// stored, in one statement, and write nothing. Once due, one view reads it,
// however many follow.
func TestCommissionPagesLeaseOnlyWhenDue(t *testing.T) {
	t.Parallel()
	db, proxy := dbThroughProxy(t)
	env, agent := benchEnvOn(t, apptest.StartWith(t, db))
	page := newCommission(t, env, agent, nil)
	views := func() (leases int) {
		proxy.Take()
		for range 5 {
			for _, path := range []string{page, page + "/live"} {
				if r := agent.Get(path); r.StatusCode != 200 {
					t.Fatalf("GET %s: %d", path, r.StatusCode)
				}
			}
		}
		texts, _ := proxy.Take()
		return texts.Containing("UPDATE commissions SET leased_until")
	}
	views() // read from the service on its first showing, if due then
	if got := views(); got != 0 {
		t.Errorf("ten views of a commission not due a read made %d leases, want none", got)
	}
	// Its live part, polled, reads it in one statement. The session's read
	// is not the live part's: its own test counts it.
	proxy.Take()
	for range 10 {
		agent.Get(page + "/live")
	}
	texts, _ := proxy.Take()
	if statements := texts.Count("FROM staff_sessions"); statements != 10 {
		t.Errorf("ten polls of a commission's live part sent %d statements, want ten: %v", statements, texts)
	}
	env.Sandbox.Advance(24 * time.Hour) // past its next read
	if got := views(); got != 1 {
		t.Errorf("ten views of a commission due a read made %d leases, want one", got)
	}
}
