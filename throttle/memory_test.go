package throttle

import (
	"strconv"
	"sync"
	"testing"
	"time"
)

type fakeTime struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeTime) now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.t }
func (f *fakeTime) add(d time.Duration) {
	f.mu.Lock()
	f.t = f.t.Add(d)
	f.mu.Unlock()
}

// A client gets its burst at once, then one request per interval; another
// client is not held back by it.
func TestBurstThenRate(t *testing.T) {
	clk := &fakeTime{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := NewInMemory(Limit{Hits: 3, Window: 3 * time.Second}, clk.now)
	for i := 0; i < 3; i++ {
		if !l.Allow("a") {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	if l.Allow("a") {
		t.Error("the fourth request at once was allowed")
	}
	if !l.Allow("b") {
		t.Error("another client was held back")
	}
	clk.add(time.Second)
	if !l.Allow("a") || l.Allow("a") {
		t.Error("after one interval exactly one more request")
	}
	clk.add(time.Hour)
	for i := 0; i < 3; i++ {
		if !l.Allow("a") {
			t.Error("the burst is not back after a quiet hour")
		}
	}
}

// Many goroutines of one client get exactly the burst.
func TestConcurrentClientsGetTheirBurstOnly(t *testing.T) {
	clk := &fakeTime{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := NewInMemory(Limit{Hits: 10, Window: 10 * time.Hour}, clk.now)
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				if l.Allow("flood") {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if allowed != 10 {
		t.Errorf("%d allowed of a burst of 10", allowed)
	}
}

// A flood from many addresses keeps memory bounded.
func TestManyClientsStayBounded(t *testing.T) {
	clk := &fakeTime{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	l := NewInMemory(Limit{Hits: 2, Window: 2 * time.Minute}, clk.now)
	for i := 0; i < 20*shards*maxKeys/10; i++ {
		l.Allow("client-" + strconv.Itoa(i))
		if i%1000 == 0 {
			clk.add(time.Millisecond)
		}
	}
	for i := range l.shard {
		if n := len(l.shard[i].buckets); n > maxKeys {
			t.Errorf("shard %d remembers %d clients", i, n)
		}
	}
}
