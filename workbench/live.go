package workbench

import (
	"context"
	"time"

	"shipdesk/storage"
)

// pageLessee names the leases a commission page makes.
const pageLessee = "page"

// RefreshDue reads one commission from the service the way its poller does
// (RefreshCommissions), when a page shows it and it is due at now. It is
// leased first, as the poller leases it, so however many pages show it the
// service is asked once; a failure backs off as the poller's. refreshed is
// false when nothing was due (or another held the lease).
func (w *Workbench) RefreshDue(ctx context.Context, id int64, now time.Time) (refreshed bool, err error) {
	c, ok, err := w.db.LeaseCommissionIfDue(ctx, id, storage.Lease{Who: pageLessee, Now: now, Limit: 1, For: time.Minute})
	if err != nil || !ok {
		return false, err
	}
	if failed := w.RefreshCommissions(ctx, []storage.Commission{c}); len(failed) > 0 {
		return false, w.SyncFailed(ctx, failed, now)
	}
	return true, nil
}

// Changing says whether a commission may still change by itself: an order
// whose outcome is open, or a commission the service has not closed or
// cancelled. Its pages ask for it again while it may.
func Changing(state, status string) bool {
	switch state {
	case storage.StateOrdering, storage.StateUnknown:
		return true
	case storage.StateCreated:
		return status != "closed" && status != "cancelled"
	}
	return false
}
