package web_test

import (
	"runtime"
	"sync"
	"time"
)

// peakHeap runs work and returns the most heap in use the Go runtime saw
// meanwhile (sampled every few milliseconds, after a collection before): the
// benchmarks' measure of what a long import, print or export holds at once.
func peakHeap(work func()) uint64 {
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

// mib is a size in bytes in mebibytes.
func mib(bytes uint64) float64 { return float64(bytes) / (1 << 20) }
