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
// holding them is never doubled. A failure backs off as the pollers' (poll).
// Tracking is left to the tracking poller, whose calls take a hundred
// shipments. refreshed says whether the page's shipment was among those
// checked.
func (f *Refresher) RefreshDue(ctx context.Context, id int64, now time.Time, pendingAfter time.Duration) (refreshed bool, err error) {
	l := storage.Lease{Who: PageLessee, Now: now, Limit: labelBatch, For: f.cfg.CallTimeout + 10*time.Second}
	batch, err := f.d.db.LeaseStaleLabels(ctx, l, now.Add(-pendingAfter))
	if err != nil || len(batch) == 0 {
		return false, err
	}
	p, err := f.poll(ctx, batch, true)
	if err != nil {
		return false, err
	}
	if p.Err != nil {
		return false, UpstreamError("ship.doing.refresh", p.Err)
	}
	return slices.Contains(p.Leased, id) && !slices.Contains(p.Failed, id), nil
}

// Polled is what one poll of a leased batch did.
type Polled struct {
	Leased    []int64 // the shipments leased and asked about, in order (none: nothing was due)
	Refreshed         // what the answers brought; those that failed are backed off
	Err       error   // the call failed: every leased shipment is backed off
}

// PollLabels leases up to l.Limit shipments whose pending label is due a
// check and polls them in one detail call.
func (f *Refresher) PollLabels(ctx context.Context, l storage.Lease) (Polled, error) {
	batch, err := f.d.db.LeaseLabelChecks(ctx, l)
	if err != nil {
		return Polled{}, err
	}
	return f.poll(ctx, batch, true)
}

// PollTracking leases up to l.Limit moving shipments due a tracking update
// and polls them in one tracking call.
func (f *Refresher) PollTracking(ctx context.Context, l storage.Lease) (Polled, error) {
	batch, err := f.d.db.LeaseTracking(ctx, l)
	if err != nil {
		return Polled{}, err
	}
	return f.poll(ctx, batch, false)
}

// poll asks about a leased batch, its labels or its tracking, records the
// answers and backs off what failed: the whole batch when the call did,
// else the shipments not reported or not stored. The next try comes after
// the cadence doubled for every failure in a row, at most MaxBackoff. An
// error means the back-off itself was not stored.
func (f *Refresher) poll(ctx context.Context, batch []storage.Shipment, label bool) (Polled, error) {
	p := Polled{Leased: make([]int64, len(batch))}
	for i, s := range batch {
		p.Leased[i] = s.ID
	}
	if len(batch) == 0 {
		return p, nil
	}
	ask, every := f.Tracking, f.cfg.TrackEvery
	if label {
		ask, every = f.Labels, f.cfg.LabelEvery
	}
	p.Refreshed, p.Err = ask(ctx, batch)
	failed := p.Failed
	if p.Err != nil {
		failed = p.Leased
	}
	if len(failed) == 0 {
		return p, nil
	}
	return p, f.d.db.PollFailed(ctx, failed, label, f.d.now(), every, f.cfg.MaxBackoff)
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
