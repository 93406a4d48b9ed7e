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
