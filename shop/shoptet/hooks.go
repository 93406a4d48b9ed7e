package shoptet

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"shipdesk/apperr"
)

// Hooks receive the shop's webhooks: a notification is taken only when the
// shop's key signed it, and it only says "look at this order", which is then
// read from the API (touch). The key is the one kept sealed in the database
// (shop.Service.HookKey), so every instance and every restart checks with
// the key the shop signs with.
type Hooks struct {
	key   func(ctx context.Context) (string, error)
	touch func(ctx context.Context, code string) error
	log   *slog.Logger
}

// NewHooks checks notifications with key (shop.Service.HookKey) and reads
// the orders they name with touch (shop.Service.Touch).
func NewHooks(key func(ctx context.Context) (string, error), touch func(ctx context.Context, code string) error, log *slog.Logger) *Hooks {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Hooks{key: key, touch: touch, log: log}
}

// touchFor bounds the read of a notified order, so the shop hears back
// quickly; what it misses the sync reads.
const touchFor = 10 * time.Second

// Notified takes one webhook post: Unauthorized unless its signature checks
// (or when no key is kept), Invalid for what is no order's notification;
// the order is then read, and a failure to read it is only logged (the sync
// reads it later).
func (h *Hooks) Notified(ctx context.Context, body []byte, signature string) error {
	key, err := h.key(ctx)
	if err != nil {
		return err
	}
	ch, err := Notification(key, body, signature)
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
