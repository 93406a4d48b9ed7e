package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"shipdesk/client/shipping"
	sbshop "shipdesk/sandbox/shoptet"
	"shipdesk/storage"
)

// ship clicks an order's Ship button in the inbox and returns where it led.
func (sd *shopDesk) ship(code string) string {
	sd.t.Helper()
	r := sd.clerk.PostForm("/shipping/orders/"+code+"/ship", url.Values{"revision": {sd.revision(code)}})
	if r.StatusCode != http.StatusSeeOther {
		sd.t.Fatalf("ship %s: %d %s", code, r.StatusCode, r.Body)
	}
	return r.Header.Get("Location")
}

// ordered is the shipment under a reference as it was ordered at the service.
func (sd *shopDesk) ordered(reference string) (storage.Shipment, shipping.Shipment) {
	sd.t.Helper()
	s, err := sd.env.App.DB.ShipmentByReference(sd.ctx, reference)
	if err != nil {
		sd.t.Fatalf("shipment %s: %v", reference, err)
	}
	var o shipping.Order
	if err := json.Unmarshal(s.Request, &o); err != nil || len(o.Shipments) != 1 {
		sd.t.Fatalf("shipment %s as ordered: %v", reference, err)
	}
	return s, o.Shipments[0]
}

func codService(sh shipping.Shipment) *shipping.ServiceCOD {
	for _, s := range sh.Services {
		if s.Code == shipping.ServiceCodeCOD {
			var c shipping.ServiceCOD
			raw, _ := json.Marshal(s.Data)
			if json.Unmarshal(raw, &c) == nil {
				return &c
			}
		}
	}
	return nil
}

// "Ship" on a ready order makes its shipment: the recipient and contact
// from the delivery address, the carrier and service of the method's
// mapping, the point chosen at checkout, cash on delivery of the total in
// whole crowns with the code's digits as the variable symbol, the items'
// weight, the code as the reference. Two tabs posting at once make one
// shipment; "a new parcel for this order" is a second one, once per form.
func TestShopShipOneClickOnceFromTwoTabs(t *testing.T) {
	t.Parallel()
	sd := startShopDesk(t)
	point := sd.demoPoint()
	code := sd.order(func(o *sbshop.Order) {
		o.Delivery = &sbshop.Address{FullName: "Petr Svoboda", Company: "Svoboda s.r.o.", Street: "Masarykova", HouseNumber: "7", City: "Brno", Zip: "602 00", Country: "CZ"}
		o.Items[0].Price = "899.40"
		o.Items[0].Amount = "2.000"
	})
	revision := sd.revision(code)
	var wg sync.WaitGroup
	where := make([]string, 2)
	for i := range where {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := sd.clerk.PostForm("/shipping/orders/"+code+"/ship", url.Values{"revision": {revision}})
			if r.StatusCode == http.StatusSeeOther {
				where[i] = r.Header.Get("Location")
			}
		}()
	}
	wg.Wait()
	if where[0] == "" || where[0] != where[1] || !strings.HasPrefix(where[0], "/shipping/shipments/") || sd.shipmentsOf(code) != 1 {
		t.Fatalf("two tabs: %q, %d shipments", where, sd.shipmentsOf(code))
	}
	if again := sd.clerk.PostForm("/shipping/orders/"+code+"/ship", url.Values{"revision": {revision}}); again.Header.Get("Location") != where[0] {
		t.Fatalf("a third click: %d %s", again.StatusCode, again.Header.Get("Location"))
	}
	listed, err := sd.env.App.Upstream.Shipping.ListAll(sd.ctx, shipping.ListQuery{Reference: code})
	if err != nil || len(listed) != 1 {
		t.Fatalf("at the service: %d %v", len(listed), err)
	}
	_, sh := sd.ordered(code)
	mapping := sd.mapping(sbshop.ShippingMethods[0].GUID)
	cod := codService(sh)
	// 2 × 899.40 + 69 + 39 = 1 906.80: 1 907 Kč.
	if sh.Reference != code || sh.Carrier != mapping.Carrier || sh.ServiceID != mapping.ServiceID || sh.DeliveryBranch != point.BranchID ||
		cod == nil || cod.Value.Value != 1907 || cod.Value.Currency != "CZK" || cod.BankVariable != code[len(code)-10:] ||
		len(sh.Packages) != 1 || sh.Packages[0].Weight != 2.3 {
		t.Errorf("the shipment as ordered: %+v, cod %+v, mapping %+v", sh, cod, mapping)
	}
	if sh.To.Firstname != "Petr" || sh.To.Surname != "Svoboda" || sh.To.Company != "Svoboda s.r.o." || sh.To.City != "Brno" ||
		!strings.Contains(sh.To.Street, "Masarykova 7") || sh.To.Phone == "" || sh.To.Email != "jana@example.cz" {
		t.Errorf("the recipient: %+v", sh.To)
	}
	codes, _ := sd.inboxRows("")
	for _, c := range codes {
		if c == code {
			t.Error("a shipped order stays in the inbox")
		}
	}

	// A new parcel, asked for on the order's page: its key makes the same
	// form posted twice one parcel.
	doc := sd.page("/shipping/orders/" + code)
	key, ok := doc.Find(`form[action$="/new-parcel"] input[name=key]`).Attr("value")
	if !ok || doc.Find(`[data-testid=order-shipments] a`).Length() != 1 {
		t.Fatalf("the order's page offers no new parcel: %q", doc.Find("main").Text())
	}
	first := sd.clerk.PostForm("/shipping/orders/"+code+"/new-parcel", url.Values{"key": {key}})
	twice := sd.clerk.PostForm("/shipping/orders/"+code+"/new-parcel", url.Values{"key": {key}})
	if first.StatusCode != http.StatusSeeOther || twice.Header.Get("Location") != first.Header.Get("Location") || first.Header.Get("Location") == where[0] {
		t.Fatalf("a new parcel: %q then %q", first.Header.Get("Location"), twice.Header.Get("Location"))
	}
	if sd.shipmentsOf(code) != 1 || sd.shipmentsOf(code+"-2") != 1 {
		t.Errorf("shipments: %d and %d", sd.shipmentsOf(code), sd.shipmentsOf(code+"-2"))
	}
}

