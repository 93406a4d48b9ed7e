package web_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/storage"
)

// slowClaimEnv is claimEnv whose upstream calls give up after callLimit, so
// the sandbox's faults can lose a create's answer.
func slowClaimEnv(t *testing.T) *apptest.Env {
	t.Helper()
	return apptest.StartOptions(t, apptest.Options{CachedPoints: true, UpstreamTimeout: callLimit, Settle: settle,
		Prepare: (*apptest.Env).DeliverDemoOrders})
}

// claimCommission is the commission a claim's status page follows.
func claimCommission(t *testing.T, env *apptest.Env, status string) storage.Commission {
	t.Helper()
	ctx := context.Background()
	c, err := env.ClaimByStatus(status)
	if err != nil || c.CommissionID == nil {
		t.Fatalf("claim %+v %v", c, err)
	}
	com, err := env.App.DB.CommissionByID(ctx, *c.CommissionID)
	if err != nil {
		t.Fatal(err)
	}
	return com
}

// confirmedOnce asserts that a claim's commission is created once at the
// service, has one intake confirmation and one mail of it (recorded, and
// caught by the mail server once the pollers sent it), and that no create
// attempt of it is left open.
// statusLinkIn finds a status page's path in a mail's text.
var statusLinkIn = regexp.MustCompile(`/claim/status/[A-Za-z0-9_-]+`)

// claimOf is the claim whose status page status is.
func claimOf(t *testing.T, env *apptest.Env, status string) storage.CustomerClaim {
	t.Helper()
	c, err := env.ClaimByStatus(status)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func confirmedOnce(t *testing.T, env *apptest.Env, status string) {
	t.Helper()
	ctx := context.Background()
	com := claimCommission(t, env, status)
	if at := commissionsAtService(t, env, com); com.State != storage.StateCreated || len(at) != 1 || *com.RemoteID != at[0].ID {
		t.Fatalf("commission %s at the service %d times", com.State, len(at))
	}
	docs, err := env.App.DB.DocumentsOf(ctx, com.ID)
	if err != nil || len(docs) != 1 || docs[0].Kind != storage.DocIntake {
		t.Fatalf("confirmations %+v %v, want one intake", docs, err)
	}
	mails := claimMails(t, env, "confirmation")
	if len(mails) != 1 || mails[0].EventKey != "confirmation:"+itoa(docs[0].ID) || mails[0].To != "jana@example.cz" {
		t.Fatalf("%d confirmation mails, want one to the customer", len(mails))
	}
	// The mail's status link has a key of its own that opens the same claim.
	link := statusLinkIn.FindString(mails[0].Text)
	if mailed, err := env.ClaimByStatus(link); err != nil || link == "" || mailed.ID != claimOf(t, env, status).ID {
		t.Fatalf("the confirmation mail's status link %q opens %v (%v), not the claim", link, mailed.ID, err)
	}
	caught := 0
	for _, m := range env.App.Catcher.All() {
		if strings.Contains(m.Subject, com.Number) {
			caught++
		}
	}
	if caught != 1 {
		t.Errorf("the mail server caught %d mails of commission %s, want 1", caught, com.Number)
	}
	attempts, err := env.App.DB.CommissionAttempts(ctx, com.ID)
	if err != nil || len(attempts) != 1 || attempts[0].Outcome == storage.AttemptOpen {
		t.Errorf("attempts %+v %v, want one, settled", attempts, err)
	}
}

// A claim whose create answered nothing is confirmed when its commission is
// found at the service: at once when the service has it already, or when
// the reconciler finds it after the deadline. Reconciling, advancing the
// claim and checking again confirm nothing twice.
func TestClaimConfirmedWhenItsCommissionIsFound(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		fault map[string]any
		later bool // found only by the reconciler
	}{
		{"the answer dropped, found at once", map[string]any{"drop_after_rate": 1, "count": 1}, false},
		{"the answer too slow, found by the reconciler", map[string]any{"latency_ms": slow.Milliseconds(), "count": 1}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := slowClaimEnv(t)
			ctx := context.Background()
			env.Sandbox.Fault("/returns/api/v1/commissions/create", tc.fault)
			status := fileClaim(t, env)
			com := claimCommission(t, env, status)
			if tc.later {
				if com.State != storage.StateUnknown {
					t.Fatalf("a create cut off by its time limit is %s", com.State)
				}
				if docs, _ := env.App.DB.DocumentsOf(ctx, com.ID); len(docs) != 0 {
					t.Fatalf("%d confirmations before the commission is found", len(docs))
				}
				waitCommissionSettled(t, env, commissionPathOf(com.ID))
				if err := env.App.Bench.ReconcileAll(ctx); err != nil {
					t.Fatal(err)
				}
			}
			for range 2 {
				if err := env.App.Bench.ReconcileAll(ctx); err != nil {
					t.Fatal(err)
				}
				if _, err := env.App.Bench.Reconcile(ctx, com.ID); err != nil {
					t.Fatal(err)
				}
				env.App.Jobs.Cycle(ctx)
			}
			confirmedOnce(t, env, status)
		})
	}
}
