package shop_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"shipdesk/app/apptest"
	api "shipdesk/client/shoptet"
	"shipdesk/client/transport"
	"shipdesk/sandbox/sandboxtest"
	sbshop "shipdesk/sandbox/shoptet"
	"shipdesk/shop"
	"shipdesk/shop/shoptet"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// env is a dashboard on the sandbox, whose shop simulator (/shoptet) the
// shop's service reaches through the Shoptet Source over real HTTP; the
// sandbox counts the shop's requests and how many were in flight at once.
type env struct {
	t     *testing.T
	app   *apptest.Env
	sb    *sandboxtest.Env
	shop  *sbshop.Service // the simulated shop
	svc   *shop.Service
	calls *calls
	ctx   context.Context
}

// calls counts the requests to the shop's API by the kind of path.
type calls struct {
	mu       sync.Mutex
	byPath   map[string]int
	inFlight atomic.Int64
	maxAtOne atomic.Int64
}

func (c *calls) count(kind string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byPath[kind]
}

func (c *calls) reset() {
	c.mu.Lock()
	c.byPath = map[string]int{}
	c.mu.Unlock()
	c.maxAtOne.Store(0)
}

// kindOf names a shop API path by its kind: /api/orders/{code} is "order".
func kindOf(path string) string {
	p := strings.TrimPrefix(path, "/shoptet/api/")
	switch {
	case strings.HasPrefix(p, "orders/changes"):
		return "changes"
	case strings.HasSuffix(p, "/notes"):
		return "notes"
	case strings.HasSuffix(p, "/status"):
		return "status"
	case strings.HasPrefix(p, "orders/"):
		return "order"
	}
	return p
}

func start(t *testing.T) *env {
	t.Helper()
	c := &calls{byPath: map[string]int{}}
	sb := sandboxtest.StartThrough(t, "", func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/shoptet/api/") {
				n := c.inFlight.Add(1)
				defer c.inFlight.Add(-1)
				for old := c.maxAtOne.Load(); n > old && !c.maxAtOne.CompareAndSwap(old, n); old = c.maxAtOne.Load() {
				}
				c.mu.Lock()
				c.byPath[kindOf(r.URL.Path)]++
				c.mu.Unlock()
			}
			h.ServeHTTP(w, r)
		})
	})
	a := apptest.StartOn(t, pgtest.New(t), sb)
	a.SeedDesk()
	e := &env{t: t, app: a, sb: sb, shop: sb.Sandbox.Shoptet, calls: c, ctx: context.Background()}
	e.svc = e.service("test")
	return e
}

// sealer is the test dashboard's: its session key is 32 × "k".
func sealer(t *testing.T) *shop.Sealer {
	s, err := shop.NewSealer([]byte(strings.Repeat("k", 32)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// service is another instance's shop service on the same database.
func (e *env) service(who string) *shop.Service {
	e.t.Helper()
	svc, err := shop.New(e.app.App.DB, e.app.App.Desk, e.sb.Clock, shop.Config{Platforms: map[string]shop.Opener{"shoptet": e.opener()},
		Sealer: sealer(e.t), Who: who}, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	return svc
}

// opener opens the Shoptet Source as the wiring does, retrying briefly: a
// failure the client gives up on reaches the desk's own retries.
func (e *env) opener() shop.Opener {
	return func(base string, token shop.Token) (shop.Source, error) {
		c, err := api.New(transport.Config{BaseURL: base, APIKey: token.Reveal(), Clock: e.sb.Clock, Timeout: 10 * time.Second,
			Retry: transport.Retry{Attempts: 2, Base: time.Millisecond, Max: 5 * time.Millisecond}})
		if err != nil {
			return nil, err
		}
		return shoptet.New(c), nil
	}
}

// demo is the sandbox's demo shop as the wiring maps it.
func (e *env) demo() shop.DemoShop {
	var methods []shop.DemoMethod
	for _, m := range sbshop.ShippingMethods {
		methods = append(methods, shop.DemoMethod{GUID: m.GUID, Carrier: m.Carrier, ToPoint: m.ToPoint, NotOurs: m.PersonalPickup})
	}
	sent := sbshop.StatusSent
	return shop.DemoShop{Platform: "shoptet", BaseURL: e.sb.URL + "/shoptet", Token: shop.NewToken(sbshop.Token), Methods: methods, Handover: &sent}
}

// connect connects and maps the demo shop and syncs it once.
func (e *env) connect() {
	e.t.Helper()
	if err := e.svc.SeedDemo(e.ctx, e.demo()); err != nil {
		e.t.Fatal(err)
	}
}

// syncNow makes the sync due and runs it.
func (e *env) syncNow(svc *shop.Service) (shop.SyncStats, error) {
	e.t.Helper()
	if _, err := e.app.App.DB.Exec(e.ctx, `UPDATE shop_connections SET next_sync_at = '-infinity'`); err != nil {
		e.t.Fatal(err)
	}
	return svc.Sync(e.ctx)
}

// inbox reads the whole inbox.
func (e *env) inbox(q shop.InboxQuery) []shop.InboxOrder {
	e.t.Helper()
	var out []shop.InboxOrder
	for range 100 {
		page, err := e.svc.Inbox(e.ctx, q)
		if err != nil {
			e.t.Fatal(err)
		}
		out = append(out, page.Orders...)
		if page.Next == "" {
			return out
		}
		q.After = page.Next
	}
	e.t.Fatal("the inbox never ends")
	return nil
}

// kept reads a kept order.
func (e *env) kept(code string) storage.ShopOrder {
	e.t.Helper()
	o, err := e.app.App.DB.ShopOrderByCode(e.ctx, code)
	if err != nil {
		e.t.Fatal(err)
	}
	return o
}

// orderWith is a new order of the demo shop to a Zásilkovna point with cash
// on delivery, as a checkout makes it, changed by edit.
func (e *env) orderWith(edit func(o *sbshop.Order)) string {
	e.t.Helper()
	var point *sbshop.Point
	for _, o := range e.shop.Orders() {
		if o.Shipping == sbshop.ShippingMethods[0].GUID && o.Point != nil {
			p := *o.Point
			point = &p
			break
		}
	}
	if point == nil {
		e.t.Fatal("the demo shop has no order to a Zásilkovna point")
	}
	o := sbshop.Order{Email: "jana@example.cz", Phone: "+420777123456", Status: sbshop.StatusNew,
		Billing:  sbshop.Address{FullName: "Jana Nováková", Street: "Vinohradská", HouseNumber: "12", City: "Praha 2", Zip: "120 00", Country: "CZ"},
		Shipping: sbshop.ShippingMethods[0].GUID, Point: point, Payment: sbshop.PaymentMethods[0].GUID, Currency: "CZK",
		Items: []sbshop.Item{{Type: "product", Code: "KV-17-TEF", Name: "Rychlovarná konvice Tefal 1,7 l", Amount: "1.000", Weight: "1.150", Price: "899.00", VatRate: "21.00"},
			{Type: "shipping", Name: "Zásilkovna", Amount: "1.000", Weight: "0.000", Price: "69.00"},
			{Type: "billing", Name: "Dobírka", Amount: "1.000", Weight: "0.000", Price: "39.00"}}}
	if edit != nil {
		edit(&o)
	}
	code, err := e.shop.AddOrder(o)
	if err != nil {
		e.t.Fatal(err)
	}
	return code
}
