package web_test

import (
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
)

// A commission's page and its live part claim the commission (to read it from
// the service) only when it is due: the polls in between read what is
// stored, in one statement, and write nothing. Once due, one view reads it,
// however many follow.
func TestCommissionPagesClaimOnlyWhenDue(t *testing.T) {
	t.Parallel()
	db, proxy := dbThroughProxy(t)
	env, agent := benchEnvOn(t, apptest.StartWith(t, db))
	page := newCommission(t, env, agent, nil)
	views := func() (claims int) {
		proxy.stats.take()
		for range 5 {
			for _, path := range []string{page, page + "/live"} {
				if r := agent.Get(path); r.StatusCode != 200 {
					t.Fatalf("GET %s: %d", path, r.StatusCode)
				}
			}
		}
		texts, _ := proxy.stats.take()
		for text, n := range texts {
			if strings.Contains(text, "UPDATE commissions SET claimed_until") {
				claims += n
			}
		}
		return claims
	}
	views() // read from the service on its first showing, if due then
	if got := views(); got != 0 {
		t.Errorf("ten views of a commission not due a read made %d claims, want none", got)
	}
	// Its live part, polled, reads it in one statement. The session's read
	// is not the live part's: its own test counts it.
	proxy.stats.take()
	for range 10 {
		agent.Get(page + "/live")
	}
	texts, _ := proxy.stats.take()
	statements := 0
	for text, n := range texts {
		if !strings.Contains(text, "FROM staff_sessions") {
			statements += n
		}
	}
	if statements != 10 {
		t.Errorf("ten polls of a commission's live part sent %d statements, want ten: %v", statements, texts)
	}
	env.Sandbox.Advance(24 * time.Hour) // past its next read
	if got := views(); got != 1 {
		t.Errorf("ten views of a commission due a read made %d claims, want one", got)
	}
}