// mapping is the shop's shipping method's mapping as the demo made it.
func (sd *shopDesk) mapping(guid string) storage.ShopMethod {
	sd.t.Helper()
	list, err := sd.env.App.DB.ShopMethods(sd.ctx)
	if err != nil {
		sd.t.Fatal(err)
	}
	for _, m := range list {
		if m.Kind == storage.ShopShipping && m.GUID == guid {
			return m
		}
	}
	sd.t.Fatalf("no mapping of %s", guid)
	return storage.ShopMethod{}
}

// A point the service does not know by its code is found by its address; a
// point known by neither opens the form, its point picker listing the
// points of the customer's town. A paid order carries no cash on delivery.
func TestShopShipFindsThePoint(t *testing.T) {
	t.Parallel()
	sd := startShopDesk(t)
	point := sd.demoPoint()
	renamed := sd.order(func(o *sbshop.Order) {
		o.Point.BranchID = "renamed-" + point.BranchID
		o.Payment = sbshop.PaymentMethods[1].GUID
	})
	if where := sd.ship(renamed); !strings.HasPrefix(where, "/shipping/shipments/") {
		t.Fatalf("a point known by its address: to %s", where)
	}
	if _, sh := sd.ordered(renamed); sh.DeliveryBranch != point.BranchID || codService(sh) != nil {
		t.Errorf("shipped to %q, cod %+v", sh.DeliveryBranch, codService(sh))
	}
	unknown := sd.order(func(o *sbshop.Order) {
		o.Point.BranchID, o.Point.Street, o.Point.Name = "NO-SUCH-BRANCH", "Nikde 1", "Nikde"
		o.Billing.City = point.City
	})
	where := sd.clerk.PostForm("/shipping/orders/"+unknown+"/ship", url.Values{"revision": {"0"}}).Header.Get("Location")
	if where != "/shipping/new?order="+unknown || sd.shipmentsOf(unknown) != 0 {
		t.Fatalf("an unknown point: to %q, %d shipments", where, sd.shipmentsOf(unknown))
	}
	doc := sd.page(where)
	picker := doc.Find(`#delivery_q`)
	if town, _ := picker.Attr("placeholder"); picker.Length() == 0 || town != point.City {
		t.Errorf("the point picker is not prefilled with the town %q: %q", point.City, town)
	}
	if doc.Find(`[data-testid=delivery-points] input[type=radio]`).Length() == 0 {
		t.Errorf("the picker lists no points of %s: %s", point.City, doc.Find(`#delivery-points`).Text())
	}
}

