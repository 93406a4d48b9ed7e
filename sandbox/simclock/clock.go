// Package simclock is the sandbox's simulated time: real time plus an offset that
// the sandbox control POST /sandbox/clock/advance moves forward. Every state move in
// the sandbox (export, tracking events, commission progress) is computed from this
// clock, so tests can jump hours ahead instead of waiting.
package simclock

import (
	"sync"
	"time"
)

// Clock is safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	real   func() time.Time
	offset time.Duration
}

// New returns a clock that runs with real time (plus any advances).
func New() *Clock { return &Clock{real: time.Now} }

// Frozen returns a clock that stands still at t until advanced: tests use it so that
// nothing moves unless the test says so.
func Frozen(t time.Time) *Clock {
	return &Clock{real: func() time.Time { return t }}
}

// Now is the simulated current time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.real().Add(c.offset)
}

// Advance moves simulated time forward by d (negative values are ignored: time
// never runs backwards, or already applied moves would contradict the clock).
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d > 0 {
		c.offset += d
	}
	return c.real().Add(c.offset)
}

// Offset is how far the clock has been advanced in total (kept in --state files).
func (c *Clock) Offset() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.offset
}

// SetOffset restores an offset saved in a state file.
func (c *Clock) SetOffset(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d > c.offset {
		c.offset = d
	}
}
