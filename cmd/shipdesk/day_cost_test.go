package main

import (
	"database/sql"
	"net/http"
	"testing"
	"time"

	"shipdesk/storage/pgtest"
)

// What one refresh of each kind of page costs the database and the server's
// CPU, measured on a `serve` without pollers or batches (nothing else
// writes), one refresh after another, beside a window in which nothing is
// asked: the difference is the pages'.
//
// The statements are counted on the wire, by the tests' proxy in front of
// PostgreSQL that the quiet server's connections go through (the same
// counter the HTTP tests use).

// statsFlush is how long a PostgreSQL backend may hold its counts before it
// publishes them (at most once a second while it is busy), with a margin:
// the day's transactions a second are read from the database's own counts.
const statsFlush = 1500 * time.Millisecond

// transactions is the number of transactions the test database has seen.
func transactions(tb testing.TB, db *sql.DB) int64 {
	tb.Helper()
	var n int64
	err := db.QueryRow(`SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()`).Scan(&n)
	if err != nil {
		tb.Fatal(err)
	}
	return n
}

// costWindow is what one window cost the database and the server.
type costWindow struct {
	statements int64
	cpu        time.Duration
	wall       time.Duration
	asked      int
}

// measureCost runs ask (or nothing, when nil) over d and returns what the
// window cost.
func measureCost(tb testing.TB, proxy *pgtest.Proxy, pid int, d time.Duration, ask func()) costWindow {
	tb.Helper()
	s0, cpu0, start := proxy.Statements(), processCPU(tb, pid), time.Now()
	w := costWindow{}
	if ask == nil {
		time.Sleep(d)
	}
	for end := start.Add(d); ask != nil && time.Now().Before(end); w.asked++ {
		ask()
	}
	w.statements, w.cpu, w.wall = proxy.Statements()-s0, processCPU(tb, pid)-cpu0, time.Since(start)
	return w
}

// refreshCost is one refresh's share of the database and the CPU.
type refreshCost struct {
	statements float64
	cpu        time.Duration
}

// costPerRefresh measures each page's refresh (one page of each kind, on
// the quiet server pid) against a window with no requests.
func costPerRefresh(tb testing.TB, proxy *pgtest.Proxy, pid int, pages []*openPage) map[string]refreshCost {
	tb.Helper()
	idle := measureCost(tb, proxy, pid, 3*time.Second, nil)
	idleStatements := float64(idle.statements) / idle.wall.Seconds()
	idleCPU := float64(idle.cpu) / float64(idle.wall)
	out := map[string]refreshCost{}
	for _, p := range pages {
		w := measureCost(tb, proxy, pid, 2*time.Second, func() {
			status, _, err := p.refresh()
			if err != nil || (status != http.StatusOK && status != http.StatusNoContent) {
				tb.Fatalf("%s: GET %s: %d %v", p.kind.name, p.part.url, status, err)
			}
		})
		n := float64(w.asked)
		out[p.kind.name] = refreshCost{
			statements: (float64(w.statements) - idleStatements*w.wall.Seconds()) / n,
			cpu:        time.Duration((float64(w.cpu) - idleCPU*float64(w.wall)) / n),
		}
	}
	return out
}