// An order that lacks something opens the new-shipment form filled from
// it, saying what it lacks; the clerk completes it.
func TestShopOrderFillsTheForm(t *testing.T) {
	t.Parallel()
	sd := startShopDesk(t)
	code := sd.order(func(o *sbshop.Order) { o.Items[0].Weight = "0.000" })
	if where := sd.clerk.PostForm("/shipping/orders/"+code+"/ship", url.Values{"revision": {"0"}}).Header.Get("Location"); where != "/shipping/new?order="+code {
		t.Fatalf("to %q", where)
	}
	doc := sd.page("/shipping/new?order=" + code)
	val := func(name string) string { return doc.Find(`[name=`+name+`]`).AttrOr("value", "") }
	if val("to_firstname") != "Jana" || val("to_surname") != "Nováková" || val("to_city") != "Praha 2" || val("reference") != code ||
		val("cod_value") != "1007" || val("cod_bank_variable") != code[len(code)-10:] {
		t.Errorf("the form: %s %s %s %s %s %s", val("to_firstname"), val("to_surname"), val("to_city"), val("reference"), val("cod_value"), val("cod_bank_variable"))
	}
	main := strings.Join(strings.Fields(doc.Find("main").Text()), " ")
	if !strings.Contains(main, "Filled from the shop's order "+code) || !strings.Contains(main, "has no weight in the shop") {
		t.Errorf("the form does not say where it comes from and what it lacks: %.600s", main)
	}
	for _, q := range []string{"NO-SUCH", "%00", "%ff"} {
		if r := sd.clerk.Get("/shipping/new?order=" + q); r.StatusCode < 400 || r.StatusCode >= 500 {
			t.Errorf("order %s: %d", q, r.StatusCode)
		}
	}
}

// Ticked orders make one batch, whose page opens; an order that cannot be
// shipped as it is stays out, saying why.
func TestShopShipTickedMakesOneBatch(t *testing.T) {
	t.Parallel()
	sd := startShopDesk(t)
	var codes []string
	for range 3 {
		codes = append(codes, sd.order(nil))
	}
	pickup := sd.order(func(o *sbshop.Order) { o.Shipping, o.Point = sbshop.ShippingMethods[6].GUID, nil })
	r := sd.clerk.PostForm("/shipping/orders/ship", url.Values{"code": append(append([]string{}, codes...), pickup)})
	where := r.Header.Get("Location")
	if r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(where, "/shipping/batches/") {
		t.Fatalf("ship the ticked: %d %s", r.StatusCode, where)
	}
	id, err := strconv.ParseInt(strings.TrimPrefix(where, "/shipping/batches/"), 10, 64)
	if err != nil {
		t.Fatal(where)
	}
	rows := sd.env.SettledBatch(t, id)
	if len(rows) != 3 {
		t.Fatalf("the batch has %d rows", len(rows))
	}
	for i, row := range rows {
		if row.Reference != codes[i] {
			t.Errorf("row %d: %q", i, row.Reference)
		}
	}
	page := strings.Join(strings.Fields(sd.page(where).Find("main").Text()), " ")
	if !strings.Contains(page, pickup+": Not shipped by us") {
		t.Errorf("the batch's page does not say why %s stayed out: %.800s", pickup, page)
	}
	if sd.shipmentsOf(pickup) != 0 {
		t.Error("a personal pickup was shipped")
	}
}

