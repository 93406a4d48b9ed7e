package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"shipdesk/desk/desktest"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage/pgtest"
)

// trackScale is the number of active shipments of the tracking benchmark;
// SHIPDESK_BENCH_TRACKED lowers it for a quick look.
func trackScale() int {
	if n, err := strconv.Atoi(os.Getenv("SHIPDESK_BENCH_TRACKED")); err == nil && n > 0 {
		return n
	}
	return 100_000
}

// jobsProcess is a `shipdesk jobs` in its own process, whose tracking cycles
// are read from its log.
type jobsProcess struct {
	cmd       *exec.Cmd
	name      string // its instance name in claims: host/pid
	mu        sync.Mutex
	shipments int // "tracking updated" lines summed
	calls     int
	failed    int
	cycles    int
	tail      []string // the last lines of its log
	ended     chan struct{}
}

var trackingUpdated = regexp.MustCompile(`msg="tracking updated" shipments=(\d+) calls=(\d+) failed=(\d+)`)

func startJobs(tb testing.TB, env []string) *jobsProcess {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "jobs")
	cmd.Env = append(os.Environ(), append([]string{asCommand + "=1"}, env...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	host, _ := os.Hostname()
	p := &jobsProcess{cmd: cmd, name: host + "/" + strconv.Itoa(cmd.Process.Pid), ended: make(chan struct{})}
	go func() {
		defer close(p.ended)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			p.mu.Lock()
			if m := trackingUpdated.FindStringSubmatch(line); m != nil {
				s, _ := strconv.Atoi(m[1])
				c, _ := strconv.Atoi(m[2])
				f, _ := strconv.Atoi(m[3])
				p.shipments, p.calls, p.failed, p.cycles = p.shipments+s, p.calls+c, p.failed+f, p.cycles+1
			}
			p.tail = append(p.tail, line)
			if len(p.tail) > 20 {
				p.tail = p.tail[1:]
			}
			p.mu.Unlock()
		}
	}()
	tb.Cleanup(func() { p.stop() })
	return p
}

// tracked reports whether the process has logged a tracking cycle.
func (p *jobsProcess) tracked() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cycles > 0
}

func (p *jobsProcess) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.tail, "\n")
}

// stop asks the process to end as a stop of the service would, and kills it
// when it does not within a few seconds.
func (p *jobsProcess) stop() {
	if p.cmd.ProcessState != nil {
		return
	}
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.ended:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
	}
	_ = p.cmd.Wait()
}

// BenchmarkTrackingAtScale: 100,000 active shipments, known to our database
// and to the sandbox, are refreshed once (one interval's work) by two
// `shipdesk jobs` processes sharing the work. The upstream tracking calls are
// counted where they arrive, at the sandbox, and held to ⌈N / batch⌉: claims
// of one kind are taken one after the other, so every call carries a full
// batch but the very last (storage.leaseDue). The time from starting the two
// processes until every shipment is recorded as refreshed is held to the
// tracking interval.
func BenchmarkTrackingAtScale(b *testing.B) {
	for range b.N {
		trackingAtScale(b)
	}
}

