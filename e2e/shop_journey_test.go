package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	sbshop "shipdesk/sandbox/shoptet"
	"shipdesk/storage"
)

// shopOrderAtShop is an order as the simulated shop's own API answers it
// (GET /api/orders/{code}?include=notes, with the shop's token).
type shopOrderAtShop struct {
	Data struct {
		Order struct {
			Status struct {
				ID   int    `json:"id"`
				Name string `json:"name"`
			} `json:"status"`
			Notes struct {
				TrackingNumber *string `json:"trackingNumber"`
			} `json:"notes"`
		} `json:"order"`
	} `json:"data"`
}

func atShop(t *testing.T, env *apptest.Env, code string) shopOrderAtShop {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, env.Sandbox.Shoptet+"/api/orders/"+code+"?include=notes", nil)
	req.Header.Set("Shoptet-Private-Api-Token", sbshop.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var o shopOrderAtShop
	if err := json.NewDecoder(resp.Body).Decode(&o); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the shop's order %s: %d %v", code, resp.StatusCode, err)
	}
	return o
}

// demoOrder is the newest open order of the demo shop that matches and
// that the desk judged ready (or not, as ready says).
func demoOrder(t *testing.T, env *apptest.Env, ready bool, match func(o sbshop.Order) bool) string {
	t.Helper()
	best := ""
	var at time.Time
	for _, o := range env.Sandbox.Sandbox.Shoptet.Orders() {
		if !match(o) {
			continue
		}
		kept, err := env.App.DB.ShopOrderByCode(context.Background(), o.Code)
		if err != nil || kept.Ready != ready || kept.State != storage.ShopWaiting {
			continue
		}
		if best == "" || kept.CreatedAt.After(at) {
			best, at = o.Code, kept.CreatedAt
		}
	}
	if best == "" {
		t.Fatal("the demo shop has no such order")
	}
	return best
}

