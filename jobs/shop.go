package jobs

import (
	"context"

	"shipdesk/shop"
)

// Shop is the connected shop's side of the pollers: the sync of its changed
// orders (due once a minute, leased in PostgreSQL so two instances never pull
// the same changes) and the writes back (each leased, retried with its
// back-off).
type Shop interface {
	Sync(ctx context.Context) (shop.SyncStats, error)
	SendWrites(ctx context.Context) (shop.WriteStats, error)
}

// FollowShop has each cycle sync the shop's orders when due and send the
// writes back that are due.
func (r *Runner) FollowShop(s Shop) { r.shop = s }

// shopCycle is the shop's part of a cycle, after the label poll, so a
// tracking number found in this cycle is written back in it.
func (r *Runner) shopCycle(ctx context.Context) {
	if r.shop == nil {
		return
	}
	if s, err := r.shop.Sync(ctx); err != nil && ctx.Err() == nil {
		r.log.Warn("shop sync", "err", err)
	} else if s.Synced && s.Changes > 0 {
		r.log.Info("shop orders synced", "changes", s.Changes, "read", s.Read, "stored", s.Stored, "gone", s.Gone, "unreadable", s.Unreadable)
	}
	if s, err := r.shop.SendWrites(ctx); err != nil && ctx.Err() == nil {
		r.log.Warn("shop writes", "err", err)
	} else if s != (shop.WriteStats{}) {
		r.log.Info("shop written", "sent", s.Sent, "retried", s.Retried, "failed", s.Failed)
	}
}
