package upstream

import (
	"context"
	"sync"
	"time"

	"shipdesk/client/sandboxctl"
	"shipdesk/clock"
)

// Faults are the misbehaviours the sandbox plays on every interface for a
// demonstration, in plain values: zero is none.
type Faults struct {
	LatencyMS    int     // added to every answer
	ErrorPercent float64 // share of calls answered "service unavailable"
	LostPercent  float64 // share of calls done whose answer never comes
}

// On reports whether any fault is played.
func (f Faults) On() bool { return f.LatencyMS > 0 || f.ErrorPercent > 0 || f.LostPercent > 0 }

// FaultsMaxAge is how long the banner may show faults as read before: every
// page shows them, and a page must not wait on the sandbox for that.
const FaultsMaxAge = 3 * time.Second

// faultsReadLimit is the longest a page waits for the sandbox to say which
// faults it plays.
const faultsReadLimit = time.Second

// faultsSeen is the faults last read or set, and when.
type faultsSeen struct {
	mu     sync.RWMutex // read by every page at once; written every few seconds
	faults Faults
	err    error // the last read failed: pages do not wait on a sandbox that is down
	read   clock.Stopwatch
	known  bool
}

// Faults are the faults the sandbox plays on every interface, as read at
// most FaultsMaxAge ago (waiting at most faultsReadLimit for them; the time
// limit is made only when the sandbox is asked, not for every page). A fault
// a test sets on one path is not a demonstration's and is not counted.
func (c *Clients) Faults(ctx context.Context) (Faults, error) {
	if c.Controls == nil {
		return Faults{}, ErrNoSandbox
	}
	c.faults.mu.RLock()
	f, err, fresh := c.faults.faults, c.faults.err, c.faults.known && c.faults.read.Elapsed() < FaultsMaxAge
	c.faults.mu.RUnlock()
	if fresh {
		return f, err
	}
	c.faults.mu.Lock()
	defer c.faults.mu.Unlock()
	if c.faults.known && c.faults.read.Elapsed() < FaultsMaxAge { // read meanwhile by another page
		return c.faults.faults, c.faults.err
	}
	ctx, cancel := context.WithTimeout(ctx, faultsReadLimit)
	defer cancel()
	list, err := c.Controls.Faults(ctx)
	if err != nil {
		c.faults.faults, c.faults.err, c.faults.read, c.faults.known = Faults{}, err, clock.Start(), true
		return Faults{}, err
	}
	f = Faults{}
	for _, x := range list {
		if x.Path == "" && x.Count == 0 {
			f = Faults{LatencyMS: x.LatencyMS, ErrorPercent: x.ErrorRate * 100, LostPercent: x.DropAfterRate * 100}
			break
		}
	}
	c.faults.faults, c.faults.err, c.faults.read, c.faults.known = f, nil, clock.Start(), true
	return f, nil
}

// SetFaults replaces the faults the sandbox plays with f on every interface;
// zero faults turn them off.
func (c *Clients) SetFaults(ctx context.Context, f Faults) error {
	if c.Controls == nil {
		return ErrNoSandbox
	}
	c.faults.mu.Lock()
	defer c.faults.mu.Unlock()
	c.faults.known = false
	if err := c.Controls.ClearFaults(ctx); err != nil {
		return err
	}
	if f.On() {
		err := c.Controls.AddFault(ctx, sandboxctl.Fault{LatencyMS: f.LatencyMS, ErrorRate: f.ErrorPercent / 100, DropAfterRate: f.LostPercent / 100})
		if err != nil {
			return err
		}
	}
	c.faults.faults, c.faults.err, c.faults.read, c.faults.known = f, nil, clock.Start(), true
	return nil
}