// The journey through the browser: the demo shop's order to a
// Zásilkovna point with cash on delivery is in the inbox with its point and
// amount; one click ships it; once the pollers ran, the shop's order has the
// tracking number in its notes, and after the hand-over the chosen status;
// twenty orders ticked make one batch with one label PDF; an order with an
// unmapped shipping method says so and opens the filled form. Screenshots
// in both languages at 1280, 768 and 390 px.
func TestClerkShipsTheShopsOrders(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	ctx := context.Background()
	sim := env.Sandbox.Sandbox.Shoptet
	st := sim.Settings()
	st.Arrivals = false // the orders a test reads are its own
	sim.SetSettings(st)
	if err := env.App.SeedDemoShop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := env.App.Shop.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	toPoint := sbshop.ShippingMethods[0]
	code := demoOrder(t, env, true, func(o sbshop.Order) bool {
		return o.Shipping == toPoint.GUID && o.Point != nil && o.Payment == sbshop.PaymentMethods[0].GUID
	})

	// The inbox, filtered by the shipping method as the clerk chose it.
	tab.Open("/shipping")
	tab.Submit(`[data-testid=orders-link]`)
	tab.do("filter by "+toPoint.Name, chromedpSelect(`select[name=shipping]`, toPoint.GUID))
	tab.Submit(`[data-testid=orders-filter] button[type=submit]`)
	row := `[data-testid=order-row][data-code="` + code + `"]`
	tab.WaitCount(row, 1)
	if point := tab.Text(row + ` [data-testid=order-point]`); strings.TrimSpace(point) == "" {
		t.Errorf("order %s shows no parcel point", code)
	}
	if cod := tab.Text(row + ` [data-testid=order-cod]`); !strings.Contains(cod, "CZK") {
		t.Errorf("order %s shows its cash on delivery as %q", code, cod)
	}
	tab.wantText(row+` [data-testid=order-state]`, "Can ship as it is")
	tab.shots("shop-journey-inbox-en")
	tab.toCzech()
	tab.wantText(row+` [data-testid=order-cod]`, "Kč")
	tab.shots("shop-journey-inbox-cs")

	// One click ships it.
	tab.Submit(row + ` form[action$="/ship"] button`)
	if !strings.HasPrefix(tab.Path(), "/shipping/shipments/") {
		t.Fatalf("Ship led to %s", tab.Path())
	}
	sh, err := env.App.DB.ShipmentByReference(ctx, code)
	if err != nil {
		t.Fatal(err)
	}
	tab.wantText("main", sh.Tracking())

	// The pollers write the tracking number to the shop's order.
	env.Sandbox.Advance(10 * time.Minute)
	env.App.Jobs.Cycle(ctx)
	if _, err := env.App.Shop.SendWrites(ctx); err != nil {
		t.Fatal(err)
	}
	if got := atShop(t, env, code).Data.Order.Notes.TrackingNumber; got == nil || *got != sh.Tracking() {
		t.Fatalf("the shop's order carries the tracking number %v, want %s", got, sh.Tracking())
	}
	// The carrier's courier takes the parcel: the order moves to "Odesláno".
	env.LabelsFetched()
	env.Sandbox.Advance(2 * time.Hour)
	env.App.Jobs.Cycle(ctx)
	if _, err := env.App.Shop.SendWrites(ctx); err != nil {
		t.Fatal(err)
	}
	if s := atShop(t, env, code).Data.Order.Status; s.ID != sbshop.StatusSent || s.Name != "Odesláno" {
		t.Fatalf("after the hand-over the shop's order is in %d %q", s.ID, s.Name)
	}
	tab.Open("/shipping/orders/" + code)
	tab.WaitCount(`[data-testid=order-write]`, 2)
	tab.wantText(`[data-testid=order-writes]`, "Číslo zásilky "+sh.Tracking())
	tab.wantText(`[data-testid=order-writes]`, "Stav změněn na „Odesláno“")
	tab.bothLanguages("shop-journey-order")

	// Twenty orders ticked make one batch with one label PDF.
	var twenty []string
	for range 20 {
		c, err := sim.AddOrder(checkoutOrder(t, env))
		if err != nil {
			t.Fatal(err)
		}
		if err := env.App.Shop.Touch(ctx, c); err != nil {
			t.Fatal(err)
		}
		twenty = append(twenty, c)
	}
	tab.Open("/shipping/orders")
	for _, c := range twenty {
		tab.Click(`input[type=checkbox][name=code][value="` + c + `"]`)
	}
	tab.Submit(`button[form=ship-ticked]`)
	if !strings.HasPrefix(tab.Path(), "/shipping/batches/") {
		t.Fatalf("ship the ticked led to %s", tab.Path())
	}
	batch := tab.Path()
	id, err := strconv.ParseInt(strings.TrimPrefix(batch, "/shipping/batches/"), 10, 64)
	if err != nil {
		t.Fatal(batch, err)
	}
	if rows := env.SettledBatch(t, id); len(rows) != 20 {
		t.Fatalf("the batch has %d rows", len(rows))
	}
	tab.Open(batch)
	tab.Submit(`[data-testid=order-all]`)
	env.SettledBatch(t, id)
	env.Sandbox.Advance(10 * time.Minute)
	if _, err := env.App.Jobs.Labels(ctx); err != nil {
		t.Fatal(err)
	}
	tab.Open(batch)
	tab.WaitCount(`[data-testid=labels-A6]`, 1)
	if ctype, start := tab.Fetch(tab.Attr(`[data-testid=labels-A6]`, "href")); !strings.HasPrefix(ctype, "application/pdf") || !strings.HasPrefix(start, "%PDF-") {
		t.Errorf("one label PDF: %s %q", ctype, start)
	}
	tab.bothLanguages("shop-journey-batch")

	// An order with an unmapped shipping method says so and opens the form.
	unmapped := demoOrder(t, env, false, func(o sbshop.Order) bool { return o.Shipping == sbshop.ShippingMethods[7].GUID })
	tab.Open("/shipping/orders")
	tab.do("filter by the unmapped method", chromedpSelect(`select[name=shipping]`, sbshop.ShippingMethods[7].GUID))
	tab.Submit(`[data-testid=orders-filter] button[type=submit]`)
	row = `[data-testid=order-row][data-code="` + unmapped + `"]`
	tab.WaitCount(row, 1)
	tab.wantText(row+` [data-testid=order-state]`, "ještě nemá dopravce")
	tab.Submit(row + ` a.button`)
	if p := tab.Path(); !strings.HasPrefix(p, "/shipping/new") {
		t.Fatalf("Fill the form led to %s", p)
	}
	tab.wantText("main", "Vyplněno z objednávky e-shopu "+unmapped)
	if v := tab.Attr(`#to_surname`, "value"); v == "" {
		t.Error("the form is not filled from the order")
	}
	tab.bothLanguages("shop-journey-form")
}

// checkoutOrder is a new order as a checkout makes it: to the Zásilkovna
// point of a demo order, cash on delivery.
func checkoutOrder(t *testing.T, env *apptest.Env) sbshop.Order {
	t.Helper()
	var point *sbshop.Point
	for _, o := range env.Sandbox.Sandbox.Shoptet.Orders() {
		if o.Shipping == sbshop.ShippingMethods[0].GUID && o.Point != nil {
			p := *o.Point
			point = &p
			break
		}
	}
	if point == nil {
		t.Fatal("no demo order to a Zásilkovna point")
	}
	return sbshop.Order{Email: "jana@example.cz", Phone: "+420777123456", Status: sbshop.StatusNew,
		Billing:  sbshop.Address{FullName: "Jana Nováková", Street: "Vinohradská", HouseNumber: "12", City: "Praha 2", Zip: "120 00", Country: "CZ"},
		Shipping: sbshop.ShippingMethods[0].GUID, Point: point, Payment: sbshop.PaymentMethods[0].GUID, Currency: "CZK",
		Items: []sbshop.Item{{Type: "product", Code: "KV-17-TEF", Name: "Rychlovarná konvice Tefal 1,7 l", Amount: "1.000", Weight: "1.150", Price: "899.00", VatRate: "21.00"}}}
}
