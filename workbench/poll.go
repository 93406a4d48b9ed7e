package workbench

import (
	"context"
	"errors"
	"time"

	"shipdesk/storage"
)

// SyncDue reads every open commission that is due again, claiming each first
// so several instances never read the same one; a failure backs off. It
// returns the commissions it handled.
func (w *Workbench) SyncDue(ctx context.Context, c storage.Claim, maxBackoff time.Duration) ([]int64, error) {
	var handled []int64
	for ctx.Err() == nil {
		c.Now = w.now()
		batch, err := w.db.ClaimCommissionSync(ctx, c)
		if err != nil || len(batch) == 0 {
			return handled, err
		}
		for _, cm := range batch {
			handled = append(handled, cm.ID)
			if _, err := w.Sync(ctx, cm.ID); err != nil {
				w.log.Warn("commission sync failed; backing off", "commission", cm.ID, "err", err)
				if ferr := w.db.CommissionSyncFailed(ctx, []int64{cm.ID}, w.now(), w.SyncEvery, maxBackoff); ferr != nil {
					return handled, ferr
				}
			}
		}
	}
	return handled, ctx.Err()
}

// MaintainOnce settles commissions whose answer was lost and refreshes the
// product lists once a day.
func (w *Workbench) MaintainOnce(ctx context.Context) {
	list, err := w.db.UnsettledCommissions(ctx, w.now().Add(-2*time.Minute))
	if err != nil {
		w.log.Warn("unsettled commissions", "err", err)
	}
	for _, c := range list {
		if _, err := w.Reconcile(ctx, c.ID); err != nil && !errors.Is(err, context.Canceled) {
			w.log.Warn("reconcile commission", "commission", c.ID, "err", err)
		}
	}
	_, _, at, err := w.db.Products(ctx)
	if err == nil && (at == nil || w.now().Sub(*at) > 24*time.Hour) {
		if err := w.RefreshProducts(ctx); err != nil && !errors.Is(err, context.Canceled) {
			w.log.Warn("refresh products", "err", err)
		}
	}
}

// SetClock replaces the workbench's clock (tests).
func (w *Workbench) SetClock(now func() time.Time) { w.now = now }
