package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"shipdesk/storage/pgtest"
)

// BenchmarkDayAtTheDesk is a day at the desk against a real `shipdesk serve`
// (the binary built from this tree, its pollers and the sandbox in its own
// process), driven over HTTP on 127.0.0.1 only, so the same file measures
// any build of the dashboard side by side:
//
//   - 200 open pages that refresh themselves: shipment pages, the shipments
//     list (the shipping desk's latest), the tracking list, the print queue,
//     a batch's page and home, each asking for its live part as htmx does
//     (the hx-get and HX-Request headers its HTML gives it). The first half
//     of the day each page asks on its own hx-trigger cadence, the second
//     half every 0.5–1.5 s (the rush);
//   - 10 clerks going through compare → order → print at a person's pace,
//     on the same sessions as their pages;
//   - the pollers (labels every 10 s, tracking every 30 s) and a manager
//     moving the sandbox's clock on every 15 s, so labels become ready and
//     parcels move;
//   - a 5,000-row batch being priced.
//
// It reports each kind of page's p50 and p99 in both halves (goal p50 ≤ 10
// ms, p99 ≤ 50 ms), the statements each refresh costs (goal ≤ 2, the
// session's read included; measured after the day on a quiet serve, see
// day_cost_test.go), serve's CPU share over the day and the pages' part of
// it, serve's peak RSS (goal ≤ 100 MiB), and the clerks' steps. Goals are
// reported, not asserted. SHIPDESK_DAY_SECONDS sets the day's length (60 s).
func BenchmarkDayAtTheDesk(b *testing.B) {
	for range b.N {
		dayAtTheDesk(b)
	}
}

const (
	dayClerks    = 10
	dayBatchRows = 5000
	dayPassword  = "a-day-at-the-desk-password"
)

// dayKinds are the open pages: 200 in all.
func dayKinds() []*pageKind {
	return []*pageKind{
		{name: "shipment", id: "label-box", open: 60},
		{name: "shipments-list", path: "/shipping", id: "recent-live", open: 30},
		{name: "tracking-list", path: "/tracking", id: "tracking-rows", open: 30},
		{name: "print-queue", path: "/shipping/print", id: "print-live", open: 30},
		{name: "batch", id: "batch-progress", open: 20},
		{name: "home", path: "/", id: "home-live", open: 30},
	}
}

func daySeconds() time.Duration {
	if n, err := strconv.Atoi(os.Getenv("SHIPDESK_DAY_SECONDS")); err == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return time.Minute
}

