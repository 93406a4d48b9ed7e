package staff

import (
	"sync"
	"sync/atomic"
	"time"

	"shipdesk/identity"
	"shipdesk/storage"
)

// Changes is the feed of committed changes the cache of live sessions follows
// (storage.Feed): what a session check answers changed, or everything may
// have (Lost); and whether every change committed before now-FeedLag has
// been handed on.
type Changes interface {
	Fresh() bool
	Subscribe(fn func(storage.Change))
}

// sessionCache keeps the sessions this instance has found live, so a request
// with a session needs no query. The database stays the judge: an entry is
// used only while the change feed is fresh (so no change older than FeedLag
// is missing from it), before the session's absolute expiry, and within the
// idle limit by this instance's own account (another instance may have seen
// the session later: past the limit the database is asked). Every announced
// change drops what it concerns, Lost drops everything, and a lookup that
// began before a change may not store what it read (gen).
type sessionCache struct {
	feed Changes
	mu   sync.Mutex
	gen  uint64 // counts changes heard
	live map[[32]byte]*cachedSession

	hits, misses atomic.Int64
}

type cachedSession struct {
	staff    identity.Staff
	lastSeen time.Time // as this instance knows it; touched at most once a minute
	expires  time.Time
}

// maxCachedSessions bounds the cache; past it, it starts again empty.
const maxCachedSessions = 10_000

// touchEvery is how stale last_seen_at may get: the idle clock needs no finer
// grain, and this keeps page views from writing on every request.
const touchEvery = time.Minute

func newSessionCache(feed Changes) *sessionCache {
	c := &sessionCache{feed: feed, live: map[[32]byte]*cachedSession{}}
	feed.Subscribe(c.changed)
	return c
}

func (c *sessionCache) changed(ch storage.Change) {
	if ch.Data != "" { // what pages show, not who is signed in
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	switch {
	case ch.Lost:
		clear(c.live)
	case ch.TokenHash != nil:
		if len(ch.TokenHash) != 32 {
			clear(c.live)
			return
		}
		delete(c.live, [32]byte(ch.TokenHash))
	case ch.UserID != 0:
		for h, s := range c.live {
			if s.staff.ID == ch.UserID {
				delete(c.live, h)
			}
		}
	}
}

// get returns the staff member of a cached live session, and whether the
// caller must touch it (its last use is over a minute old; the entry already
// says now). On a miss it returns the generation to pass to put.
func (c *sessionCache) get(h [32]byte, now time.Time, idle time.Duration) (st identity.Staff, touch, ok bool, gen uint64) {
	fresh := c.feed.Fresh()
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.live[h]
	if !fresh || s == nil || !now.Before(s.expires) || now.Sub(s.lastSeen) > idle {
		c.misses.Add(1)
		return identity.Staff{}, false, false, c.gen
	}
	c.hits.Add(1)
	if now.Sub(s.lastSeen) > touchEvery {
		s.lastSeen, touch = now, true
	}
	return s.staff, touch, true, 0
}

// put keeps a session the database found live, unless a change was heard
// since the lookup began (gen): what it read may be older than that change.
func (c *sessionCache) put(h [32]byte, s cachedSession, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return
	}
	if len(c.live) >= maxCachedSessions {
		clear(c.live)
	}
	c.live[h] = &s
}

// drop forgets one session (its touch failed: the database decides next time).
func (c *sessionCache) drop(h [32]byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.live, h)
}