// Hostile orders are shown, each saying why it does not ship, and a click
// on Ship ships none of them: it opens the form, whose page stays up and
// escapes what the shop sent. Script and SQL in a name are text: that order
// ships with the name as it came, escaped on every page.
func TestShopHostileOrdersOnThePages(t *testing.T) {
	t.Parallel()
	sd := startShopDesk(t)
	var ppl string
	for _, p := range sd.env.Sandbox.Sandbox.Shipping.Points() {
		if p.Carrier == "PPL" && ppl == "" {
			ppl = p.Code
		}
	}
	cases := []struct {
		name string
		edit func(o *sbshop.Order)
		says string
	}{
		{"NUL in the name", func(o *sbshop.Order) { o.Billing.FullName = "Jana\x00 Nováková" }, "characters no record may hold"},
		{"broken UTF-8 in the town", func(o *sbshop.Order) { o.Billing.City = "Praha\xff\xfe" }, "characters no record may hold"},
		{"a control character in the street", func(o *sbshop.Order) { o.Billing.Street = "Vinohradská\x1b[2J" }, "characters no record may hold"},
		{"a note of 10 KB and a street of 10 KB", func(o *sbshop.Order) {
			o.CustomerRemark = strings.Repeat("Poznámka ", 1200)
			o.Billing.Street = strings.Repeat("Dlouhá ", 1500)
		}, "Street"},
		{"a weight of 0", func(o *sbshop.Order) { o.Items[0].Weight = "0.000" }, "has no weight in the shop"},
		{"a negative weight", func(o *sbshop.Order) { o.Items[0].Weight = "-1.000" }, "a weight that is no weight"},
		{"a weight that is no number", func(o *sbshop.Order) { o.Items[0].Weight = "NaN" }, "a weight that is no weight"},
		{"a huge weight", func(o *sbshop.Order) { o.Items[0].Weight = "99999999.000" }, "a weight that is no weight"},
		{"another carrier's branch", func(o *sbshop.Order) { o.Point.BranchID = ppl }, "not the shipping method's carrier's"},
		{"a total of 0", func(o *sbshop.Order) {
			for i := range o.Items {
				o.Items[i].Price = "0.00"
			}
		}, "Cash on delivery of nothing"},
		{"cash on delivery in EUR to Czechia", func(o *sbshop.Order) { o.Currency = "EUR" }, "Cash on delivery"},
	}
	codes := make([]string, len(cases))
	for i, c := range cases {
		codes[i] = sd.order(c.edit)
	}
	script := sd.order(func(o *sbshop.Order) {
		o.Billing.FullName = `<script>alert(1)</script> Robert'); DROP TABLE shop_orders;--`
	})
	_, text := sd.inboxRows("")
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(text[codes[i]], c.says) || strings.Contains(text[codes[i]], "Can ship as it is") {
				t.Errorf("the row reads %.400q, want %q", text[codes[i]], c.says)
			}
			r := sd.clerk.PostForm("/shipping/orders/"+codes[i]+"/ship", url.Values{"revision": {"0"}})
			if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/shipping/new?order="+codes[i] || sd.shipmentsOf(codes[i]) != 0 {
				t.Fatalf("Ship: %d to %q, %d shipments", r.StatusCode, r.Header.Get("Location"), sd.shipmentsOf(codes[i]))
			}
			for _, p := range []string{"/shipping/new?order=" + codes[i], "/shipping/orders/" + codes[i]} {
				if got := sd.clerk.Get(p); got.StatusCode != http.StatusOK || strings.ContainsAny(got.Body, "\x00\x1b") {
					t.Errorf("%s: %d", p, got.StatusCode)
				}
			}
		})
	}
	if where := sd.ship(script); !strings.HasPrefix(where, "/shipping/shipments/") {
		t.Fatalf("script and SQL in a name: to %s", where)
	}
	if _, sh := sd.ordered(script); !strings.Contains(sh.To.Surname+sh.To.Firstname, "DROP TABLE") {
		t.Errorf("the name as it came: %+v", sh.To)
	}
	for _, p := range []string{"/shipping/orders/" + script, "/shipping/orders"} {
		if body := sd.clerk.Get(p).Body; strings.Contains(body, "<script>alert(1)") {
			t.Errorf("%s does not escape the name", p)
		}
	}
	// Nothing stored is lost: the shop's texts are kept with the order.
	if doc := sd.kept(codes[3]).Doc; !strings.Contains(string(doc), "Poznámka Poznámka") {
		t.Error("the long note was not kept")
	}
}
