package shoptet_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	api "shipdesk/client/shoptet"
	"shipdesk/clock"
	sim "shipdesk/sandbox/shoptet"
	"shipdesk/shop/shoptet"
)

// BenchmarkSyncThousandChanges is a sync of 1,000 changed orders through
// the Source (every page of the changes, then each order whole, three at
// once: the token's limit) against the same HTTP requests made with
// net/http alone in the same run, their answers read to the end and not
// decoded. sync/bare is what the client adds in time (the strict reading
// into the wire types, the conversion, the limiter, the logging); goal ≤ 1.5.
// Each sync is timed beside a bare pull in the same run (in turns, ABBA, the
// heap collected before each, so neither pays for the other's garbage) and
// the figure is the median of those pairs' ratios: a machine busy with
// other work slows both of a pair alike. cpu-sync/bare is the same in the
// process's CPU time (the simulated shop's share included).
func BenchmarkSyncThousandChanges(b *testing.B) {
	w := start(b, options{})
	w.env.Clock.Advance(time.Minute)
	from := w.env.Clock.Now()
	codes := w.addOrders(b, 1000)
	w.limitless()
	bare := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	pull(b, w.src, from) // both ways warmed once: connections open, plans made
	pullBare(b, bare, w.env.Shoptet, from, codes)
	var synced, walls []time.Duration
	var wallRatios, cpuRatios []float64
	for b.Loop() {
		for pair := range 8 {
			var sw, sc, bw, bc time.Duration
			syncFirst := pair%2 == 0 // ABBA…: neither side always goes first
			for turn := range 2 {
				runtime.GC()
				if (turn == 0) == syncFirst {
					sw, sc = timed(func() { pull(b, w.src, from) })
				} else {
					bw, bc = timed(func() { pullBare(b, bare, w.env.Shoptet, from, codes) })
				}
			}
			synced, walls = append(synced, sw), append(walls, bw)
			wallRatios, cpuRatios = append(wallRatios, float64(sw)/float64(bw)), append(cpuRatios, float64(sc)/float64(bc))
		}
	}
	b.ReportMetric(medianOf(wallRatios), "sync/bare") // goal ≤ 1.5
	b.ReportMetric(medianOf(cpuRatios), "cpu-sync/bare")
	b.ReportMetric(float64(median(synced).Milliseconds()), "sync-ms")
	b.ReportMetric(float64(median(walls).Milliseconds()), "bare-ms")
}

func medianOf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// timed is how long f took, on the wall and in the process's CPU time.
func timed(f func()) (wall, cpu time.Duration) {
	watch, cpu0 := clock.Start(), cpuTime()
	f()
	return watch.Elapsed(), cpuTime() - cpu0
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var u syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// pull is the sync's calls: the changes, then every order, three at once.
func pull(b *testing.B, src *shoptet.Source, from time.Time) {
	changes, err := src.Changes(context.Background(), from)
	if err != nil || len(changes) != 1000 {
		b.Fatalf("%d changes: %v", len(changes), err)
	}
	codes := make([]string, len(changes))
	for i, c := range changes {
		codes[i] = c.Code
	}
	three(codes, func(code string) {
		if _, err := src.Order(context.Background(), code); err != nil {
			b.Error(err)
		}
	})
}

// pullBare makes the same requests with net/http alone.
func pullBare(b *testing.B, c *http.Client, base string, from time.Time, codes []string) {
	get := func(path string, q url.Values) {
		req, _ := http.NewRequest(http.MethodGet, base+path+"?"+q.Encode(), nil)
		req.Header.Set(api.TokenHeader, sim.Token)
		req.Header.Set("Content-Type", api.MediaType)
		resp, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			b.Fatalf("%s: %d", path, resp.StatusCode)
		}
	}
	for page := 1; page <= len(codes)/api.PerPage; page++ {
		get("/api/orders/changes", url.Values{"from": {from.Format(api.TimeLayout)}, "page": {strconv.Itoa(page)}, "itemsPerPage": {strconv.Itoa(api.PerPage)}})
	}
	three(codes, func(code string) { get("/api/orders/"+code, url.Values{"include": {"notes,shippingDetails"}}) })
}

// three runs do over the codes in three goroutines.
func three(codes []string, do func(string)) {
	next := make(chan string)
	var wg sync.WaitGroup
	for range api.MaxConnections {
		wg.Go(func() {
			for code := range next {
				do(code)
			}
		})
	}
	for _, c := range codes {
		next <- c
	}
	close(next)
	wg.Wait()
}
