// Package benchtab keeps what the benchmarks measure as rows of one table:
// each target's ratio with the two figures it divides, or a plain figure.
// `make bench` empties var/bench, runs the benchmarks and prints the rows, so
// every ratio comes from figures measured in the same run.
package benchtab

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Figure is one measured quantity: what it is, its value and its unit.
type Figure struct {
	What  string
	Value float64
	Unit  string
}

func (f Figure) String() string {
	return fmt.Sprintf("%s %s %s", f.What, strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", f.Value), "0"), "."), f.Unit)
}

// Duration is a time as a figure in milliseconds.
func Duration(what string, d time.Duration) Figure {
	return Figure{What: what, Value: float64(d.Microseconds()) / 1000, Unit: "ms"}
}

// MiB is a size in bytes as a figure in mebibytes.
func MiB(what string, bytes uint64) Figure {
	return Figure{What: what, Value: float64(bytes) / (1 << 20), Unit: "MiB"}
}

// Ratio records target's ratio a/b and the goal it is held to ("≤ 2", "≥ 0.5").
func Ratio(tb testing.TB, target string, a, b Figure, goal string) float64 {
	tb.Helper()
	r := a.Value / b.Value
	line := fmt.Sprintf("| %s | %.2f | %s | %s / %s |", target, r, goal, a, b)
	write(tb, target, line)
	return r
}

// Note records a figure that is not a ratio (a time, a peak memory, a count).
func Note(tb testing.TB, target string, figures ...Figure) {
	tb.Helper()
	parts := make([]string, len(figures))
	for i, f := range figures {
		parts[i] = f.String()
	}
	write(tb, target, fmt.Sprintf("| %s | | | %s |", target, strings.Join(parts, "; ")))
}

var unsafeName = regexp.MustCompile(`[^a-zA-Z0-9._-]+`)

// write logs the row and keeps it in var/bench at the module's root, one file
// per target, so a rerun of one benchmark replaces only its own rows.
func write(tb testing.TB, target, line string) {
	tb.Helper()
	tb.Log(line)
	dir := outDir()
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Logf("bench table: %v", err)
		return
	}
	name := filepath.Join(dir, strings.Trim(unsafeName.ReplaceAllString(target, "-"), "-")+".md")
	if err := os.WriteFile(name, []byte(line+"\n"), 0o644); err != nil {
		tb.Logf("bench table: %v", err)
	}
}

// outDir is var/bench beside go.mod (SHIPDESK_BENCH_DIR when set).
func outDir() string {
	if d := os.Getenv("SHIPDESK_BENCH_DIR"); d != "" {
		return d
	}
	dir, err := os.Getwd()
	for err == nil {
		if _, serr := os.Stat(filepath.Join(dir, "go.mod")); serr == nil {
			return filepath.Join(dir, "var", "bench")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
	return ""
}

// PeakHeap runs work and returns the most heap in use the Go runtime saw
// meanwhile (sampled every few milliseconds, after a collection before).
func PeakHeap(work func()) uint64 {
	runtime.GC()
	var peak uint64
	var mu sync.Mutex
	done := make(chan struct{})
	sampled := make(chan struct{})
	sample := func() {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		mu.Lock()
		peak = max(peak, m.HeapInuse)
		mu.Unlock()
	}
	go func() {
		defer close(sampled)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sample()
			}
		}
	}()
	work()
	sample()
	close(done)
	<-sampled
	return peak
}
