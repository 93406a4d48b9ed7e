package web_test

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage/pgtest"
)

// livePage is one kind of open page: the part its polling asks for and how
// often (its htmx "every").
type livePage struct {
	kind    string
	path    func(i int) string
	every   time.Duration
	trigger string // the id of the element whose polling asks (htmx's HX-Trigger)
}

// trackingPath is the service's tracking call, batched by the pollers.
const trackingPath = "/api/v1/shipments/tracking"

// BenchmarkLiveRefresh measures what keeping 200 open pages current costs:
// 40 each of a shipment's page (two pages a shipment), the tracking list,
// the shipping desk, the print queue and a batch's page, each polled by its
// own goroutine on the page's own cadence, while the pollers run in the
// background as in serve. Windows with the pages and without them take
// turns; the difference is what the pages cost. Statements are counted on
// the wire by a proxy in front of PostgreSQL, service calls at the sandbox. SHIPDESK_BENCH_SECONDS sets each window
// (20 s by default).
func BenchmarkLiveRefresh(b *testing.B) {
	const pollEvery = 5 * time.Second // the pollers' interval: labels and tracking
	db, proxy := dbThroughProxy(b)
	sb := sandboxtest.StartCounting(b)
	env := apptest.StartOnOptions(b, db, sb, apptest.Options{Pollers: pollEvery})
	_, clerk := deskEnvOn(b, env)
	ctx := context.Background()
	if err := env.App.Desk.SeedDemo(ctx); err != nil {
		b.Fatal(err)
	}
	if _, err := env.App.Desk.RefreshPoints(ctx); err != nil {
		b.Fatal(err)
	}
	shipments := placed(b, env, clerk, 20)
	batch := runBatch(b, env, clerk, "LIVE", 20).id
	env.Sandbox.Advance(3 * time.Hour) // labels made, the parcels on their way
	env.LabelsFetched()
	version := htmlOf(b, clerk.Get("/shipping/print").Body).Find(`input[name=v]`).AttrOr("value", "")
	pages := []livePage{
		{"shipment page", func(i int) string { return shipments[i%len(shipments)] + "/status" }, 4 * time.Second, "label-box"},
		{"tracking list", func(int) string { return "/tracking" }, 15 * time.Second, "tracking-rows"},
		{"shipping desk", func(int) string { return "/shipping" }, 15 * time.Second, "recent-live"},
		{"print queue", func(int) string { return "/shipping/print/live?v=" + url.QueryEscape(version) }, 5 * time.Second, "print-live"},
		{"batch page", func(int) string { return fmt.Sprintf("/shipping/batches/%d/progress", batch) }, 4 * time.Second, "batch-progress"},
	}
	const perKind = 40
	window := liveWindow()
	moving := movingShipments(b, env)
	for b.Loop() {
		perRefresh(b, env, proxy, pages, clerk)
		quiet := liveRun(b, env, proxy, sb, window, nil, clerk)
		busy := liveRun(b, env, proxy, sb, window, pages, clerk)
		open := perKind * len(pages)
		perMinute := func(n int) float64 { return float64(n) * float64(time.Minute) / float64(window) }
		byPages := busy.statements - quiet.statements
		b.Logf("pollers alone: %d statements, %d calls (%d tracking); with %d pages: %d statements, %d calls (%d tracking), %d refreshes",
			quiet.statements, quiet.calls, quiet.tracking, open, busy.statements, busy.calls, busy.tracking, busy.refreshes)
		for _, k := range busy.top(14) {
			b.Logf("%6d × %.140s", busy.texts[k], strings.Join(strings.Fields(k), " "))
		}
		// The goals: a statement a refresh at most, the pollers' tracking
		// calls ⌈N / batch⌉ an interval whatever the pages, and no service
		// calls caused by the pages.
		intervals := float64(window) / float64(pollEvery)
		b.ReportMetric(float64(byPages)/float64(busy.refreshes), "statements/refresh")
		b.ReportMetric(float64(busy.tracking)/intervals/float64((moving+99)/100), "tracking-calls/ceil(N/batch)")
		b.ReportMetric(float64(busy.calls-quiet.calls), "calls-by-pages")
		b.ReportMetric(100*busy.cpu, "cpu-%-with-pages")
		b.ReportMetric(100*quiet.cpu, "cpu-%-without")
		b.Logf("%d open pages: %.0f statements a minute with the pages, %.0f without; statement median %s, p99 %s; load average %.2f",
			open, perMinute(busy.statements), perMinute(quiet.statements), busy.median(), busy.p99(), loadAverage())
	}
}

