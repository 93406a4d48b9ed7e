package shop

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	"shipdesk/apperr"
	"shipdesk/storage"
)

// The sync reads what changed in the shop since the last change it stored
// and keeps each changed order, read whole, at most Parallel at once; the
// cursor moves in the transaction that stores the orders, and only past
// changes whose order is stored, so a shop that stops answering halfway
// loses nothing: the next sync reads on from there. Each sync is leased in
// PostgreSQL, so two instances never pull the same changes.

// SyncStats counts what one sync did.
type SyncStats struct {
	Changes    int // changes listed
	Read       int // orders read
	Stored     int // orders kept
	Gone       int // orders the shop has no more
	Unreadable int // orders the shop answered for with what cannot be read
	Synced     bool
}

// Sync runs the sync when it is due and no other instance holds it.
func (s *Service) Sync(ctx context.Context) (SyncStats, error) {
	var st SyncStats
	c, ok, err := s.db.LeaseShopSync(ctx, s.lease(1))
	if err != nil || !ok {
		return st, err
	}
	src, err := s.sourceOf(c)
	if err != nil {
		return st, s.endSync(ctx, c, c.SyncFrom, err)
	}
	changes, err := src.Changes(ctx, c.SyncFrom.Add(-s.cfg.Overlap))
	if err != nil {
		return st, s.endSync(ctx, c, c.SyncFrom, err)
	}
	st.Changes = len(changes)
	slices.SortStableFunc(changes, func(a, b Change) int { return a.Changed.Compare(b.Changed) })
	latest := map[string]time.Time{}
	var codes []string
	for _, ch := range changes {
		if _, seen := latest[ch.Code]; !seen {
			codes = append(codes, ch.Code)
		}
		latest[ch.Code] = ch.Changed
	}
	known, err := s.db.ShopChangesKnown(ctx, codes)
	if err != nil {
		return st, s.endSync(ctx, c, c.SyncFrom, err)
	}
	var wanted []string
	for _, code := range codes {
		if k, ok := known[code]; !ok || changedSince(k, latest[code]) {
			wanted = append(wanted, code)
		}
	}
	reads := s.readAll(ctx, src, wanted)
	var orders []Order
	var gone []string
	var failed error
	done := map[string]bool{}
	for _, code := range codes {
		done[code] = true
	}
	for _, r := range reads {
		st.Read++
		switch {
		case r.err == nil:
			if r.order.Changed.Before(latest[r.code]) {
				r.order.Changed = latest[r.code] // known as of the change listed, read only after it
			}
			orders = append(orders, r.order)
		case apperr.Is(r.err, apperr.NotFound):
			gone = append(gone, r.code)
		case apperr.Is(r.err, apperr.Invalid):
			st.Unreadable++
			s.log.Warn("shop order unreadable", "order", r.code, "err", r.err)
		default:
			done[r.code] = false
			failed = cmpErr(failed, r.err)
		}
	}
	// The cursor passes each change whose order is stored, up to the first
	// that is not.
	cursor := c.SyncFrom
	for _, ch := range changes {
		if !done[ch.Code] {
			break
		}
		if ch.Changed.After(cursor) {
			cursor = ch.Changed
		}
	}
	err = s.db.InTx(ctx, func(tx *storage.DB) error {
		if err := s.store(ctx, tx, orders, gone); err != nil {
			return err
		}
		return s.endSyncOn(ctx, tx, c, cursor, failed)
	})
	st.Stored, st.Gone, st.Synced = len(orders), len(gone), err == nil && failed == nil
	if err != nil {
		return st, err
	}
	return st, failed
}

// sameMoment is how close to a change an order must have been read for a
// second change listed at the same time to be possible: the shop stamps
// changes to the second, and its clock and ours may differ by one.
const sameMoment = 2 * time.Second

// changedSince says whether a change listed at listed may be one the kept
// copy k lacks: later than the copy's, or at the same stamp while the copy
// was read within that moment.
func changedSince(k storage.ShopKnown, listed time.Time) bool {
	return k.Changed.Before(listed) || k.Changed.Equal(listed) && k.Stored.Before(listed.Add(sameMoment))
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// read is one order read, or why not.
type read struct {
	code  string
	order Order
	err   error
}

// readAll reads the orders, at most Parallel at once; after the shop fails
// (down, limiting us) the orders not asked yet are left for the next sync.
func (s *Service) readAll(ctx context.Context, src Source, codes []string) []read {
	out := make([]read, len(codes))
	next := make(chan int)
	var stop sync.Once
	stopped := make(chan struct{})
	var wg sync.WaitGroup
	for range min(s.cfg.Parallel, len(codes)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				o, err := src.Order(ctx, codes[i])
				out[i] = read{code: codes[i], order: o, err: err}
				if err != nil && !apperr.Is(err, apperr.NotFound) && !apperr.Is(err, apperr.Invalid) {
					stop.Do(func() { close(stopped) })
				}
			}
		}()
	}
	asked := 0
