package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	sbshop "shipdesk/sandbox/shoptet"
	"shipdesk/storage"
)

// shopDesk is a clerk's dashboard connected to the sandbox's demo shop
// (served by the sandbox under /shoptet), its orders synced once. New
// orders do not arrive by themselves: a test adds the ones it reads.
type shopDesk struct {
	t     *testing.T
	env   *apptest.Env
	clerk *apptest.Browser
	sim   *sbshop.Service
	ctx   context.Context
}

func startShopDesk(t *testing.T) *shopDesk {
	t.Helper()
	env, clerk := deskEnv(t)
	sd := &shopDesk{t: t, env: env, clerk: clerk, sim: env.Sandbox.Sandbox.Shoptet, ctx: context.Background()}
	st := sd.sim.Settings()
	st.Arrivals = false
	sd.sim.SetSettings(st)
	if err := env.App.SeedDemoShop(sd.ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := env.App.Shop.Sync(sd.ctx); err != nil {
		t.Fatal(err)
	}
	return sd
}

// demoPoint is the Zásilkovna point of the demo's first order to one.
func (sd *shopDesk) demoPoint() sbshop.Point {
	sd.t.Helper()
	for _, o := range sd.sim.Orders() {
		if o.Shipping == sbshop.ShippingMethods[0].GUID && o.Point != nil {
			return *o.Point
		}
	}
	sd.t.Fatal("the demo shop has no order to a Zásilkovna point")
	return sbshop.Point{}
}

// order adds an order to the shop as a checkout makes it (to a Zásilkovna
// point, cash on delivery, 1 007 Kč, 1.15 kg), changed by edit, and lets
// the dashboard read it as a webhook would have it read.
func (sd *shopDesk) order(edit func(o *sbshop.Order)) string {
	sd.t.Helper()
	point := sd.demoPoint()
	o := sbshop.Order{Email: "jana@example.cz", Phone: "+420777123456", Status: sbshop.StatusNew,
		Billing:  sbshop.Address{FullName: "Jana Nováková", Street: "Vinohradská", HouseNumber: "12", City: "Praha 2", Zip: "120 00", Country: "CZ"},
		Shipping: sbshop.ShippingMethods[0].GUID, Point: &point, Payment: sbshop.PaymentMethods[0].GUID, Currency: "CZK",
		Items: []sbshop.Item{{Type: "product", Code: "KV-17-TEF", Name: "Rychlovarná konvice Tefal 1,7 l", Amount: "1.000", Weight: "1.150", Price: "899.00", VatRate: "21.00"},
			{Type: "shipping", Name: "Zásilkovna", Amount: "1.000", Weight: "0.000", Price: "69.00", VatRate: "21.00"},
			{Type: "billing", Name: "Dobírka", Amount: "1.000", Weight: "0.000", Price: "39.00", VatRate: "21.00"}}}
	if edit != nil {
		edit(&o)
	}
	code, err := sd.sim.AddOrder(o)
	if err != nil {
		sd.t.Fatal(err)
	}
	sd.pull(code)
	return code
}

// pull has the dashboard read orders from the shop now.
func (sd *shopDesk) pull(codes ...string) {
	sd.t.Helper()
	for _, c := range codes {
		if err := sd.env.App.Shop.Touch(sd.ctx, c); err != nil {
			sd.t.Fatalf("read order %s: %v", c, err)
		}
	}
}

// page reads a page of the dashboard as the clerk, wanting 200.
func (sd *shopDesk) page(path string) *goquery.Document {
	sd.t.Helper()
	r := sd.clerk.Get(path)
	if r.StatusCode != http.StatusOK {
		sd.t.Fatalf("GET %s: %d %s", path, r.StatusCode, r.Body)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(r.Body))
	if err != nil {
		sd.t.Fatal(err)
	}
	return doc
}

// inboxRows reads the inbox with a query, every page, as the clerk sees it:
// the orders' codes in the order shown and each row's text.
func (sd *shopDesk) inboxRows(query string) (codes []string, text map[string]string) {
	sd.t.Helper()
	text = map[string]string{}
	path := "/shipping/orders" + query
	for range 100 {
		doc := sd.page(path)
		doc.Find(`[data-testid=order-row]`).Each(func(_ int, s *goquery.Selection) {
			code := s.AttrOr("data-code", "")
			codes = append(codes, code)
			text[code] = strings.Join(strings.Fields(s.Text()), " ")
		})
		next, ok := doc.Find(`a[rel=next]`).Attr("href")
		if !ok {
			return codes, text
		}
		path = next
	}
	sd.t.Fatal("the inbox never ends")
	return nil, nil
}

// kept is the order as the dashboard keeps it.
func (sd *shopDesk) kept(code string) storage.ShopOrder {
	sd.t.Helper()
	o, err := sd.env.App.DB.ShopOrderByCode(sd.ctx, code)
	if err != nil {
		sd.t.Fatal(err)
	}
	return o
}

// shipmentsOf counts our live shipments under a reference.
func (sd *shopDesk) shipmentsOf(reference string) int {
	sd.t.Helper()
	var n int
	if err := sd.env.App.DB.SQL().QueryRow(`SELECT count(*) FROM shipments WHERE reference = $1 AND state <> 'missing'`, reference).Scan(&n); err != nil {
		sd.t.Fatal(err)
	}
	return n
}

// revision is the order's revision as the inbox's Ship button posts it.
func (sd *shopDesk) revision(code string) string {
	sd.t.Helper()
	doc := sd.page("/shipping/orders")
	for range 100 {
		if v, ok := doc.Find(`[data-code="` + code + `"] input[name=revision]`).Attr("value"); ok {
			return v
		}
		next, ok := doc.Find(`a[rel=next]`).Attr("href")
		if !ok {
			break
		}
		doc = sd.page(next)
	}
	sd.t.Fatalf("order %s has no Ship button in the inbox", code)
	return ""
}
