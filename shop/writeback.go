package shop

import (
	"context"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/storage"
)

// The shop hears back through writes recorded by the statement that stores
// the change causing them (storage: a parcel's tracking number, its
// hand-over, its storno), once per event. The pollers send them here, one
// lease at a time, in each order's order; a shop that is down or limits us
// (429, 423, 5xx, no answer: apperr.Unavailable) is asked again later, each
// wait doubled (throttle.Backoff), and what the shop refuses, or what still
// fails after WriteAttempts, is kept as failed with the shop's answer and
// goes on the attention queue. A write the shop took is never sent again;
// one whose answer was lost is sent again, which sets the same value.

// WriteStats counts what one round of writing did.
type WriteStats struct {
	Sent, Retried, Failed int
}

// SendWrites sends every write that is due.
func (s *Service) SendWrites(ctx context.Context) (WriteStats, error) {
	var st WriteStats
	src, _, err := s.source(ctx)
	if apperr.Is(err, apperr.NotFound) {
		return st, nil // no shop connected: nothing is recorded either
	}
	if err != nil {
		return st, err
	}
	for ctx.Err() == nil {
		batch, err := s.db.LeaseShopWrites(ctx, s.lease(1))
		if err != nil || len(batch) == 0 {
			return st, err
		}
		if err := s.sendWrite(ctx, src, batch[0], &st); err != nil {
			return st, err
		}
	}
	return st, ctx.Err()
}

func (s *Service) sendWrite(ctx context.Context, src Source, w storage.ShopWrite, st *WriteStats) error {
	var err error
	switch w.Kind {
	case storage.ShopWriteStatus:
		err = src.SetStatus(ctx, w.OrderCode, *w.StatusID, w.Quiet)
	default:
		var link string
		if link, err = s.trackingLink(ctx, w); err == nil {
			err = src.WriteTracking(ctx, w.OrderCode, w.TrackingNumber, link)
		}
	}
	if ctx.Err() != nil {
		return ctx.Err() // stopped mid-write: the lease hands it on
	}
	now := s.now()
	if err == nil {
		st.Sent++
		_, err := s.db.ShopWriteSent(ctx, w.ID, s.cfg.Who, now)
		return err
	}
	why := apperr.TextOf(err)
	if why.IsZero() {
		why = apperr.Msg("shop.err.write_failed")
	}
	if !apperr.Is(err, apperr.Unavailable) || w.Attempts >= s.cfg.WriteAttempts {
		st.Failed++
		s.log.Warn("shop write failed for good", "write", w.ID, "order", w.OrderCode, "kind", w.Kind, "attempts", w.Attempts, "err", err)
		_, err := s.db.ShopWriteGaveUp(ctx, w.ID, s.cfg.Who, why)
		return err
	}
	st.Retried++
	s.log.Info("shop write to try again", "write", w.ID, "order", w.OrderCode, "attempts", w.Attempts, "err", err)
	_, err = s.db.ShopWriteRetry(ctx, w.ID, s.cfg.Who, now.Add(s.cfg.WriteBackoff.Wait(w.Attempts, &now, now)), why)
	return err
}

// trackingLink is the recipient's tracking page of the write's shipment, for
// a platform that takes an order's tracking link ("" when the number is
// cleared, or no public address is known).
func (s *Service) trackingLink(ctx context.Context, w storage.ShopWrite) (string, error) {
	if w.TrackingNumber == "" || w.ShipmentID == nil || s.cfg.PublicURL == "" {
		return "", nil
	}
	token, err := s.db.TrackToken(ctx, *w.ShipmentID)
	if err != nil {
		return "", err
	}
	return desk.TrackingLink(s.cfg.PublicURL, token), nil
}

// Writes lists what was written to an order, or is to be, and when, oldest
// first (the order's page).
func (s *Service) Writes(ctx context.Context, code string) ([]storage.ShopWrite, error) {
	return s.db.ShopWrites(ctx, code)
}

// WriteAgain sends once more a write that failed for good.
func (s *Service) WriteAgain(ctx context.Context, id int64) error {
	return s.db.RequeueShopWrite(ctx, id, s.now())
}
