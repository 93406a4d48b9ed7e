package shop

import (
	"context"

	"shipdesk/apperr"
	"shipdesk/storage"
)

// Notifier is a Source whose platform tells of changed orders by posting
// to an address (webhooks), signed with a key it hands out.
type Notifier interface {
	// RenewKey makes the platform sign with a new key and returns it.
	RenewKey(ctx context.Context) (string, error)
	// Listen registers the order events at url.
	Listen(ctx context.Context, url string) error
}

// Listen registers the connected shop's webhooks at the dashboard's public
// address (Config.HooksURL) unless they are registered there already, and
// keeps the key the shop signs them with, sealed, for every instance. The
// connection's row is held meanwhile, so instances starting together
// register once. Nothing is done without a public address or a shop.
func (s *Service) Listen(ctx context.Context) error {
	if s.cfg.HooksURL == "" {
		return nil
	}
	return s.db.InTx(ctx, func(tx *storage.DB) error {
		c, err := tx.LockShopConnection(ctx)
		if apperr.Is(err, apperr.NotFound) {
			return nil
		}
		if err != nil || (c.HooksURL == s.cfg.HooksURL && len(c.HookKeySealed) > 0) {
			return err
		}
		src, err := s.sourceOf(c)
		if err != nil {
			return err
		}
		n, ok := src.(Notifier)
		if !ok {
			return nil // the platform has no webhooks: the sync reads every change
		}
		key, err := n.RenewKey(ctx)
		if err != nil {
			return err
		}
		sealed := s.sealer().Seal(NewToken(key))
		// The shop signs with the new key from now on: it is kept even when
		// registering fails, which the next start tries again.
		if err := n.Listen(ctx, s.cfg.HooksURL); err != nil {
			if err2 := tx.SaveShopHooks(ctx, "", sealed); err2 != nil {
				return err2
			}
			s.log.Warn("shop webhooks: registering", "url", s.cfg.HooksURL, "err", err)
			return nil
		}
		s.log.Info("shop webhooks registered", "url", s.cfg.HooksURL)
		return tx.SaveShopHooks(ctx, s.cfg.HooksURL, sealed)
	})
}

// HookKey is the key the connected shop signs its webhooks with;
// Unauthorized when none is kept (no shop, or not registered yet).
func (s *Service) HookKey(ctx context.Context) (string, error) {
	c, err := s.db.ShopConnection(ctx)
	if apperr.Is(err, apperr.NotFound) || (err == nil && len(c.HookKeySealed) == 0) {
		return "", apperr.New(apperr.Unauthorized, "shoptet.err.signature")
	}
	if err != nil {
		return "", err
	}
	key, err := s.sealer().Open(c.HookKeySealed)
	if err != nil {
		return "", &apperr.Error{Code: apperr.Unauthorized, Message: apperr.Msg("shoptet.err.signature"), Err: err}
	}
	return key.Reveal(), nil
}

// Disconnect forgets the shop's token and webhook key; its orders,
// statuses and mappings stay, for the same shop connected anew.
func (s *Service) Disconnect(ctx context.Context, by int64) error {
	if err := s.db.DeleteShopConnection(ctx); err != nil {
		return err
	}
	s.forget()
	s.log.Info("shop disconnected", "by", by)
	return nil
}
