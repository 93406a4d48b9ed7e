package web_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/benchtab"
	"shipdesk/identity"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage/pgtest"
)

// livePage is one kind of open page: the part it asks for again and how
// many times a minute (its views.Live* cadence).
type livePage struct {
	kind      string
	path      func(i int) string
	perMinute int
}

// BenchmarkLiveRefresh measures what keeping 50 open pages current costs:
// the requests their polling makes, the database transactions those run and
// the calls to the service they cause, per page and minute. Ten pages each of
// a shipment, a commission, the shipments list, the shipping desk's latest
// shipments and the home page; the pollers run their own cycle beside them,
// as in serve. A minute of every page's polling is sent as fast as it goes.
func BenchmarkLiveRefresh(b *testing.B) {
	sb := sandboxtest.StartCounting(b)
	env := apptest.StartOn(b, pgtest.New(b), sb)
	_, clerk := deskEnvOn(b, env)
	ctx := context.Background()
	shipments := placed(b, env, clerk, 10)
	if err := env.App.Bench.SeedDemo(ctx); err != nil {
		b.Fatal(err)
	}
	env.Sandbox.Advance(3 * time.Hour)
	env.App.Jobs.Cycle(ctx) // the labels made, the tracking read: what serve's pollers do
	manager := env.SignedIn(identity.Manager)
	pages := []livePage{
		{"shipment", func(i int) string { return shipments[i%len(shipments)] + "/status" }, 15},
		{"commission", func(i int) string { return fmt.Sprintf("/returns/commissions/%d/live", 1+i%2) }, 15},
		{"tracking list", func(int) string { return "/tracking" }, 4},
		{"shipping desk", func(int) string { return "/shipping" }, 4},
		{"home", func(int) string { return "/" }, 2},
	}
	const perKind = 10
	upstream := sb.AllRequests
	for b.Loop() {
		x0, up0, start := transactions(b, env), upstream(), time.Now()
		requests := 0
		for _, p := range pages {
			for i := range perKind {
				for range p.perMinute {
					if r := manager.Get(p.path(i)); r.StatusCode != 200 {
						b.Fatalf("%s %s: %d", p.kind, p.path(i), r.StatusCode)
					}
					requests++
				}
			}
		}
		took := time.Since(start)
		x1, up1 := transactions(b, env), upstream()
		open := float64(perKind * len(pages))
		// The change feed's own pings run beside: counted apart over as long.
		idle := transactions(b, env)
		time.Sleep(took)
		feed := transactions(b, env) - idle
		queries := float64(x1-x0-feed) / open
		benchtab.Note(b, "live refresh, 50 open pages, per page and minute",
			benchtab.Figure{What: "requests", Value: float64(requests) / open, Unit: ""},
			benchtab.Figure{What: "database transactions", Value: queries, Unit: ""},
			benchtab.Figure{What: "upstream calls", Value: float64(up1-up0) / open, Unit: ""},
			benchtab.Duration("a minute of 50 pages served in", took))

		// The same ten shipments open on five pages each, all of them due:
		// each page asks for itself, the service is asked once a shipment.
		env.Sandbox.Advance(31 * time.Minute) // past the pollers' tracking interval
		due0 := upstream()
		for range 5 {
			for i := range shipments {
				if r := manager.Get(shipments[i] + "/status"); r.StatusCode != 200 {
					b.Fatalf("status %s: %d", shipments[i], r.StatusCode)
				}
			}
		}
		benchtab.Note(b, "live refresh, 10 due shipments each open on 5 pages",
			benchtab.Figure{What: "upstream calls per shipment", Value: float64(upstream()-due0) / float64(len(shipments)), Unit: ""},
			benchtab.Figure{What: "pages per shipment", Value: 5, Unit: ""})
	}
}

// transactions is how many transactions the test database has run; the
// statistics are read after they are flushed.
func transactions(b *testing.B, env *apptest.Env) int64 {
	b.Helper()
	time.Sleep(11 * time.Second) // each backend flushes its counts at most every 10 s when idle
	var n int64
	if err := env.App.DB.SQL().QueryRow(`SELECT pg_stat_clear_snapshot(), xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()`).Scan(new(any), &n); err != nil {
		b.Fatal(err)
	}
	return n
}
