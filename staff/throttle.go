package staff

import (
	"math"
	"time"

	"shipdesk/storage"
)

// Throttle slows password guessing with three limits, each counted over Window:
//
//   - Pair, one account from one address, is the strict one: a few free tries,
//     then a wait that doubles up to minutes. It stops a guesser without
//     touching the account's owner, who signs in from another address.
//   - Account, one account from anywhere, is soft: many free tries and a short
//     wait. It only slows guessing spread over many addresses, and an owner
//     caught by it waits seconds, not minutes.
//   - Address, any account from one address, is high enough for an office
//     behind one NAT address (people mistype) and stops spraying many usernames.
//
// Every attempt is recorded as a failure before its password is checked (and
// forgotten when it succeeds), under a database lock per account and address, so
// parallel guesses count each other and at most Free of them are checked. An
// attempt refused by the throttle is not recorded: waiting is the only way on,
// and hammering does not lengthen the owner's wait.
type Throttle struct {
	Window  time.Duration
	Pair    Limit
	Account Limit
	Address Limit
}

// Limit allows Free failures; after that each attempt waits FirstWait after the
// last failure, doubling with every further failure, up to MaxWait.
type Limit struct {
	Free      int
	FirstWait time.Duration
	MaxWait   time.Duration
}

// DefaultThrottle is the policy for staff sign-in. A guesser at one address gets
// 5 tries, then about 8 more in the next 15 minutes. The account-wide limit lets
// 50 failures pass before anyone waits, and then at most 15 seconds. An office
// of a few dozen people can fail 100 times in 15 minutes before its address
// waits, and then at most a minute.
func DefaultThrottle() Throttle {
	return Throttle{
		Window:  15 * time.Minute,
		Pair:    Limit{Free: 5, FirstWait: 2 * time.Second, MaxWait: 5 * time.Minute},
		Account: Limit{Free: 50, FirstWait: time.Second, MaxWait: 15 * time.Second},
		Address: Limit{Free: 100, FirstWait: time.Second, MaxWait: time.Minute},
	}
}

// refusal is which limit holds an attempt back, and for how long.
type refusal struct {
	wait     time.Duration
	fromHere bool // the address's own failures (pair or address limit), not the account's
}

// check says whether an attempt may go on now, given the recent failures.
func (t Throttle) check(c storage.LoginFailureCounts, now time.Time) refusal {
	pair, addr, acct := t.Pair.wait(c.Pair, now), t.Address.wait(c.Address, now), t.Account.wait(c.Account, now)
	if local := max(pair, addr); local > 0 && local >= acct {
		return refusal{wait: local, fromHere: true}
	}
	return refusal{wait: acct}
}

// wait returns how long the caller must still wait, zero when it may try now.
func (l Limit) wait(c storage.FailureCount, now time.Time) time.Duration {
	if c.Count < l.Free || c.Last == nil {
		return 0
	}
	steps := float64(c.Count - l.Free)
	d := time.Duration(float64(l.FirstWait) * math.Pow(2, math.Min(steps, 30)))
	if d > l.MaxWait || d <= 0 {
		d = l.MaxWait
	}
	return max(c.Last.Add(d).Sub(now), 0)
}
