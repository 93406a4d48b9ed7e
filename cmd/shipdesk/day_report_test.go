package main

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// dayReport is what a day at the desk measured, reported as the benchmark's
// figures (b.ReportMetric) and as one readable table.
type dayReport struct {
	b         *testing.B
	pages     []*openPage
	own, rush map[string]*latencies
	alone     map[string]*latencies // the rush's pace with the clerks and the batch gone
	costs     map[string]refreshCost
	steps     map[string]*latencies
	half      time.Duration
	cpu, self time.Duration // serve's and the load generator's over the pages' windows
	wall      time.Duration
	rss       uint64
	xacts     int64
	priced    int
	load      float64
}

func (r dayReport) print() {
	b := r.b
	cores := float64(runtime.NumCPU())
	share := func(d time.Duration) float64 { return 100 * float64(d) / float64(r.wall) / cores }
	var out strings.Builder
	fmt.Fprintf(&out, "a day at the desk: %d open pages, %d clerks, the pollers, a %d-row batch (%d rows priced), %s on %d cores (load average %.2f)\n",
		len(r.pages), dayClerks, dayBatchRows, r.priced, r.wall.Round(time.Second), runtime.NumCPU(), r.load)
	fmt.Fprintf(&out, "| page | open | own cadence | own p50 ms | own p99 ms | rush p50 ms | rush p99 ms | alone p50 ms | alone p99 ms | failed | statements a refresh | serve CPU a refresh |\n")
	fmt.Fprintf(&out, "|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	var pagesCPU time.Duration
	var worst, worstAlone float64
	for _, k := range dayKinds() {
		own, rush, alone, cost := r.own[k.name], r.rush[k.name], r.alone[k.name], r.costs[k.name]
		cadence := ""
		for _, p := range r.pages {
			if p.kind.name == k.name {
				cadence = p.part.every.String()
				if p.part.whole {
					cadence += " (whole page: no live part)"
				}
				break
			}
		}
		fmt.Fprintf(&out, "| %s | %d | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %d | %.2f | %s |\n", k.name, k.open, cadence,
			own.pct(0.5), own.pct(0.99), rush.pct(0.5), rush.pct(0.99), alone.pct(0.5), alone.pct(0.99), own.failed+rush.failed+alone.failed, max(cost.statements, 0), cost.cpu.Round(10*time.Microsecond))
		b.ReportMetric(own.pct(0.5), k.name+"-own-p50-ms")
		b.ReportMetric(own.pct(0.99), k.name+"-own-p99-ms")
		b.ReportMetric(rush.pct(0.5), k.name+"-rush-p50-ms")
		b.ReportMetric(rush.pct(0.99), k.name+"-rush-p99-ms")
		b.ReportMetric(alone.pct(0.99), k.name+"-alone-p99-ms")
		b.ReportMetric(cost.statements, k.name+"-statements/refresh")
		worst = max(worst, own.pct(0.99), rush.pct(0.99))
		worstAlone = max(worstAlone, alone.pct(0.99))
		pagesCPU += time.Duration(own.count()+rush.count()) * max(cost.cpu, 0) // the day's windows: alone is after them
		for _, l := range []*latencies{own, rush, alone} {
			if l.failed > 0 {
				b.Errorf("%s: %d refreshes failed, the first: %s", k.name, l.failed, l.first)
			}
		}
	}
	fmt.Fprintf(&out, "\n| the clerks' step | done | p50 ms | p99 ms | failed |\n|---|---|---|---|---|\n")
	for _, s := range clerkSteps {
		l := r.steps[s]
		fmt.Fprintf(&out, "| %s | %d | %.1f | %.1f | %d |\n", s, l.count(), l.pct(0.5), l.pct(0.99), l.failed)
		name := "clerk-" + strings.ReplaceAll(s, " ", "-")
		b.ReportMetric(l.pct(0.99), name+"-p99-ms")
		if l.failed > 0 {
			b.Logf("clerks' %s: %d failed, the first: %s", s, l.failed, l.first)
		}
	}
	fmt.Fprintf(&out, "\nworst p99 of a page %.1f ms in the day, %.1f ms alone (goal ≤ 50); serve's peak RSS %.1f MiB (goal ≤ 100)\n", worst, worstAlone, mib(r.rss))
	fmt.Fprintf(&out, "serve's CPU share %.1f %% of the machine, the pages' part of it about %.1f %% (their refreshes × each one's CPU measured after the day); the load generator %.1f %%\n",
		share(r.cpu), share(pagesCPU), share(r.self))
	fmt.Fprintf(&out, "the database: %.0f transactions a second over the day (everything: pages, clerks, pollers, batch)\n", float64(r.xacts)/r.wall.Seconds())
	b.ReportMetric(worst, "worst-p99-ms")
	b.ReportMetric(worstAlone, "worst-alone-p99-ms")
	b.ReportMetric(mib(r.rss), "peak-RSS-MiB")
	b.ReportMetric(share(r.cpu), "serve-cpu-%")
	b.ReportMetric(share(pagesCPU), "pages-cpu-%")
	b.ReportMetric(share(r.self), "loadgen-cpu-%")
	b.ReportMetric(float64(r.xacts)/r.wall.Seconds(), "db-xacts/s")
	b.ReportMetric(float64(r.priced), "rows-priced")
	// Go keeps ten lines of a benchmark's log: the table goes to stdout whole.
	fmt.Println(out.String())
}

// mib is a size in bytes in mebibytes.
func mib(bytes uint64) float64 { return float64(bytes) / (1 << 20) }
