// Package ratelimit refuses a client that asks too often, in memory: the
// first line of the public pages, so a flood from one address is turned
// away before it costs the database anything, and nothing is stored for it.
package ratelimit

import (
	"hash/maphash"
	"sync"
	"time"
)

// shards spread the clients over locks, so two cores rarely wait on one.
const shards = 16

// maxKeys bounds the clients one shard remembers: a flood from many
// addresses cannot grow memory without end (the oldest are forgotten).
const maxKeys = 4096

// Limiter is a token bucket per key: Burst requests at once, then one per
// Every. Its zero value is not usable; make it with New.
type Limiter struct {
	every time.Duration
	burst float64
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

// New returns a limiter of burst requests, refilled one per every, on the
// clock now (real time: a simulated week must not free a flood).
func New(burst int, every time.Duration, now func() time.Time) *Limiter {
	l := &Limiter{every: every, burst: float64(burst), now: now, seed: maphash.MakeSeed()}
	for i := range l.shard {
		l.shard[i].buckets = make(map[string]*bucket)
	}
	return l
}

// Allow takes a token of key, and says whether there was one.
func (l *Limiter) Allow(key string) bool {
	s := &l.shard[maphash.String(l.seed, key)%shards]
	now := l.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.buckets[key]
	if !ok {
		if len(s.buckets) >= maxKeys {
			s.forget(now, l.refilledAfter())
		}
		b = &bucket{tokens: l.burst, at: now}
		s.buckets[key] = b
	}
	b.tokens = min(l.burst, b.tokens+float64(now.Sub(b.at))/float64(l.every))
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// refilledAfter is how long a bucket takes to fill up: after that it is as
// good as new and need not be remembered.
func (l *Limiter) refilledAfter() time.Duration { return time.Duration(l.burst * float64(l.every)) }

// forget drops the buckets that have filled up again; when none has, the
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
