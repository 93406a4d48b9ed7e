package shoptet

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"shipdesk/apperr"
)

// Hooks receive the shop's webhooks: a notification is taken only when the
// key this instance asked the shop for signed it, and it only says "look at
// this order", which is then read from the API (touch). The key lives in
// memory: each instance asks for its own at start (Listen), so with several
// web instances behind one address only the last started checks the
// signatures; the others refuse, Shoptet repeats, and the pollers' sync
// reads every change within a minute anyway.
type Hooks struct {
	key   atomic.Pointer[string]
	touch func(ctx context.Context, code string) error
	log   *slog.Logger
}

// NewHooks receives notifications for touch (shop.Service.Touch).
func NewHooks(touch func(ctx context.Context, code string) error, log *slog.Logger) *Hooks {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Hooks{touch: touch, log: log}
}

// Listen asks the shop for a new signature key and registers the order
// events at url.
func (h *Hooks) Listen(ctx context.Context, src *Source, url string) error {
	key, err := src.RenewKey(ctx)
	if err != nil {
		return err
	}
	h.key.Store(&key)
	return src.Listen(ctx, url)
}

// touchFor bounds the read of a notified order, so the shop hears back
// quickly; what it misses the sync reads.
const touchFor = 10 * time.Second

// Notified takes one webhook post: Unauthorized unless its signature checks
// (or when no key was asked for), Invalid for what is no order's
// notification; the order is then read, and a failure to read it is only
// logged (the sync reads it later).
func (h *Hooks) Notified(ctx context.Context, body []byte, signature string) error {
	key := h.key.Load()
	if key == nil {
		return ErrBadSignature
	}
	ch, err := Notification(*key, body, signature)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), touchFor)
	defer cancel()
	if err := h.touch(ctx, ch.Code); err != nil {
		if errors.Is(err, context.DeadlineExceeded) || apperr.Is(err, apperr.Unavailable) {
			h.log.Info("shop webhook: the order is read by the next sync", "order", ch.Code, "err", err)
		} else {
			h.log.Warn("shop webhook: reading the order", "order", ch.Code, "err", err)
		}
	}
	return nil
}
