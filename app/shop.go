package app

import (
	"context"
	"log/slog"
	"strings"
	"time"

	api "shipdesk/client/shoptet"
	"shipdesk/client/transport"
	"shipdesk/desk"
	sbshop "shipdesk/sandbox/shoptet"
	"shipdesk/shop"
	"shipdesk/shop/shoptet"
	"shipdesk/storage"
	"shipdesk/upstream"
)

// NewShop builds the shop's service (the connected shop's orders, the
// clerk's inbox, the writes back) on the desk and the dashboard's clock;
// the token is sealed under a key derived from the session key. Both `serve`
// and `shipdesk jobs` build it here; the webhooks are registered at hooks
// (the dashboard's public base URL for the shop) when it is given, and the
// tracking links written back point at publicURL.
func NewShop(db *storage.DB, d *desk.Desk, up *upstream.Clients, sessionKey []byte, who, hooks, publicURL string, log *slog.Logger) (*shop.Service, error) {
	sealer, err := shop.NewSealer(sessionKey)
	if err != nil {
		return nil, err
	}
	return shop.New(db, d, up.Clock(), shop.Config{Platforms: map[string]shop.Opener{"shoptet": shoptetOpener(up)}, Sealer: sealer, Who: who,
		HooksURL: HooksURL(hooks), PublicURL: PublicURL(publicURL)}, log)
}

// HooksURL is where a Shoptet shop posts its webhooks on a dashboard whose
// public base URL is public ("" for none: no webhooks).
func HooksURL(public string) string {
	if public == "" {
		return ""
	}
	return strings.TrimRight(public, "/") + "/hooks/shoptet"
}

// ListenShop registers the connected shop's webhooks at start when they are
// not registered yet; a shop that does not answer is only logged (the sync
// reads every change meanwhile, and the next start tries again).
func (a *App) ListenShop(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := a.Shop.Listen(ctx); err != nil {
		a.log.Warn("shop webhooks: not registered", "err", err)
	}
}

// shoptetOpener opens a Shoptet shop's Source: one client per token, on the
// upstream's clock (a Retry-After given as a date is the shop's time, the
// simulator's in sandbox mode) and its counters.
func shoptetOpener(up *upstream.Clients) shop.Opener {
	return func(base string, token shop.Token) (shop.Source, error) {
		c, err := api.New(transport.Config{BaseURL: base, APIKey: token.Reveal(), UserAgent: up.Config.UserAgent, Timeout: up.Config.Timeout,
			Log: up.Config.Log, Metrics: up.Metrics, Clock: up.Clock()})
		if err != nil {
			return nil, err
		}
		return shoptet.New(c), nil
	}
}

// shopAPI is where the connection form's address starts: the simulator's
// shop in sandbox mode, Shoptet's API otherwise.
func shopAPI(up *upstream.Clients) string {
	if up.IsSandbox() {
		return DemoShop(up).BaseURL
	}
	return "https://api.myshoptet.com"
}

// DemoShop is the sandbox's demo shop (served under /shoptet beside the
// shipping sandbox) as the demo maps it: each shipping method to the carrier
// the simulator says it stands for, a hand-over moving the order to "sent".
func DemoShop(up *upstream.Clients) shop.DemoShop {
	var methods []shop.DemoMethod
	for _, m := range sbshop.ShippingMethods {
		methods = append(methods, shop.DemoMethod{GUID: m.GUID, Carrier: m.Carrier, ToPoint: m.ToPoint, NotOurs: m.PersonalPickup})
	}
	sent := sbshop.StatusSent
	return shop.DemoShop{Platform: "shoptet", BaseURL: strings.TrimRight(up.Config.ShippingURL, "/") + "/shoptet",
		Token: shop.NewToken(sbshop.Token), Methods: methods, Handover: &sent}
}

// SeedDemoShop connects and maps the sandbox's demo shop (in sandbox mode
// only: a real service's dashboard connects a real shop on its page).
func (a *App) SeedDemoShop(ctx context.Context) error {
	if !a.Upstream.IsSandbox() {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	return a.Shop.SeedDemo(ctx, DemoShop(a.Upstream))
}
