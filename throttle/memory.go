package throttle

import (
	"hash/maphash"
	"math"
	"sync"
	"time"
)

// shards spread the clients over locks, so two cores rarely wait on one.
const shards = 16

// maxKeys bounds the clients one shard remembers: a flood from many
// addresses cannot grow memory without end (the oldest are forgotten).
const maxKeys = 4096

// InMemory refuses a client that asks too often, in memory: the first line of
// the public pages, so a flood from one address is turned away before it
// costs the database anything, and nothing is stored for it. It is a token
// bucket per key under one Limit: Hits requests at once, earned back evenly
// over Window. Its zero value is not usable; make it with NewInMemory.
type InMemory struct {
	limit Limit
	now   func() time.Time
	seed  maphash.Seed
	shard [shards]shard
}

type shard struct {
	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// NewInMemory returns the buckets of l on the clock now (real time: a
// simulated week must not free a flood).
func NewInMemory(l Limit, now func() time.Time) *InMemory {
	m := &InMemory{limit: l, now: now, seed: maphash.MakeSeed()}
	for i := range m.shard {
		m.shard[i].buckets = make(map[string]*bucket)
	}
	return m
}

// Allow takes a token of key, and says whether there was one.
func (m *InMemory) Allow(key string) bool { return m.Take(key) == 0 }

// Take takes a token of key: zero when there was one, else how long until
// there is (nothing is taken then).
func (m *InMemory) Take(key string) time.Duration {
	if m.limit.Off() {
		return 0
	}
	s := &m.shard[maphash.String(m.seed, key)%shards]
	now := m.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.buckets[key]
	if !ok {
		if len(s.buckets) >= maxKeys {
			s.forget(now, m.limit.Window)
		}
		b = &bucket{tokens: float64(m.limit.Hits), at: now}
		s.buckets[key] = b
	}
	return m.limit.take(b, now)
}

// take fills b for the time since it was last seen, Hits over Window up to
// Hits, and takes a token: zero when there was one, else how long until
// there is one.
func (l Limit) take(b *bucket, now time.Time) time.Duration {
	hits, window := float64(l.Hits), float64(l.Window)
	b.tokens = min(hits, b.tokens+float64(now.Sub(b.at))*hits/window)
	b.at = now
	if b.tokens < 1 {
		return time.Duration(math.Ceil((1 - b.tokens) * window / hits))
	}
	b.tokens--
	return 0
}

// forget drops the buckets that have filled up again (after full: a full
// bucket is as good as new and need not be remembered); when none has, the
// oldest half, so a shard never outgrows maxKeys.
func (s *shard) forget(now time.Time, full time.Duration) {
	for k, b := range s.buckets {
		if now.Sub(b.at) >= full {
			delete(s.buckets, k)
		}
	}
	if len(s.buckets) < maxKeys {
		return
	}
	var oldest time.Time
	for _, b := range s.buckets {
		if oldest.IsZero() || b.at.Before(oldest) {
			oldest = b.at
		}
	}
	middle := oldest.Add(now.Sub(oldest) / 2)
	for k, b := range s.buckets {
		if !b.at.After(middle) {
			delete(s.buckets, k)
		}
	}
}
