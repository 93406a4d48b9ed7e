package storage_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"shipdesk/storage"
	"shipdesk/storage/pgtest"
	"shipdesk/throttle"
)

// A request is counted under all its scopes or, when any is at its limit,
// under none: a refused request stores nothing, not even in the scopes that
// had room. The window slides: five hits a minute before the hour hold the
// sixth back until the first of them is an hour old, to the second.
func TestCountHitsAllOrNothingInASlidingWindow(t *testing.T) {
	t.Parallel()
	db := pgtest.New(t)
	ctx := context.Background()
	hour := throttle.Limit{Hits: 5, Window: time.Hour}
	client := storage.Hit{Scope: "client", KeyHash: []byte("c1"), Limit: throttle.Limit{Hits: 100, Window: time.Hour}}
	purchase := storage.Hit{Scope: "purchase", KeyHash: []byte("p1"), Limit: hour}
	start := time.Date(2026, 11, 23, 12, 59, 0, 0, time.UTC)
	stored := func() (n int) {
		if err := db.SQL().QueryRowContext(ctx, `SELECT count(*) FROM throttle_hits`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for i := range 5 {
		if wait, err := db.CountHits(ctx, start.Add(time.Duration(i)*10*time.Second), client, purchase); err != nil || wait != 0 {
			t.Fatalf("hit %d: wait %v, %v", i+1, wait, err)
		}
	}
	for _, c := range []struct {
		at   time.Time
		want time.Duration
	}{
		{start.Add(time.Minute), 59 * time.Minute}, // 13:00: a fixed window would start afresh
		{start.Add(time.Hour - time.Second), time.Second},
	} {
		if wait, err := db.CountHits(ctx, c.at, client, purchase); err != nil || wait != c.want {
			t.Errorf("at %s: wait %v (%v), want %v", c.at.Format(time.TimeOnly), wait, err, c.want)
		}
	}
	if n := stored(); n != 10 {
		t.Errorf("%d hits stored after two refusals; want the 10 admitted", n)
	}
	if wait, err := db.CountHits(ctx, start.Add(time.Hour), client, purchase); err != nil || wait != 0 {
		t.Errorf("an hour after the first hit: wait %v, %v", wait, err)
	}
	// A hit without a key or with its limit off counts nothing.
	if wait, err := db.CountHits(ctx, start.Add(time.Hour), storage.Hit{Scope: "client", Limit: hour}, storage.Hit{Scope: "x", KeyHash: []byte("k")}); err != nil || wait != 0 {
		t.Errorf("nothing to count: %v %v", wait, err)
	}
	if n := stored(); n != 12 {
		t.Errorf("%d hits stored; want 12", n)
	}
	if err := db.PruneThrottleHits(ctx, start.Add(90*time.Minute), time.Hour); err != nil {
		t.Fatal(err)
	}
	if n := stored(); n != 2 {
		t.Errorf("%d hits left after the prune; want the 2 of the last hour", n)
	}
}

// Requests at once cannot all take a key's last places: twenty at the same
// moment under a limit of five admit five.
func TestCountHitsAtOnceAdmitTheLimit(t *testing.T) {
	t.Parallel()
	db := pgtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	hit := storage.Hit{Scope: "address", KeyHash: []byte("jana"), Limit: throttle.Limit{Hits: 5, Window: time.Hour}}
	var mu sync.Mutex
	admitted := 0
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			other := storage.Hit{Scope: "client", KeyHash: []byte{byte(i)}, Limit: throttle.Limit{Hits: 5, Window: time.Hour}}
			wait, err := db.CountHits(ctx, now, other, hit)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if wait == 0 {
				admitted++
			}
		})
	}
	wg.Wait()
	if admitted != 5 {
		t.Errorf("%d of 20 admitted under a limit of 5", admitted)
	}
}
