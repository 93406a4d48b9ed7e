package desk

import (
	"context"
	"crypto/sha256"
	"math"
	"slices"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/storage"
	"shipdesk/throttle"
)

// TrackingLink is a shipment's public tracking page, from the dashboard's
// public address: <publicURL>/track/<token>. Every mail, page and shop write
// that gives the page's link builds it here.
func TrackingLink(publicURL, token string) string {
	return strings.TrimSuffix(publicURL, "/") + "/track/" + token
}

// TrackMisses is how many pages that do not exist (a token mistyped, made
// up, cut short) one client may ask for in a window: a person's mistakes
// pass, a guesser is refused (the counts of the claim pages, scope
// "track-unknown").
var TrackMisses = throttle.Limit{Hits: 20, Window: time.Hour}

// Track is a shipment as its recipient sees it on the public tracking page,
// and nothing more of it: no price, note, sender or other order.
type Track struct {
	Reference      string // the shop's order, for the claim page's link
	TrackingNumber string
	State, Status  string // the words come from the staff page's (views.ShipmentState)
	Returned       bool
	Events         []storage.Event // every package's, newest first
	// Point is the parcel point the parcel is delivered to (nil: an address).
	Point *storage.ParcelPoint
	// Expected is the day the service expects it delivered, while it is on
	// its way (nil: not said, or no longer on its way).
	Expected *time.Time
}

// Track reads the shipment of a tracking page's token. A token of another
// shape, or one no shipment has, is the same NotFound, and counted for the
// client: after TrackMisses the client is refused (TooMany) whatever it asks.
func (d *Desk) Track(ctx context.Context, token, client string) (Track, error) {
	id, err := d.trackID(ctx, token)
	if apperr.Is(err, apperr.NotFound) {
		if terr := d.trackMiss(ctx, client); terr != nil {
			return Track{}, terr
		}
	}
	if err != nil {
		return Track{}, err
	}
	s, events, err := d.db.ShipmentLive(ctx, id)
	if err != nil {
		return Track{}, err
	}
	t := Track{Reference: s.Reference, TrackingNumber: s.Tracking(), State: s.State, Status: s.Status, Returned: s.Returned,
		Events: events}
	slices.SortStableFunc(t.Events, func(a, b storage.Event) int { return b.Occurred.Compare(a.Occurred) })
	if s.Status != "DELIVERED" && s.Status != "CANCELLED" && !s.Returned && s.State == storage.StateCreated {
		if t.Expected, err = d.db.ExpectedDelivery(ctx, id); err != nil {
			return Track{}, err
		}
	}
	if _, delivery := d.ShipmentPoints(ctx, s); delivery != nil {
		t.Point = delivery.Point
	}
	return t, nil
}

func (d *Desk) trackID(ctx context.Context, token string) (int64, error) {
	if !trackTokenShape(token) {
		return 0, apperr.New(apperr.NotFound, "track.err.unknown")
	}
	return d.db.ShipmentIDByTrackToken(ctx, token)
}

// trackTokenShape says whether s is shaped as the tokens are made: 64
// lowercase hexadecimal digits (migration 00054).
func trackTokenShape(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// trackMiss counts a page that does not exist for the client; over the
// limit it is TooMany, said with its wait.
func (d *Desk) trackMiss(ctx context.Context, client string) error {
	if client == "" {
		return nil
	}
	key := sha256.Sum256([]byte(strings.ToLower(client)))
	wait, err := d.db.CountHits(ctx, d.now(), storage.Hit{Scope: "track-unknown", KeyHash: key[:], Limit: TrackMisses})
	if err != nil || wait <= 0 {
		return err
	}
	return apperr.Throttled(wait, apperr.Count("track.err.too_many", max(int(math.Ceil(wait.Minutes())), 1)))
}
