package claims

import (
	"context"
	"math"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/storage"
	"shipdesk/throttle"
)

// Limits are the throttles of the public pages, counted in PostgreSQL in a
// sliding window (storage.CountHits, throttle.Limit.Wait): one client cannot
// ask for links without end, one purchase or mailbox gets only so many link
// mails whoever asks and however the purchase is named, and a status page
// takes only so many replies. Unknown tokens count per client, so links are
// not guessed.
type Limits struct {
	// Client counts every ask and claim of one client, whether or not its
	// purchase exists: the only limit a stranger's asks meet.
	Client throttle.Limit
	// Address (the purchase's mailbox) and Purchase (its shipment) count the
	// link mails actually sent, after the ask was answered: a made-up ask
	// with someone's e-mail costs that person nothing.
	Address, Purchase throttle.Limit
	Replies, Unknown  throttle.Limit
}

// DefaultLimits are generous for a person and tight for a script.
var DefaultLimits = Limits{
	Client:   throttle.Limit{Hits: 30, Window: time.Hour},
	Address:  throttle.Limit{Hits: 5, Window: time.Hour},
	Purchase: throttle.Limit{Hits: 5, Window: time.Hour},
	Replies:  throttle.Limit{Hits: 20, Window: time.Hour},
	Unknown:  throttle.Limit{Hits: 20, Window: time.Hour},
}

// TooMany is the refusal of a request made too often, which may come again
// after wait: said the same way whatever the scope, with the wait in minutes
// and as Retry-After.
func TooMany(wait time.Duration) error {
	return apperr.Throttled(wait, apperr.Count("claim.err.too_many", max(int(math.Ceil(wait.Minutes())), 1)))
}

// hit is a request of key under scope's limit ("" counts nothing).
func hit(scope string, l throttle.Limit, key string) storage.Hit {
	if key == "" {
		return storage.Hit{}
	}
	return storage.Hit{Scope: scope, KeyHash: hashOf(strings.ToLower(key)), Limit: l}
}

// count counts a request under all of hits or, when any is at its limit,
// under none (TooMany).
func (s *Service) count(ctx context.Context, db *storage.DB, hits ...storage.Hit) error {
	wait, err := db.CountHits(ctx, s.now(), hits...)
	if err != nil {
		return err
	}
	if wait > 0 {
		return TooMany(wait)
	}
	return nil
}

// throttled counts a hit of key in scope and says whether it is over the
// limit (TooMany); a hit over the limit stores nothing.
func (s *Service) throttled(ctx context.Context, scope string, l throttle.Limit, key string) error {
	return s.count(ctx, s.db, hit(scope, l, key))
}

// Unknown counts a client's miss (a link or page that does not exist) and
// refuses the client after too many.
func (s *Service) unknown(ctx context.Context, client string, err error) error {
	if !apperr.Is(err, apperr.NotFound) {
		return err
	}
	if terr := s.throttled(ctx, "unknown", s.Limits.Unknown, client); terr != nil {
		return terr
	}
	return err
}
