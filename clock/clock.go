// Package clock is shipdesk's one clock: the time every part of the dashboard
// records and shows. Against the real service it is real time; in sandbox mode
// it is the simulator's time (real time plus the advances of the sandbox's
// clock control), shared directly with an in-process sandbox and followed from
// an external one. Tests run the dashboard and the sandbox on one clock that
// starts at a chosen epoch.
//
// Only this package reads the wall clock for a moment to record or show
// (architecture/clock_test.go holds the rest of the module to that); measuring
// how long our own work took (time.Since of a monotonic start) is fine anywhere.
package clock

import (
	"sync"
	"sync/atomic"
	"time"
)

// Clock is safe for concurrent use; the zero value is not usable (see Real,
// Simulated, From and Frozen).
type Clock struct {
	mu     sync.Mutex   // one change of the offset at a time
	offset atomic.Int64 // a time.Duration; read without the lock (every request reads the clock several times)
	base   func() time.Time
	sim    bool
}

// Real is the wall clock: the time of the real service.
func Real() *Clock { return &Clock{base: time.Now} }

// Simulated runs with real time plus the advances of the simulator's clock
// control: the clock of `shipdesk sandbox` and of the in-process sandbox.
func Simulated() *Clock { return &Clock{base: time.Now, sim: true} }

// From is a simulated clock that stands at epoch now and runs at real speed
// from there: tests start the dashboard and the sandbox on one such clock, on
// an epoch that may lie before or after today.
func From(epoch time.Time) *Clock {
	start := time.Now()
	return &Clock{base: func() time.Time { return epoch.Add(time.Since(start)) }, sim: true}
}

// Frozen is a simulated clock that stands still at t until advanced: unit
// tests of the sandbox use it so that nothing moves unless the test says so.
func Frozen(t time.Time) *Clock {
	return &Clock{base: func() time.Time { return t }, sim: true}
}

// Now is the current time on this clock.
func (c *Clock) Now() time.Time {
	return c.base().Add(c.off())
}

func (c *Clock) off() time.Duration { return time.Duration(c.offset.Load()) }

// Since is how long ago t was on this clock.
func (c *Clock) Since(t time.Time) time.Duration { return c.Now().Sub(t) }

// Until is how long until t on this clock.
func (c *Clock) Until(t time.Time) time.Duration { return t.Sub(c.Now()) }

// Simulated reports whether this is a simulator's clock, which the sandbox's
// control may move.
func (c *Clock) Simulated() bool { return c.sim }

// Advance moves a simulated clock forward by d and returns the new time.
// Negative moves are ignored: time never runs backwards, or moves the
// simulator already made would contradict the clock. The real clock does not move.
func (c *Clock) Advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sim && d > 0 {
		c.offset.Add(int64(d))
	}
	return c.base().Add(c.off())
}

// Offset is how far the clock has been advanced in total (kept in the
// sandbox's state file).
func (c *Clock) Offset() time.Duration { return c.off() }

// SetOffset restores an offset saved in a state file; it never moves the clock back.
func (c *Clock) SetOffset(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sim && d > c.off() {
		c.offset.Store(int64(d))
	}
}

// Follow sets a simulated clock so that it reads what another clock read a
// moment ago: how the dashboard follows an external sandbox's clock. It moves
// forward at once; it goes back only for a difference of more than a second
// (the first reading, a restarted sandbox), never for the few milliseconds a
// reading takes on its way.
func (c *Clock) Follow(other time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, off := other.Sub(c.base()), c.off(); c.sim && (d > off || off-d > time.Second) {
		c.offset.Store(int64(d))
	}
}