feed:
	for i := range codes {
		select {
		case <-stopped:
			break feed
		default:
		}
		select {
		case <-stopped:
			break feed
		case <-ctx.Done():
			break feed
		case next <- i:
			asked++
		}
	}
	close(next)
	wg.Wait()
	for i := asked; i < len(codes); i++ {
		out[i] = read{code: codes[i], err: apperr.New(apperr.Unavailable, "shop.err.unreachable")}
	}
	return out
}

// endSync records a sync that failed before it stored anything.
func (s *Service) endSync(ctx context.Context, c storage.ShopConnection, cursor time.Time, failed error) error {
	if err := s.endSyncOn(ctx, s.db, c, cursor, failed); err != nil {
		return err
	}
	return failed
}

// endSyncOn records the sync's end on tx: the cursor reached, the next sync
// (a minute on, or later after failures in a row), the failure in words.
func (s *Service) endSyncOn(ctx context.Context, tx *storage.DB, c storage.ShopConnection, cursor time.Time, failed error) error {
	now := s.now()
	end := storage.ShopSynced{Who: s.cfg.Who, From: cursor, Next: now.Add(s.cfg.SyncEvery), At: now}
	if failed != nil {
		end.Failed, end.Failures = true, c.SyncFailures+1
		end.Next = now.Add(max(s.cfg.SyncBackoff.Wait(end.Failures, &now, now), s.cfg.SyncEvery))
		if end.Error = apperr.TextOf(failed); end.Error.IsZero() {
			end.Error = apperr.Msg("shop.err.unreachable")
		}
		s.log.Warn("shop sync failed", "failures", end.Failures, "err", failed)
	}
	_, err := tx.EndShopSync(ctx, end)
	return err
}

// Touch reads one order now (a webhook said it changed) and keeps it as the
// sync does; the sync reads it anyway when this fails.
func (s *Service) Touch(ctx context.Context, code string) error {
	src, _, err := s.source(ctx)
	if err != nil {
		return err
	}
	o, err := src.Order(ctx, code)
	switch {
	case apperr.Is(err, apperr.NotFound):
		return s.db.InTx(ctx, func(tx *storage.DB) error { return s.store(ctx, tx, nil, []string{code}) })
	case err != nil:
		return err
	}
	return s.db.InTx(ctx, func(tx *storage.DB) error { return s.store(ctx, tx, []Order{o}, nil) })
}

// store keeps orders read from the shop, cleaned and judged, and marks
// those it has no more.
func (s *Service) store(ctx context.Context, tx *storage.DB, orders []Order, gone []string) error {
	now := s.now()
	if err := tx.MarkShopOrdersGone(ctx, gone, now); err != nil {
		return err
	}
	if len(orders) == 0 {
		return nil
	}
	list := make([]kept, 0, len(orders))
	codes := make([]string, 0, len(orders))
	for _, o := range orders {
		k := cleaned(o)
		if k.Code == "" || len(k.Code) > 60 {
			s.log.Warn("shop order without a usable code", "code", cut(k.Code, 60))
			continue
		}
		if k.Changed.IsZero() {
			k.Changed = now
		}
		if k.Created.IsZero() {
			k.Created = k.Changed
		}
		list, codes = append(list, k), append(codes, k.Code)
	}
	b, err := s.basisFor(ctx, list)
	if err != nil {
		return err
	}
	ours, err := s.db.OurTrackingNumbers(ctx, codes)
	if err != nil {
		return err
	}
	rows := make([]storage.ShopOrder, 0, len(list))
	for _, k := range list {
		j := b.judge(ctx, k, ours[k.Code], "")
		j.row.StoredAt = now
		rows = append(rows, j.row)
	}
	return tx.StoreShopOrders(ctx, rows)
}

// Rejudge judges every kept order again (what the statuses and methods mean
// changed, or the points): a thousand at a time.
func (s *Service) Rejudge(ctx context.Context) error {
	after := ""
	for {
		page, err := s.db.ShopOrderPages(ctx, after, 1000)
		if err != nil || len(page) == 0 {
			return err
		}
		list := make([]kept, len(page))
		codes := make([]string, len(page))
		for i, row := range page {
			if err := json.Unmarshal(row.Doc, &list[i]); err != nil {
				return err
			}
			codes[i] = row.Code
		}
		b, err := s.basisFor(ctx, list)
		if err != nil {
			return err
		}
		ours, err := s.db.OurTrackingNumbers(ctx, codes)
		if err != nil {
			return err
		}
		judged := make([]storage.ShopOrder, len(page))
		for i, k := range list {
			j := b.judge(ctx, k, ours[k.Code], "")
			if page[i].State == storage.ShopGone {
				j.row.State = storage.ShopGone
			}
			j.row.Revision = page[i].Revision
			judged[i] = j.row
		}
		if err := s.db.RejudgeShopOrders(ctx, judged); err != nil {
			return err
		}
		after = page[len(page)-1].Code
	}
}
