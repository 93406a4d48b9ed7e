package web_test

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	"shipdesk/desk"
	"shipdesk/storage/pgtest"
)

// bigBatchRows is the size of the large batch of the own-cost benchmark,
// measured when SHIPDESK_BENCH_BATCH_BIG is set (make bench sets it).
const bigBatchRows = 5000

// ownCostBudget is our own time per row a batch may add to its upstream calls.
const ownCostBudget = 2 * time.Millisecond

// BenchmarkBatchOwnCost measures our own cost per row of pricing and of
// ordering a batch: the time of each phase through the dashboard (the
// upload, the batch's page and its progress as a browser follows them
// included) less the time of the same upstream calls made through the bare
// client with the same concurrency, divided by the rows. The batch and the
// bare calls take turns, so both sides see the same load; the peak heap of a
// batch of 5,000 rows is set against that of 500, and the heap each batch
// grows by against what the same calls grow made bare.
func BenchmarkBatchOwnCost(b *testing.B) {
	sizes := []int{batchRows}
	if os.Getenv("SHIPDESK_BENCH_BATCH_BIG") != "" {
		sizes = append(sizes, bigBatchRows)
	}
	peaks := map[int]uint64{}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("%d-rows", n), func(b *testing.B) {
			// One pass: it runs well past the benchmark's time, and each
			// pass keeps its own dashboard and sandbox until the end.
			for b.Loop() {
				peaks[n] = ownCost(b, n)
			}
		})
	}
	if peaks[batchRows] > 0 && peaks[bigBatchRows] > 0 {
		// Flat: ≈ 1.
		b.ReportMetric(float64(peaks[bigBatchRows])/float64(peaks[batchRows]), fmt.Sprintf("heap-%d/%d-rows", bigBatchRows, batchRows))
	}
}

// ownCost runs batches of n rows and their bare calls in turns, records the
// own cost per row of each phase and of the heap, and returns the batch's
// peak heap.
func ownCost(b *testing.B, n int) uint64 {
	rounds := 2
	if n > batchRows {
		rounds = 1
	}
	count := pgtest.CountStatements(b)
	rec := &callRecorder{}
	env, br := batchEnv(b, rec)
	var batchPrice, batchOrder, barePrice, bareOrder, upload time.Duration
	var peak uint64
	var stmts, trips [2]int64 // pricing, ordering
	var plan callPlan
	load := loadAverage()
	for round := range rounds {
		s0, t0 := count.Statements(), count.RoundTrips()
		var s1, t1 int64
		rec.on.Store(true)
		run := priceAndOrder(b, env, br, fmt.Sprintf("OWN%d", round), n, func() { s1, t1 = count.Statements(), count.RoundTrips() })
		rec.on.Store(false)
		// The statements the benchmark ran to see each phase end are not the batch's.
		stmts[0], trips[0] = stmts[0]+s1-s0-run.watched[0], trips[0]+t1-t0-run.watched[0]
		stmts[1], trips[1] = stmts[1]+count.Statements()-s1-run.watched[1], trips[1]+count.RoundTrips()-t1-run.watched[1]
		batchPrice += run.priced
		upload += run.uploaded
		batchOrder += run.ordered - run.priced
		plan = planOf(b, rec.take())
		if len(plan.rows) != n {
			b.Fatalf("the batch made calls for %d rows, not %d", len(plan.rows), n)
		}
		bare := newReplayer(b, nil)
		barePrice += bare.price(plan, desk.BatchWorkers)
		bareOrder += bare.order(plan, desk.BatchWorkers)
	}
	// The peak heap of one more batch, without the recorder, which keeps
	// every call's body (the sandbox keeps its orders: part of what is seen).
	before := heapInUse()
	peak = peakHeap(func() { priceAndOrder(b, env, br, "OWNMEM", n, nil) })
	// The same calls made bare into a sandbox of their own, which keeps its
	// orders as the batch's does: what the batch grows beyond what they grow
	// is our share.
	bare := newReplayer(b, nil)
	bareBefore := heapInUse()
	barePeak := peakHeap(func() {
		bare.price(plan, desk.BatchWorkers)
		bare.order(plan, desk.BatchWorkers)
	})
	rows := time.Duration(rounds * n)
	for i, phase := range []struct {
		name        string
		batch, bare time.Duration
	}{{"pricing", batchPrice, barePrice}, {"ordering", batchOrder, bareOrder}} {
		own := (phase.batch - phase.bare) / rows
		b.ReportMetric(float64(own.Microseconds())/1000, phase.name+"-own-ms/row")
		b.ReportMetric(float64(stmts[i])/float64(rows), phase.name+"-statements/row")
		// The goal: our own cost per row within ownCostBudget.
		b.ReportMetric(float64(own)/float64(ownCostBudget), phase.name+"-own/budget")
		b.Logf("batch of %d rows, %s: batch %s, the same calls bare (%d rows at a time) %s; %.2f statements and %.2f round trips a row; load average before %.2f",
			n, phase.name, phase.batch/time.Duration(rounds), desk.BatchWorkers, phase.bare/time.Duration(rounds),
			float64(stmts[i])/float64(rows), float64(trips[i])/float64(rows), load)
	}
	b.ReportMetric(mib(peak), "peak-MiB")
	b.Logf("batch of %d rows: peak heap %.1f MiB while priced and ordered; upload and import %s", n, mib(peak), upload/time.Duration(rounds))
	// Flat when the batch's heap grows by no more than the bare calls' (≈ 1):
	// the sandbox keeps every order it is sent, either way.
	b.ReportMetric(float64(peak-before)/float64(barePeak-bareBefore), "heap-grown/bare")
	return peak
}

// heapInUse is the heap in use after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// loadAverage is the machine's load over the last minute (0 when unknown).
func loadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	var l float64
	if err == nil {
		_, _ = fmt.Sscan(string(data), &l)
	}
	return l
}
