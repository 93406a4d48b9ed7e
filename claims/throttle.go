package claims

import (
	"context"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/throttle"
)

// Limits are the throttles of the public pages, each counted on its own in
// PostgreSQL, per fixed window (storage.CountHit):
// one client cannot ask for links without end, one address or purchase
// cannot be flooded with mail by many clients, and a status page takes only
// so many replies. Unknown tokens count per client, so links are not guessed.
type Limits struct {
	Client, Address, Purchase, Replies, Unknown throttle.Limit
}

// DefaultLimits are generous for a person and tight for a script.
var DefaultLimits = Limits{
	Client:   throttle.Limit{Hits: 30, Window: time.Hour},
	Address:  throttle.Limit{Hits: 5, Window: time.Hour},
	Purchase: throttle.Limit{Hits: 5, Window: time.Hour},
	Replies:  throttle.Limit{Hits: 20, Window: time.Hour},
	Unknown:  throttle.Limit{Hits: 20, Window: time.Hour},
}

// throttled counts a hit of key in scope and says whether it is over the
// limit (apperr.TooMany, said the same way whatever the scope); a hit over
// the limit stores nothing.
func (s *Service) throttled(ctx context.Context, scope string, l throttle.Limit, key string) error {
	if l.Off() || key == "" {
		return nil
	}
	ok, err := s.db.CountHit(ctx, scope, hashOf(strings.ToLower(key)), l.Window, l.Hits)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.New(apperr.TooMany, "claim.err.too_many")
	}
	return nil
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