func trackingAtScale(b *testing.B) {
	b.StopTimer()
	const batch = 100
	const interval = 30 * time.Minute
	n := trackScale()
	ctx := context.Background()
	sb := sandboxtest.StartCounting(b)
	db, dsn := pgtest.NewWithURL(b)
	e := desktest.On(b, sb, db)
	seeded := time.Now()
	e.OrderMany(n)
	sb.Advance(20 * time.Minute) // exported and on the way: the service lists them as active
	b.Logf("%d active shipments at the sandbox and in the database in %s", n, time.Since(seeded).Round(time.Millisecond))
	env := []string{"DATABASE_URL=" + dsn, "SESSION_KEY=" + strings.Repeat("s", 32), "SHIPDESK_VAR_DIR=" + b.TempDir(),
		"SHIPPING_BASE_URL=" + sb.URL, "SHIPPING_API_KEY=" + sandboxtest.ShippingKey,
		"RETURNS_BASE_URL=" + sb.Returns, "RETURNS_API_KEY=" + sandboxtest.ReturnsKey,
		"SHIPDESK_TRACK_EVERY=" + interval.String(), "SHIPDESK_TRACK_BATCH=" + strconv.Itoa(batch)}
	const path = "/api/v1/shipments/tracking"
	before := sb.Requests(path)

	b.StartTimer()
	start := time.Now()
	procs := []*jobsProcess{startJobs(b, env), startJobs(b, env)}
	// Done when no shipment is due any more: each was recorded (or backed off)
	// with its next update. The question reads the first entry of the due
	// index, so asking it costs the processes next to nothing.
	for {
		var due bool
		err := db.SQL().QueryRowContext(ctx, `SELECT EXISTS (SELECT FROM shipments
WHERE state = 'created' AND NOT tracking_done AND cancelled_at IS NULL AND COALESCE(next_track_at, '-infinity') <= now())`).Scan(&due)
		if err != nil {
			b.Fatal(err)
		}
		if !due {
			break
		}
		if time.Since(start) > interval {
			b.Fatalf("shipments still due after the interval (%s)\n%s\n%s", interval, procs[0].log(), procs[1].log())
		}
		time.Sleep(250 * time.Millisecond)
	}
	wall := time.Since(start)
	b.StopTimer()
	var refreshed, failed int
	err := db.SQL().QueryRowContext(ctx, `SELECT count(*) FILTER (WHERE (next_track_at IS NOT NULL OR tracking_done) AND poll_failures = 0),
    count(*) FILTER (WHERE poll_failures > 0) FROM shipments`).Scan(&refreshed, &failed)
	if err != nil {
		b.Fatal(err)
	}

	// Each process logs its tracking cycle once its last claim comes back empty.
	for _, p := range procs {
		for deadline := time.Now().Add(time.Minute); !p.tracked(); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatalf("%s logged no tracking cycle:\n%s", p.name, p.log())
			}
		}
	}
	calls := int(sb.Requests(path) - before)
	for _, p := range procs {
		p.stop()
	}
	held := map[string]int{}
	rows, err := db.SQL().QueryContext(ctx, `SELECT leased_by, count(*) FROM shipments GROUP BY leased_by`)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var who string
		var k int
		if err := rows.Scan(&who, &k); err != nil {
			b.Fatal(err)
		}
		held[who] = k
	}
	rows.Close()

	want := ceilDiv(n, batch)
	sum := 0
	for i, p := range procs {
		b.Logf("%s: %d shipments (%d in the database), %d tracking calls, %d failed, %d cycles", p.name, p.shipments, held[p.name], p.calls, p.failed, p.cycles)
		if p.shipments != held[p.name] || p.failed != 0 {
			b.Errorf("%s logged %d shipments (%d failed); the database says it took %d", p.name, p.shipments, p.failed, held[p.name])
		}
		if c := ceilDiv(p.shipments, batch); p.calls != c {
			b.Errorf("%s made %d calls for %d shipments, want ⌈%d / %d⌉ = %d", p.name, p.calls, p.shipments, p.shipments, batch, c)
		}
		sum += p.calls
		b.ReportMetric(float64(p.shipments), fmt.Sprintf("jobs%d-shipments", i+1))
	}
	if failed != 0 || refreshed != n {
		b.Errorf("%d shipments refreshed, %d failed, of %d", refreshed, failed, n)
	}
	if sum != calls || calls != want {
		b.Errorf("the sandbox received %d tracking calls, the processes counted %d; want ⌈%d / %d⌉ = %d", calls, sum, n, batch, want)
	}
	b.Logf("%d shipments refreshed by two jobs processes in %s with %d tracking calls", n, wall.Round(time.Millisecond), calls)
	// The goals: the calls ⌈N / batch⌉ (ratio 1), all refreshed within the
	// interval (ratio ≤ 1).
	b.ReportMetric(wall.Seconds(), "s-refresh")
	b.ReportMetric(float64(calls), "tracking-calls")
	b.ReportMetric(float64(calls)/float64(want), "calls/ceil(N/batch)")
	b.ReportMetric(wall.Seconds()/interval.Seconds(), "refresh/interval")
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
