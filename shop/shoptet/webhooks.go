package shoptet

import (
	"context"
	"errors"
	"strings"

	"shipdesk/apperr"
	api "shipdesk/client/shoptet"
	"shipdesk/client/transport"
	"shipdesk/shop"
)

// Events are the order events the desk listens to. Shoptet refuses
// order:cancel registered together with order:update (409); a cancellation
// is a change of the order's status, which order:update carries anyway.
var Events = []string{"order:create", "order:update", "order:cancel"}

// Listen registers the order events at url: those at another URL are moved
// here (Shoptet keeps one URL per event), those already here stay.
// order:cancel goes in a call of its own, and the shop refusing it beside
// order:update (409) is no failure.
func (s *Source) Listen(ctx context.Context, url string) error {
	have, err := s.c.Webhooks(ctx)
	if err != nil {
		return fail(err)
	}
	var missing []string
	for _, event := range Events {
		here := false
		for _, h := range have {
			if h.Event != event {
				continue
			}
			if h.URL == url {
				here = true
				continue
			}
			if err := s.c.DeleteWebhook(ctx, h.ID); err != nil && !transport.IsNotFound(err) {
				return fail(err)
			}
		}
		if !here {
			missing = append(missing, event)
		}
	}
	var first, cancel []api.NewWebhook
	for _, event := range missing {
		if event == "order:cancel" {
			cancel = append(cancel, api.NewWebhook{Event: event, URL: url})
		} else {
			first = append(first, api.NewWebhook{Event: event, URL: url})
		}
	}
	for _, batch := range [][]api.NewWebhook{first, cancel} {
		if len(batch) == 0 {
			continue
		}
		if _, err := s.c.AddWebhooks(ctx, batch); err != nil && !(batch[0].Event == "order:cancel" && transport.StatusOf(err) == 409) {
			return fail(err)
		}
	}
	return nil
}

// RenewKey makes the shop sign its notifications with a new key and
// returns it (the key is shown to nobody: the caller keeps it to check).
func (s *Source) RenewKey(ctx context.Context) (string, error) {
	key, err := s.c.RenewSignatureKey(ctx)
	return key, fail(err)
}

// ErrBadSignature: a notification the shop's key did not sign.
var ErrBadSignature = apperr.New(apperr.Unauthorized, "shoptet.err.signature")

// Notification reads a webhook's post: its signature checked against the
// shop's key first, then the order it says to look at. A notification of
// another entity than an order is refused as Invalid.
func Notification(key string, body []byte, signature string) (shop.Change, error) {
	n, ok, err := api.ReadNotification(key, body, signature)
	if !ok {
		return shop.Change{}, ErrBadSignature
	}
	if err != nil {
		return shop.Change{}, &apperr.Error{Code: apperr.Invalid, Message: apperr.Msg("shoptet.err.unreadable"), Err: err}
	}
	event, isOrder := strings.CutPrefix(n.Event, "order:")
	if !isOrder || n.EventInstance == "" {
		return shop.Change{}, &apperr.Error{Code: apperr.Invalid, Message: apperr.Msg("shoptet.err.not_order"),
			Err: errors.New("notification of " + n.Event)}
	}
	return shop.Change{Code: n.EventInstance, Event: event, Changed: n.EventCreated.At()}, nil
}
