// Package throttle holds the rules that slow down whoever asks too often
// and the arithmetic of how long they wait: sign-in's backoff after failed
// passwords (counted by staff in PostgreSQL), the customers' pages' limits
// per window (counted by claims in PostgreSQL) and their first line in
// memory (InMemory). Where the counts live is the caller's; a rule and its
// wait are written once, here.
package throttle

import (
	"math"
	"time"
)

// Limit is Hits within Window. Counted per window (the claim page's counts),
// a key that made Hits waits for the next window; in a bucket (InMemory), it
// has Hits at once and earns them back evenly over Window. Hits of zero or
// less: no limit.
type Limit struct {
	Hits   int
	Window time.Duration
}

// Off says whether the limit holds nobody back.
func (l Limit) Off() bool { return l.Hits <= 0 }

// Backoff allows Free failures; after that each attempt waits FirstWait
// after the last failure, doubling with every further failure, up to
// MaxWait.
type Backoff struct {
	Free      int
	FirstWait time.Duration
	MaxWait   time.Duration
}

// Wait is how long an attempt at now must still wait after failures, the
// last of them at last (nil: none); zero when it may go on.
func (b Backoff) Wait(failures int, last *time.Time, now time.Time) time.Duration {
	if failures < b.Free || last == nil {
		return 0
	}
	steps := float64(failures - b.Free)
	d := time.Duration(float64(b.FirstWait) * math.Pow(2, math.Min(steps, 30)))
	if d > b.MaxWait || d <= 0 {
		d = b.MaxWait
	}
	return max(last.Add(d).Sub(now), 0)
}
