package staff

import (
	"time"

	"shipdesk/storage"
	"shipdesk/throttle"
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
	Pair    throttle.Backoff
	Account throttle.Backoff
	Address throttle.Backoff
}

// DefaultThrottle is the policy for staff sign-in. A guesser at one address gets
// 5 tries, then about 8 more in the next 15 minutes. The account-wide limit lets
// 50 failures pass before anyone waits, and then at most 15 seconds. An office
// of a few dozen people can fail 100 times in 15 minutes before its address
// waits, and then at most a minute.
func DefaultThrottle() Throttle {
	return Throttle{
		Window:  15 * time.Minute,
		Pair:    throttle.Backoff{Free: 5, FirstWait: 2 * time.Second, MaxWait: 5 * time.Minute},
		Account: throttle.Backoff{Free: 50, FirstWait: time.Second, MaxWait: 15 * time.Second},
		Address: throttle.Backoff{Free: 100, FirstWait: time.Second, MaxWait: time.Minute},
	}
}

// refusal is which limit holds an attempt back, and for how long.
type refusal struct {
	wait     time.Duration
	fromHere bool // the address's own failures (pair or address limit), not the account's
}

// check says whether an attempt may go on now, given the recent failures.
func (t Throttle) check(c storage.LoginFailureCounts, now time.Time) refusal {
	wait := func(b throttle.Backoff, f storage.FailureCount) time.Duration { return b.Wait(f.Count, f.Last, now) }
	pair, addr, acct := wait(t.Pair, c.Pair), wait(t.Address, c.Address), wait(t.Account, c.Account)
	if local := max(pair, addr); local > 0 && local >= acct {
		return refusal{wait: local, fromHere: true}
	}
	return refusal{wait: acct}
}