func dayAtTheDesk(b *testing.B) {
	bin := goBuild(b, filepath.Join(b.TempDir(), "shipdesk"), ".")
	dbURL := pgtest.URL(b)
	db, err := sql.Open("postgres", dbURL)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	addDayUsers(b, dbURL)
	env := []string{"SESSION_KEY=" + strings.Repeat("d", 40), "SHIPDESK_LANG=en",
		"SHIPDESK_LABEL_EVERY=10s", "SHIPDESK_TRACK_EVERY=30s", "SHIPDESK_JOBS_TICK=5s"}
	serve := startServer(b, bin, env, "serve", "--addr", "127.0.0.1:0", "--database-url", dbURL, "--var-dir", b.TempDir(), "--seed-demo")
	pid := serve.cmd.Process.Pid
	clerks := make([]*browser, dayClerks)
	for i := range clerks {
		clerks[i] = signInBrowser(b, serve.url, fmt.Sprintf("clerk%02d", i+1), dayPassword)
	}
	boss := signInBrowser(b, serve.url, "boss", dayPassword)

	// Before the day: each clerk has ordered two shipments (their pages are
	// the open shipment pages), the clock has moved on so some labels are
	// ready, and the day's file has been imported.
	steps := map[string]*latencies{}
	for _, s := range clerkSteps {
		steps[s] = &latencies{}
	}
	shipments := make([]string, 0, 2*dayClerks)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, c := range clerks {
		wg.Go(func() {
			for k := range 2 {
				page, err := clerkRound(c, 1000+10*i+k, steps, func() {})
				if err != nil || page == "" {
					b.Errorf("clerk %d before the day: %v", i+1, err)
					return
				}
				mu.Lock()
				shipments = append(shipments, page)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(shipments) == 0 {
		b.Fatalf("no shipment ordered before the day:\n%s", tailOf(bin+".log"))
	}
	if err := advanceClock(boss, 10); err != nil {
		b.Fatal(err)
	}
	batch := uploadBatch(b, clerks[0], dayBatchRows)
	pages := openPages(b, serve.url, clerks, shipments, batch)

	// The day.
	for _, s := range clerkSteps {
		steps[s] = &latencies{}
	}
	day := daySeconds()
	stop := make(chan struct{})
	people := startPeople(clerks, boss, steps, stop)
	x0, cpu0, self0, start := transactions(b, db), processCPU(b, pid), selfCPU(), time.Now()
	own := keepOpen(pages, ownPace, day/2)
	rush := keepOpen(pages, rushPace, day-day/2)
	cpu, self, wall := processCPU(b, pid)-cpu0, selfCPU()-self0, time.Since(start)
	rss := peakRSS(b, pid)
	load := loadAverage()
	close(stop)
	people.Wait()
	// The pages alone: the same 200 at the rush's pace with the clerks gone
	// and the batch's pricing stopped (the pollers still run).
	stopPricingAll(b, db)
	alone := keepOpen(pages, rushPace, day/4)
	time.Sleep(statsFlush)
	xacts := transactions(b, db) - x0
	priced := pricedRows(b, db)

	// After the day: what one refresh of each kind costs, on a serve of its
	// own without pollers, the batch's pricing stopped.
	stopPricingAll(b, db)
	stopServer(b, serve)
	stopPricingAll(b, db) // the rows the stopped instance still held
	proxy := pgtest.StartProxy(b)
	quiet := startServer(b, bin, append(env, "SHIPDESK_JOBS=false"), "serve", "--addr", "127.0.0.1:0",
		"--database-url", proxy.URLOf(databaseName(b, dbURL)), "--var-dir", b.TempDir())
	one := signInBrowser(b, quiet.url, "clerk01", dayPassword)
	var each []*openPage
	for _, k := range dayKinds() {
		for _, p := range pages {
			if p.kind.name == k.name {
				each = append(each, &openPage{kind: p.kind, part: p.part, br: one, base: quiet.url})
				break
			}
		}
	}
	costs := costPerRefresh(b, proxy, quiet.cmd.Process.Pid, each)

	r := dayReport{b: b, pages: pages, own: own, rush: rush, alone: alone, costs: costs, steps: steps, half: day / 2,
		cpu: cpu, self: self, wall: wall, rss: rss, xacts: xacts, priced: priced, load: load}
	r.print()
}

// databaseName is the name of the database dbURL names.
func databaseName(tb testing.TB, dbURL string) string {
	tb.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		tb.Fatal(err)
	}
	return strings.TrimPrefix(u.Path, "/")
}

// addDayUsers adds the clerks and the manager with the command's own `user add`.
func addDayUsers(tb testing.TB, dbURL string) {
	tb.Helper()
	ctx := context.Background()
	if code := run(ctx, []string{"migrate", "up", "--database-url", dbURL}, nil, io.Discard, io.Discard); code != 0 {
		tb.Fatalf("migrate: exit %d", code)
	}
	users := map[string]string{"boss": "manager"}
	for i := range dayClerks {
		users[fmt.Sprintf("clerk%02d", i+1)] = "clerk"
	}
	for name, role := range users {
		var out bytes.Buffer
		if code := run(ctx, []string{"user", "add", "--database-url", dbURL, "--username", name, "--role", role, "--password-stdin"},
			strings.NewReader(dayPassword+"\n"), &out, &out); code != 0 {
			tb.Fatalf("user add %s: exit %d: %s", name, code, out.String())
		}
	}
}

// openPages opens the day's 200 pages, the clerks' browsers taking turns,
// and reads each one's live part from its HTML.
func openPages(tb testing.TB, base string, clerks []*browser, shipments []string, batch string) []*openPage {
	tb.Helper()
	var pages []*openPage
	parts := map[string]livePart{}
	for _, k := range dayKinds() {
		for j := range k.open {
			path := k.path
			switch k.name {
			case "shipment":
				path = shipments[j%len(shipments)]
			case "batch":
				path = batch
			}
			br := clerks[j%len(clerks)]
			part, ok := parts[path]
			if !ok {
				status, body, err := br.get(path)
				if err != nil || status != 200 {
					tb.Fatalf("GET %s: %d %v", path, status, err)
				}
				part = findLive(tb, body, path, k.id)
				parts[path] = part
			}
			kind := *k
			kind.path = path
			pages = append(pages, &openPage{kind: &kind, part: part, br: br, base: base})
		}
	}
	return pages
}

// startPeople starts the clerks' rounds and the manager's clock until stop.
func startPeople(clerks []*browser, boss *browser, steps map[string]*latencies, stop chan struct{}) *sync.WaitGroup {
	var wg sync.WaitGroup
	for i, c := range clerks {
		wg.Go(func() {
			for k := 0; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := clerkRound(c, 100*i+k, steps, thinking); err != nil {
					thinking()
				}
			}
		})
	}
	wg.Go(func() {
		t := time.NewTicker(15 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				_ = advanceClock(boss, 10)
			}
		}
	})
	return &wg
}

// pricedRows is how many of the batch's rows were priced.
func pricedRows(tb testing.TB, db *sql.DB) int {
	tb.Helper()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM batch_rows WHERE state = 'priced'`).Scan(&n); err != nil {
		tb.Fatal(err)
	}
	return n
}

// stopPricingAll puts the rows being priced back to ready, so no worker
// takes them up again: the cost of the pages is measured alone.
func stopPricingAll(tb testing.TB, db *sql.DB) {
	tb.Helper()
	if _, err := db.Exec(`UPDATE batch_rows SET state = 'ready', leased_at = NULL WHERE state = 'pricing'`); err != nil {
		tb.Fatal(err)
	}
}

// stopServer stops a server as a stop of the service would and waits until
// it has gone (startServer's own wait collects it).
func stopServer(tb testing.TB, s server) {
	tb.Helper()
	pid := s.cmd.Process.Pid
	_ = s.cmd.Process.Signal(os.Interrupt)
	for deadline := time.Now().Add(30 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			_ = s.cmd.Process.Kill()
		}
	}
}

// selfCPU is the CPU time this process (the load generator) has used.
func selfCPU() time.Duration {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// loadAverage is the machine's load over the last minute.
func loadAverage() float64 {
	data, _ := os.ReadFile("/proc/loadavg")
	var l float64
	_, _ = fmt.Sscan(string(data), &l)
	return l
}

// tailOf is the end of a log file, for a failure's message.
func tailOf(name string) string {
	data, _ := os.ReadFile(name)
	return string(data[max(0, len(data)-4000):])
}