// liveWindow is how long each window runs (SHIPDESK_BENCH_SECONDS, 20 s).
func liveWindow() time.Duration {
	if n, err := strconv.Atoi(os.Getenv("SHIPDESK_BENCH_SECONDS")); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return 20 * time.Second
}

// liveCounts are what one window cost.
type liveCounts struct {
	statements, refreshes int
	calls, tracking       int64
	texts                 pgtest.Statements
	took                  []time.Duration
	cpu                   float64 // of the process's share of the machine
}

func (c liveCounts) median() time.Duration { return c.pct(0.5) }
func (c liveCounts) p99() time.Duration    { return c.pct(0.99) }
func (c liveCounts) pct(p float64) time.Duration {
	if len(c.took) == 0 {
		return 0
	}
	return c.took[int(p*float64(len(c.took)-1))]
}

// top are the statements sent most often.
func (c liveCounts) top(n int) []string {
	keys := make([]string, 0, len(c.texts))
	for k := range c.texts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(c.texts[b], c.texts[a]) })
	return keys[:min(n, len(keys))]
}

// liveRun keeps the pages open for the window, perKind of each kind, each
// asking for its live part on its cadence from a moment of its own; no
// pages: the pollers alone.
func liveRun(b *testing.B, env *apptest.Env, proxy *pgtest.Proxy, sb *sandboxtest.Env, window time.Duration, pages []livePage, br *apptest.Browser) liveCounts {
	b.Helper()
	const perKind = 40
	proxy.Take()
	calls0, track0, cpu0, start := sb.AllRequests(), sb.Requests(trackingPath), cpuTime(), time.Now()
	var refreshes atomic.Int64
	var wg sync.WaitGroup
	for _, p := range pages {
		for i := range perKind {
			wg.Go(func() {
				next := start.Add(time.Duration(rand.Int64N(int64(p.every))))
				for end := start.Add(window); next.Before(end); next = next.Add(p.every) {
					time.Sleep(time.Until(next))
					if r := p.ask(env, br, i); r.StatusCode != 200 && r.StatusCode != 204 {
						b.Errorf("%s %s: %d", p.kind, p.path(i), r.StatusCode)
						return
					}
					refreshes.Add(1)
				}
			})
		}
	}
	wg.Wait()
	time.Sleep(time.Until(start.Add(window)))
	wall := time.Since(start)
	c := liveCounts{refreshes: int(refreshes.Load()), calls: sb.AllRequests() - calls0, tracking: sb.Requests(trackingPath) - track0,
		cpu: float64(cpuTime()-cpu0) / float64(wall) / float64(runtime.NumCPU())}
	c.texts, c.took = proxy.Take()
	c.statements = c.texts.Count()
	return c
}

// movingShipments is how many shipments the tracking poller follows.
func movingShipments(b *testing.B, env *apptest.Env) int {
	b.Helper()
	var n int
	if err := env.App.DB.SQL().QueryRow(`SELECT count(*) FROM shipments WHERE state = 'created' AND NOT tracking_done`).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// perRefresh asks for each kind's live part a few times, one after another,
// and logs the statements each refresh sent. The pollers may add some to
// any one refresh: each kind's figure is the fewest of its refreshes.
func perRefresh(b *testing.B, env *apptest.Env, proxy *pgtest.Proxy, pages []livePage, br *apptest.Browser) {
	b.Helper()
	const times = 5
	for _, p := range pages {
		fewest := -1
		all := map[string]int{}
		for i := range times {
			proxy.Take()
			p.ask(env, br, i)
			texts, _ := proxy.Take()
			n := texts.Count()
			for k, c := range texts {
				all[k] += c
			}
			if fewest < 0 || n < fewest {
				fewest = n
			}
		}
		b.Logf("%s: %d statements a refresh (the fewest of %d)", p.kind, fewest, times)
		for k, c := range all {
			b.Logf("    %d × %.120s", c, strings.Join(strings.Fields(k), " "))
		}
	}
}

// ask is the i-th page's polling asking for its live part, as htmx asks.
func (p livePage) ask(env *apptest.Env, br *apptest.Browser, i int) apptest.Response {
	req, _ := http.NewRequest(http.MethodGet, env.URL+p.path(i), nil)
	req.Header.Set("HX-Request", "true")
	req.Header.Set("HX-Trigger", p.trigger)
	return br.Do(req)
}
