// Package pagecache keeps the answers of signed-in pages whose data has not
// changed, so the same page asked again is written from memory without the
// database. The database stays the judge: a copy is used only while the
// change feed is current (storage.Feed: every change committed more than
// FeedLag ago has been heard, and every change this process committed,
// whenever) and no change has been heard since the copy's handler began.
// Every announced change of what pages show (the triggers of migration
// 00035), of a user, or a lost feed drops every copy; so does every post
// made here (Bump: it may change what is not in the database, such as the
// sandbox's faults). This process's own writes, a poller's too, are never
// hidden by a kept page; other instances' show within FeedLag, as a revoked
// session does.
package pagecache

import (
	"container/list"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Changes is the feed the cache follows (storage.Feed). Current: the feed
// is fresh and has heard every change this process committed.
type Changes interface {
	Current() bool
	Subscribe(fn func(Change))
}

// Change is one announced change, or Lost (the feed's own type, gone with it).
type Change struct {
	Lost      bool
	TokenHash []byte
	UserID    int64
	Data      string
}

// DefaultBytes bounds a cache made with NewCache(feed, 0).
const DefaultBytes = 24 << 20

// entryOverhead is what an entry costs beside its key, headers and body.
const entryOverhead = 256

// Cache is a bounded set of kept answers, the least recently used dropped
// first when a new one does not fit.
type Cache struct {
	feed Changes
	max  int64

	mu      sync.Mutex
	gen     uint64 // counts the changes heard and the writes made here
	entries map[string]*list.Element
	order   *list.List // of *Entry, the most recently used first
	size    int64

	hits, misses, stored atomic.Int64
	also                 []func()  // what else drops its copies with the cache's (Also)
	bodies               sync.Pool // *[]byte: the buffers Write fills
}

// Entry is one kept answer: its status, the headers its handler set (never
// Set-Cookie) and its body, with where in the body the request keys its
// render made stand (each replaced by a fresh one on every use), and the
// moment on the dashboard's clock it is good until (zero: until a change).
type Entry struct {
	Status int
	Header http.Header
	Body   []byte
	Keys   []KeySpot
	Until  time.Time

	key  string
	gen  uint64
	size int64
}

// NewCache follows feed and keeps at most maxBytes (DefaultBytes when 0).
func NewCache(feed Changes, maxBytes int64) *Cache {
	if maxBytes <= 0 {
		maxBytes = DefaultBytes
	}
	c := &Cache{feed: feed, max: maxBytes, entries: map[string]*list.Element{}, order: list.New()}
	feed.Subscribe(c.changed)
	return c
}

// changed drops everything on a change of what pages show: data, a user (a
// note's author, a name in the header) or a lost feed. A session's change
// concerns who may ask, which is checked before the cache is asked.
func (c *Cache) changed(ch Change) {
	if ch.Lost || ch.Data != "" || ch.UserID != 0 || ch.TokenHash == nil {
		c.Bump()
	}
}

// Also has fn called on every Bump, before the generation moves: a
// shorter-lived copy a page reads (the home page's counts) is dropped with
// the pages, so a page drawn after a change never shows it from before.
func (c *Cache) Also(fn func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.also = append(c.also, fn)
}

// Bump drops every kept answer and refuses those being drawn: something
// they may show has changed.
func (c *Cache) Bump() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, fn := range c.also {
		fn()
	}
	c.gen++
	clear(c.entries)
	c.order.Init()
	c.size = 0
}

// Generation is what a handler that may be kept reads before it begins.
func (c *Cache) Generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// Get returns the kept answer for key while the feed is fresh and now (on
// the dashboard's clock) is before its Until.
func (c *Cache) Get(key string, now time.Time) (*Entry, bool) {
	fresh := c.feed.Current()
	c.mu.Lock()
	defer c.mu.Unlock()
	el := c.entries[key]
	if !fresh || el == nil || el.Value.(*Entry).gen != c.gen || !el.Value.(*Entry).good(now) {
		c.misses.Add(1)
		return nil, false
	}
	c.order.MoveToFront(el)
	c.hits.Add(1)
	return el.Value.(*Entry), true
}

// Put keeps e under key, unless a change was heard since gen was read
// (what it shows may be older than that change) or it is too large for a
// fair share of the cache. The least recently used make room.
func (c *Cache) Put(key string, gen uint64, e *Entry) {
	e.key, e.gen = key, gen
	e.size = int64(len(key)+len(e.Body)) + entryOverhead
	for k, vs := range e.Header {
		e.size += int64(len(k))
		for _, v := range vs {
			e.size += int64(len(v))
		}
	}
	if e.size > c.max/16 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if old := c.entries[key]; old != nil {
		c.remove(old)
	}
	for c.size+e.size > c.max {
		c.remove(c.order.Back())
	}
	c.entries[key] = c.order.PushFront(e)
	c.size += e.size
	c.stored.Add(1)
}

func (e *Entry) good(now time.Time) bool { return e.Until.IsZero() || now.Before(e.Until) }

func (c *Cache) remove(el *list.Element) {
	e := c.order.Remove(el).(*Entry)
	delete(c.entries, e.key)
	c.size -= e.size
}

// Stats are the cache's counts: answers kept now and their bytes, and
// since the start the answers served from it, those drawn anew and those kept.
type Stats struct {
	Entries            int
	Bytes              int64
	Hits, Misses, Puts int64
}

// Stats reads the counts.
func (c *Cache) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Stats{Entries: len(c.entries), Bytes: c.size, Hits: c.hits.Load(), Misses: c.misses.Load(), Puts: c.stored.Load()}
}
