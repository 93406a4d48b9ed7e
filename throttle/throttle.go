// Package throttle holds the rules that slow down whoever asks too often
// and the arithmetic of how long they wait: sign-in's backoff after failed
// passwords (counted by staff in PostgreSQL), the customers' pages' limits
// in a sliding window (their hits kept by storage in PostgreSQL, weighed by
// Limit.Wait) and their first line in memory (InMemory). Where the counts live is the caller's; a rule and its
// wait are written once, here.
package throttle

import (
	"math"
	"slices"
	"time"
)

// Limit is Hits within Window. Counted in a sliding window (the claim page's
// counts, Wait), a key that made Hits in the last Window waits until the
// oldest of them is a Window old; in a bucket (InMemory), it has Hits at once
// and earns them back evenly over Window. Hits of zero or less: no limit.
type Limit struct {
	Hits   int
	Window time.Duration
}

// Off says whether the limit holds nobody back.
func (l Limit) Off() bool { return l.Hits <= 0 }

// Wait is how long a new hit at now must wait, given the moments of the
// key's admitted hits (in any order; those a Window or more before now do
// not count): zero while fewer than Hits fall within the Window, else until
// the Hits-th newest of them is a Window old. The window slides, so no
// boundary lets a key make twice its limit.
func (l Limit) Wait(hits []time.Time, now time.Time) time.Duration {
	if l.Off() {
		return 0
	}
	from := now.Add(-l.Window)
	in := make([]time.Time, 0, len(hits))
	for _, h := range hits {
		if h.After(from) {
			in = append(in, h)
		}
	}
	if len(in) < l.Hits {
		return 0
	}
	slices.SortFunc(in, func(a, b time.Time) int { return b.Compare(a) })
	return in[l.Hits-1].Add(l.Window).Sub(now)
}

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
