package storage_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// BenchmarkStatementRoundTrips runs the session check (a statement with
// parameters, as every page's reads are) through a pool that sends it in one
// round trip, as Open does, and through one that waits for the server to
// describe it first, as lib/pq does by default; on one connection each,
// taking turns. It prints the time a statement takes and the server
// process's CPU a statement, one way against the other.
func BenchmarkStatementRoundTrips(b *testing.B) {
	ctx := context.Background()
	_, url := pgtest.NewWithURL(b)
	one, err := storage.Open(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer one.Close()
	two, err := storage.OpenTwoRoundTrips(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	defer two.Close()
	u, err := one.CreateUser(ctx, "bench", identity.Clerk, "not-a-hash")
	if err != nil {
		b.Fatal(err)
	}
	token := []byte("a session token's hash, 32 bytes")
	if err := one.CreateSession(ctx, token, u.ID, time.Now().Add(time.Hour), "127.0.0.1", "bench"); err != nil {
		b.Fatal(err)
	}

	const perTurn, turns = 2000, 5
	type way struct {
		db   *storage.DB
		pid  int
		took time.Duration
		cpu  time.Duration
	}
	ways := []*way{{db: one}, {db: two}}
	for _, w := range ways {
		w.db.SQL().SetMaxOpenConns(1) // one server process, whose CPU is read
		if err := w.db.SQL().QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&w.pid); err != nil {
			b.Fatal(err)
		}
	}
	for range b.N {
		for range turns {
			for _, w := range ways {
				cpu, start := backendCPU(b, w.pid), time.Now()
				for range perTurn {
					if _, err := w.db.LiveSession(ctx, token, time.Hour); err != nil {
						b.Fatal(err)
					}
				}
				w.took += time.Since(start)
				w.cpu += backendCPU(b, w.pid) - cpu
			}
		}
	}
	n := time.Duration(b.N * turns * perTurn)
	b.ReportMetric(float64((ways[0].took / n).Nanoseconds()), "one-trip-ns/stmt")
	b.ReportMetric(float64((ways[1].took / n).Nanoseconds()), "two-trips-ns/stmt")
	b.ReportMetric(float64(ways[0].took)/float64(ways[1].took), "one/two-time")
	b.ReportMetric(float64(ways[0].cpu)/float64(ways[1].cpu), "one/two-server-cpu")
}

// backendCPU is the user and system time the server process pid has used,
// read from /proc (fields 14 and 15 of its stat, in ticks of 1/100 s).
func backendCPU(tb testing.TB, pid int) time.Duration {
	tb.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		tb.Fatal(err)
	}
	f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+2:]))
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		tb.Fatalf("/proc/%d/stat: %q", pid, stat)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
