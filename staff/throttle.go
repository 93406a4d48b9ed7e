package staff

import (
	"math"
	"time"

	"shipdesk/storage"
)

// Throttle slows password guessing. After Free failures within Window for one
// account (or AddressFree for one address, which may be a whole office behind NAT),
// every further attempt must wait twice as long as the one before since the last
// failure, up to MaxWait. A throttled attempt is refused before the password is
// checked, so waiting is the only way on.
type Throttle struct {
	Window      time.Duration
	Free        int
	AddressFree int
	FirstWait   time.Duration
	MaxWait     time.Duration
}

// DefaultThrottle is the policy for staff sign-in.
func DefaultThrottle() Throttle {
	return Throttle{Window: 15 * time.Minute, Free: 5, AddressFree: 30, FirstWait: 2 * time.Second, MaxWait: 5 * time.Minute}
}

// wait returns how long the caller must still wait, zero when it may try now.
func (t Throttle) wait(byUser, byAddress storage.FailureCount, now time.Time) time.Duration {
	return max(t.waitFor(byUser, t.Free, now), t.waitFor(byAddress, t.AddressFree, now))
}

func (t Throttle) waitFor(c storage.FailureCount, free int, now time.Time) time.Duration {
	if c.Count < free || c.Last == nil {
		return 0
	}
	steps := float64(c.Count - free)
	d := time.Duration(float64(t.FirstWait) * math.Pow(2, math.Min(steps, 30)))
	if d > t.MaxWait || d <= 0 {
		d = t.MaxWait
	}
	left := c.Last.Add(d).Sub(now)
	if left < 0 {
		return 0
	}
	return left
}
