package shop_test

import (
	"log/slog"
	"sync"
	"testing"

	sbshop "shipdesk/sandbox/shoptet"
	"shipdesk/shop"
	"shipdesk/shop/shoptet"
)

// hooked is another instance's shop service whose webhooks go to url.
func (e *env) hooked(who, url string) *shop.Service {
	e.t.Helper()
	svc, err := shop.New(e.app.App.DB, e.app.App.Desk, e.sb.Clock, shop.Config{Platforms: map[string]shop.Opener{"shoptet": e.opener()},
		Sealer: sealer(e.t), Who: who, HooksURL: url}, slog.New(slog.NewTextHandler(testWriter{e.t}, &slog.HandlerOptions{Level: slog.LevelWarn})))
	if err != nil {
		e.t.Fatal(err)
	}
	return svc
}

// Three instances starting at once with the same public address register
// the webhooks once: the shop is asked for one key, which every instance
// then checks the shop's signatures with.
func TestInstancesStartingTogetherRegisterOnce(t *testing.T) {
	t.Parallel()
	e := start(t)
	e.connect()
	const url = "http://127.0.0.1:9/hooks/shoptet" // registered, never posted to: no order changes here
	e.calls.reset()
	var services []*shop.Service
	for _, who := range []string{"a", "b", "c"} {
		services = append(services, e.hooked(who, url))
	}
	var wg sync.WaitGroup
	for _, svc := range services {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := svc.Listen(e.ctx); err != nil {
				t.Errorf("listen: %v", err)
			}
		}()
	}
	wg.Wait()
	if n := e.calls.count("webhooks/renew-signature-key"); n != 1 {
		t.Errorf("the key was renewed %d times", n)
	}
	body := []byte(`{"eshopId":1,"event":"order:update","eventCreated":"2026-01-05T10:00:00+0100","eventInstance":"X1"}`)
	for i, svc := range services {
		key, err := svc.HookKey(e.ctx)
		if err != nil {
			t.Fatal(err)
		}
		// The simulator signs with its current key: the one kept must check it.
		if _, err := shoptet.Notification(key, body, sbshop.Sign(e.shop.SignatureKey(), body)); err != nil {
			t.Errorf("instance %d: the shop's signature does not check: %v", i, err)
		}
	}
}
