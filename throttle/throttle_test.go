package throttle

import (
	"testing"
	"time"
)

// A backoff lets its free failures pass, then waits from the last failure,
// doubling, never longer than its longest wait.
func TestBackoffWaitsFromTheLastFailure(t *testing.T) {
	b := Backoff{Free: 3, FirstWait: 2 * time.Second, MaxWait: time.Minute}
	last := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		failures int
		since    time.Duration
		want     time.Duration
	}{
		{2, 0, 0},
		{3, 0, 2 * time.Second},
		{3, time.Second, time.Second},
		{3, 5 * time.Second, 0},
		{5, 0, 8 * time.Second},
		{40, 0, time.Minute},
		{40, 50 * time.Second, 10 * time.Second},
	} {
		if got := b.Wait(c.failures, &last, last.Add(c.since)); got != c.want {
			t.Errorf("%d failures, %v since the last: wait %v, want %v", c.failures, c.since, got, c.want)
		}
	}
	if got := b.Wait(10, nil, last); got != 0 {
		t.Errorf("no last failure: wait %v", got)
	}
}

// A refused take says how long until the bucket has a token again.
func TestTakeSaysHowLongToWait(t *testing.T) {
	clk := &fakeTime{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	m := NewInMemory(Limit{Hits: 2, Window: 10 * time.Second}, clk.now)
	if m.Take("a") != 0 || m.Take("a") != 0 {
		t.Fatal("the burst was refused")
	}
	if got := m.Take("a"); got != 5*time.Second {
		t.Errorf("wait %v, want 5s", got)
	}
	clk.add(3 * time.Second)
	if got := m.Take("a"); got != 2*time.Second {
		t.Errorf("wait %v after 3s, want 2s", got)
	}
	clk.add(2 * time.Second)
	if got := m.Take("a"); got != 0 {
		t.Errorf("refused after 5s: wait %v", got)
	}
}

// A limit's window slides: five hits at the end of one hour hold the sixth
// back across the hour's boundary, until the oldest of them is an hour old,
// and the wait says exactly when that is.
func TestLimitWindowSlides(t *testing.T) {
	l := Limit{Hits: 5, Window: time.Hour}
	start := time.Date(2026, 1, 1, 12, 59, 0, 0, time.UTC)
	var hits []time.Time
	for i := range 5 {
		at := start.Add(time.Duration(i) * 10 * time.Second)
		if w := l.Wait(hits, at); w != 0 {
			t.Fatalf("hit %d waits %v", i+1, w)
		}
		hits = append(hits, at)
	}
	for _, c := range []struct {
		at   time.Duration // after the first hit
		want time.Duration
	}{
		{time.Minute, 59 * time.Minute},                // 13:00, past a fixed window's boundary
		{59*time.Minute + 59*time.Second, time.Second}, // a second before the first hit is an hour old
		{time.Hour, 0},
		{time.Hour + 5*time.Second, 0},
	} {
		if got := l.Wait(hits, start.Add(c.at)); got != c.want {
			t.Errorf("%v after the first hit: wait %v, want %v", c.at, got, c.want)
		}
	}
	// The hits may come in any order, and old ones do not count.
	mixed := []time.Time{hits[3], start.Add(-2 * time.Hour), hits[0], hits[4], hits[2], hits[1]}
	if got := l.Wait(mixed, start.Add(time.Minute)); got != 59*time.Minute {
		t.Errorf("hits out of order: wait %v", got)
	}
	if got := (Limit{}).Wait(hits, start); got != 0 {
		t.Errorf("no limit waits %v", got)
	}
}
