package storage

import (
	"context"
	"sync"
	"time"

	"shipdesk/clock"
)

// AttentionCache keeps the home page's counts (Attention) for a short while:
// every signed-in person lands on the home page, and seven counts a page
// view cost more than the rest of it. The counts are at most maxAge old
// (one query at a time refreshes them); a count is a prompt to look, and
// the pages it links to read the tables themselves.
type AttentionCache struct {
	db     *DB
	maxAge time.Duration

	refresh sync.Mutex // one query at a time
	mu      sync.Mutex
	a       Attention
	at      clock.Stopwatch // started when the query that read a began
	now     time.Time       // the time a was counted for
	ok      bool
}

// NewAttentionCache keeps db's counts for maxAge.
func (db *DB) NewAttentionCache(maxAge time.Duration) *AttentionCache {
	return &AttentionCache{db: db, maxAge: maxAge}
}

// Attention returns counts for now at most maxAge old.
func (c *AttentionCache) Attention(ctx context.Context, now time.Time) (Attention, error) {
	if a, ok := c.cached(now); ok {
		return a, nil
	}
	c.refresh.Lock()
	defer c.refresh.Unlock()
	if a, ok := c.cached(now); ok { // another request has just read them
		return a, nil
	}
	began := clock.Start()
	a, err := c.db.Attention(ctx, now)
	if err != nil {
		return a, err
	}
	c.mu.Lock()
	c.a, c.at, c.now, c.ok = a, began, now, true
	c.mu.Unlock()
	return a, nil
}

// Forget drops the kept counts (a nil cache has none), so the next reading
// counts afresh.
func (c *AttentionCache) Forget() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.ok = false
	c.mu.Unlock()
}

func (c *AttentionCache) cached(now time.Time) (Attention, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := now.Sub(c.now)
	if !c.ok || c.at.Elapsed() > c.maxAge || d > c.maxAge || d < -c.maxAge {
		return Attention{}, false
	}
	return c.a, true
}
