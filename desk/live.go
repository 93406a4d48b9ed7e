package desk

import (
	"context"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/storage"
)

// PageClaimer names the claims a page makes of the record it shows.
const PageClaimer = "page"

// RefreshDue refreshes one shipment the way the pollers do, when a page shows
// it and it is due: its label check or tracking update is due at now, or its
// label is pending and was last checked more than pendingAfter ago. The
// shipment is claimed first, as a poller claims it, so however many pages
// show it the service is asked once; a failure backs off as the pollers'.
// refreshed is false when nothing was due (or another held the claim).
func (f *Refresher) RefreshDue(ctx context.Context, id int64, now time.Time, pendingAfter time.Duration) (refreshed bool, err error) {
	c := storage.Claim{Who: PageClaimer, Now: now, Limit: 1, Lease: f.cfg.CallTimeout + 10*time.Second}
	due, ok, err := f.d.db.ClaimShipmentIfDue(ctx, id, c, now.Add(-pendingAfter))
	if err != nil || !ok {
		return false, err
	}
	one := []storage.Shipment{due.Shipment}
	if due.LabelDue {
		res, err := f.Labels(ctx, one)
		if err != nil || len(res.Failed) > 0 {
			return false, f.failed(ctx, id, true, now, f.cfg.LabelEvery, err)
		}
	}
	if due.TrackDue {
		res, err := f.Tracking(ctx, one)
		if err != nil || len(res.Failed) > 0 {
			return false, f.failed(ctx, id, false, now, f.cfg.TrackEvery, err)
		}
	}
	return true, nil
}

// failed releases a page's claim after a failed call and backs off, as the
// pollers do; it returns the call's error.
func (f *Refresher) failed(ctx context.Context, id int64, label bool, now time.Time, base time.Duration, err error) error {
	if ferr := f.d.db.PollFailed(ctx, []int64{id}, label, now, base, f.cfg.MaxBackoff); ferr != nil {
		return ferr
	}
	if err != nil {
		return UpstreamError("ship.doing.refresh", err)
	}
	return nil
}

// Changing says whether a shipment's state may still change by itself: an
// order whose outcome is open, or a created shipment not yet delivered or
// cancelled. Its pages ask for it again while it may.
func Changing(s storage.Shipment) bool {
	switch s.State {
	case storage.StateOrdering, storage.StateUnknown:
		return true
	case storage.StateCreated:
		return !Cancelled(s) && s.Status != shipping.StatusDelivered
	}
	return false
}
