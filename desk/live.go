package desk

import (
	"context"
	"slices"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/storage"
)

// PageLessee names the leases a page makes of the records it shows.
const PageLessee = "page"

// labelBatch is how many pending labels one check asks about, as the label
// poller's batches.
const labelBatch = 100

// LabelStale says whether a page showing s at now should have its pending
// label checked (LabelCheckDue).
func LabelStale(s storage.Shipment, now time.Time, pendingAfter time.Duration) bool {
	due, ok := LabelCheckDue(s, pendingAfter)
	return ok && !due.After(now)
}

// LabelCheckDue is when a page showing s has its pending label checked (ok
// false: the label is not pending): pendingAfter after its last check, or
// sooner when the label poller's turn comes first. While checks fail, only
// the poller's backoff says when: however many pages show it, a label the
// service cannot answer for is not asked about on every view. It is the
// condition of storage's LeaseStaleLabels, for one shipment.
func LabelCheckDue(s storage.Shipment, pendingAfter time.Duration) (due time.Time, ok bool) {
	if !LabelPending(s) {
		return time.Time{}, false
	}
	if s.NextLabelCheckAt == nil {
		return time.Time{}, true // the poller's turn: now
	}
	due = *s.NextLabelCheckAt
	if s.PollFailures == 0 {
		if s.LastCheckedAt == nil {
			return time.Time{}, true
		}
		if byPage := s.LastCheckedAt.Add(pendingAfter); byPage.Before(due) {
			due = byPage
		}
	}
	return due, true
}

// LabelPending says whether a shipment's label is still being made: its page
// asks about it as time passes, not only when the database changes.
func LabelPending(s storage.Shipment) bool {
	return s.State == storage.StateCreated && s.LabelStatus == shipping.LabelPending && !Cancelled(s)
}

// RefreshDue checks, when a page shows a shipment whose pending label is
// stale (LabelStale), every pending label that waited as long, in the label
// poller's batches: one call for up to a hundred, leased first, so however
// many pages are open the service is asked once per batch, and a poller
// holding them is never doubled. A failure backs off as the pollers'. Tracking
// is left to the tracking poller, whose calls take a hundred shipments.
// refreshed says whether the page's shipment was among those checked.
func (f *Refresher) RefreshDue(ctx context.Context, id int64, now time.Time, pendingAfter time.Duration) (refreshed bool, err error) {
	c := storage.Lease{Who: PageLessee, Now: now, Limit: labelBatch, For: f.cfg.CallTimeout + 10*time.Second}
	batch, err := f.d.db.LeaseStaleLabels(ctx, c, now.Add(-pendingAfter))
	if err != nil || len(batch) == 0 {
		return false, err
	}
	ids := make([]int64, len(batch))
	for i, s := range batch {
		ids[i] = s.ID
	}
	res, err := f.Labels(ctx, batch)
	if err != nil {
		return false, f.failed(ctx, ids, now, err)
	}
	if len(res.Failed) > 0 {
		if err := f.failed(ctx, res.Failed, now, nil); err != nil {
			return false, err
		}
	}
	return slices.Contains(ids, id) && !slices.Contains(res.Failed, id), nil
}

// failed releases a page's leases after a failed call and backs off, as the
// pollers do; it returns the call's error.
func (f *Refresher) failed(ctx context.Context, ids []int64, now time.Time, err error) error {
	if ferr := f.d.db.PollFailed(ctx, ids, true, now, f.cfg.LabelEvery, f.cfg.MaxBackoff); ferr != nil {
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
