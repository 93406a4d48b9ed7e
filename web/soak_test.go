package web_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/client/returns"
	"shipdesk/client/shipping"
	"shipdesk/identity"
	"shipdesk/requestkey"
)

// The soak test: many orders and commissions through the real handlers while
// the service is slow (random latency up to 1.5× the upstream time limit) and
// drops 30 % of its answers (half before, half after processing), while
// impatient staff press "again" and "check" and the background reconciler
// ticks. In the end the service holds exactly one order per intent, every
// local record is bound to it, and none is lost.
func TestSoakExactlyOnceUnderASlowDroppingService(t *testing.T) {
	// Alone, not beside the package's other tests: it counts rounds against
	// time limits that a shared core would stretch.
	const (
		shipments   = 300
		commissions = 100
		workers     = 8
		limit       = 300 * time.Millisecond
	)
	ctx := context.Background()
	env, clerk := impatientDesk(t, apptest.Options{UpstreamTimeout: limit, Settle: limit})
	if err := env.App.Bench.RefreshProducts(ctx); err != nil {
		t.Fatal(err)
	}
	agent := env.SignedIn(identity.Agent)
	_, base := order(t, clerk, shipmentForm(t, env), "UPS") // offers compared before the service turns bad
	claim := commissionForm(t, env)
	bad := map[string]any{"latency_max_ms": (limit * 3 / 2).Milliseconds(), "drop_rate": 0.15, "drop_after_rate": 0.15}
	for _, path := range []string{"/api/v1/shipments/create", "/returns/api/v1/commissions/create"} {
		env.Sandbox.Fault(path, bad)
	}

	stop := make(chan struct{})
	var background sync.WaitGroup
	var presses atomic.Int64
	tick := func(every time.Duration, do func()) {
		background.Add(1)
		go func() {
			defer background.Done()
			for {
				select {
				case <-stop:
					return
				case <-time.After(every):
					do()
				}
			}
		}()
	}
	// The background reconciler, at a short interval.
	tick(100*time.Millisecond, func() {
		_ = env.App.Desk.ReconcileAll(ctx)
		_ = env.App.Bench.ReconcileAll(ctx)
	})
	// Impatient staff: "again" and "check" on anything not settled yet.
	rng := rand.New(rand.NewPCG(1, 2))
	var rngMu sync.Mutex
	tick(20*time.Millisecond, func() {
		rngMu.Lock()
		action := []string{"again", "check"}[rng.IntN(2)]
		rngMu.Unlock()
		for _, q := range []struct{ page, sql string }{
			{"/shipping/shipments/%d/", `SELECT id FROM shipments WHERE state <> 'created' ORDER BY random() LIMIT 1`},
			{"/returns/commissions/%d/", `SELECT id FROM commissions WHERE state <> 'created' ORDER BY random() LIMIT 1`},
		} {
			var id int64
			if env.App.DB.SQL().QueryRow(q.sql).Scan(&id) == nil {
				b := clerk
				if q.page[1] == 'r' {
					b = agent
				}
				b.PostForm(fmt.Sprintf(q.page, id)+action, url.Values{})
				presses.Add(1)
			}
		}
	})

	// The work itself: every order and commission posted once, by several staff at once.
	jobs := make(chan int)
	var work sync.WaitGroup
	var retried atomic.Int64 // posts sent again after "try again"
	for range workers {
		work.Add(1)
		go func() {
			defer work.Done()
			for i := range jobs {
				if i < shipments {
					form := with(base, "key", requestkey.New(), "reference", fmt.Sprintf("SOAK-%03d", i))
					if r := clerk.PostForm("/shipping/new/order", form); r.StatusCode != 303 {
						t.Errorf("order %d: %d %s", i, r.StatusCode, problemsOf(r.Body))
					}
					continue
				}
				form := map[string]string{}
				for k, v := range claim {
					form[k] = v
				}
				form["key"] = requestkey.New()
				// A step before the intent (the proof's upload) may find the
				// loaded service too slow: the page says nothing was lost and
				// to try again, and the agent does, with the same form.
				r := postMultipart(t, env, agent, form, "receipt.pdf", pdfBytes)
				for try := 0; r.StatusCode == 503 && try < 5; try++ {
					retried.Add(1)
					r = postMultipart(t, env, agent, form, "receipt.pdf", pdfBytes)
				}
				if r.StatusCode != 303 {
					t.Errorf("commission %d: %d %s", i, r.StatusCode, problemsOf(r.Body))
				}
			}
		}()
	}
	started := time.Now()
	for i := range shipments + commissions {
		jobs <- i
	}
	close(jobs)
	work.Wait()
	posted := time.Since(started)

	// The service recovers; whatever was proved missing is sent again until
	// every intent has its order.
	env.Sandbox.Control("DELETE", "/sandbox/faults", nil)
	for round := 0; ; round++ {
		var open int
		if err := env.App.DB.SQL().QueryRow(`SELECT (SELECT count(*) FROM shipments WHERE state <> 'created') +
    (SELECT count(*) FROM commissions WHERE state <> 'created')`).Scan(&open); err != nil {
			t.Fatal(err)
		}
		if open == 0 {
			break
		}
		if round == 50 {
			t.Fatalf("%d orders still open after %d rounds", open, round)
		}
		time.Sleep(limit)
	}
	close(stop)
	background.Wait()

	// One order per intent at the service, each bound to its local record.
	atSvc := map[string][]string{}
	held, err := env.App.Upstream.Shipping.ListAll(ctx, shipping.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range held {
		atSvc[s.Reference] = append(atSvc[s.Reference], s.TrackingNumber)
	}
	locals, err := env.App.DB.RecentShipments(ctx, shipments+10)
	if err != nil {
		t.Fatal(err)
	}
	bound, duplicates := 0, 0
	for _, s := range locals {
		got := atSvc[s.Reference]
		duplicates += len(s.Duplicates)
		if len(got) == 1 && got[0] == s.Tracking() && len(s.Duplicates) == 0 {
			bound++
			continue
		}
		t.Errorf("shipment %d (%s, %s): the service holds %v, duplicates %v", s.ID, s.Reference, s.State, got, s.Duplicates)
	}
	if len(locals) != shipments || len(atSvc) != shipments {
		t.Errorf("%d local shipments, %d references at the service, want %d each", len(locals), len(atSvc), shipments)
	}

	remote, err := env.App.Upstream.Returns.List(ctx, returns.ListQuery{Customer: claim["customer_email"], PerPage: 100})
	if err != nil {
		t.Fatal(err)
	}
	byRef := map[string][]int64{}
	for page := 1; ; page++ {
		for _, c := range remote.Commissions {
			byRef[c.Reference] = append(byRef[c.Reference], c.ID)
		}
		if page >= remote.Pages {
			break
		}
		if remote, err = env.App.Upstream.Returns.List(ctx, returns.ListQuery{Customer: claim["customer_email"], Page: page + 1, PerPage: 100}); err != nil {
			t.Fatal(err)
		}
	}
	rows, err := env.App.DB.SQL().Query(`SELECT id, reference, remote_id, cardinality(duplicates) FROM commissions`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	localCommissions, boundCommissions := 0, 0
	for rows.Next() {
		var (
			id, dups int64
			ref      string
			remoteID *int64
		)
		if err := rows.Scan(&id, &ref, &remoteID, &dups); err != nil {
			t.Fatal(err)
		}
		localCommissions++
		got := byRef[ref]
		if len(got) == 1 && remoteID != nil && got[0] == *remoteID && dups == 0 {
			boundCommissions++
			continue
		}
		t.Errorf("commission %d (%s): the service holds %v, bound to %v, %d duplicates", id, ref, got, remoteID, dups)
	}
	if localCommissions != commissions || len(byRef) != commissions {
		t.Errorf("%d local commissions, %d references at the service, want %d each", localCommissions, len(byRef), commissions)
	}
	summary := []string{
		fmt.Sprintf("soak: posted %d orders and %d commissions in %s under latency ≤ %s and 30 %% drops; %d again/check presses, %d posts sent again after “try again”",
			shipments, commissions, posted.Round(time.Millisecond), limit*3/2, presses.Load(), retried.Load()),
		fmt.Sprintf("soak: shipments: %d intents, %d references at the service, %d bound to exactly one, %d duplicates, create calls %d",
			len(locals), len(atSvc), bound, duplicates, countCalls(env, "shipments/create")),
		fmt.Sprintf("soak: commissions: %d intents, %d references at the service, %d bound to exactly one, create calls %d",
			localCommissions, len(byRef), boundCommissions, countCalls(env, "commissions/create")),
	}
	for _, line := range summary {
		t.Log(line)
	}
	// make test prints this after the suite: the counts are the point of the run.
	if err := os.MkdirAll("../var/reports", 0o755); err == nil {
		_ = os.WriteFile("../var/reports/soak.txt", []byte(strings.Join(summary, "\n")+"\n"), 0o644)
	}
}
