package shop_test

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	sbshop "shipdesk/sandbox/shoptet"
	"shipdesk/shop"
	"shipdesk/storage"
)

// shipments counts our shipments under a reference.
func (e *env) shipments(reference string) int {
	e.t.Helper()
	var n int
	if err := e.app.App.DB.SQL().QueryRow(`SELECT count(*) FROM shipments WHERE reference = $1 AND state <> 'missing'`, reference).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// inboxOrder is the order's row of the inbox.
func (e *env) inboxOrder(code string) shop.InboxOrder {
	e.t.Helper()
	for _, o := range e.inbox(shop.InboxQuery{}) {
		if o.Code == code {
			return o
		}
	}
	e.t.Fatalf("order %s is not in the inbox", code)
	return shop.InboxOrder{}
}

// The order to a Zásilkovna point with cash on delivery is in the inbox
// with its point and amount, ready; shipped from two tabs at once it makes
// one shipment, to that point, collecting the total in whole crowns with
// the order's digits as the variable symbol; a third click finds it; the
// order leaves the inbox.
func TestShipOrderOnceFromTwoTabs(t *testing.T) {
	e := start(t)
	e.quiet()
	e.connect()
	code := e.orderWith(func(o *sbshop.Order) { o.Items[0].Price = "899.40" })
	if _, err := e.syncNow(e.svc); err != nil {
		t.Fatal(err)
	}
	row := e.inboxOrder(code)
	if !row.Ready || !row.COD || row.CODAmount == nil || *row.CODAmount != 1007 || row.PointCode == "" || row.Point == "" ||
		row.WeightKg == nil || *row.WeightKg != 1.15 || row.Shipping != sbshop.ShippingMethods[0].Name || row.Country != "CZ" {
		t.Fatalf("the inbox's row: %+v, COD %v, %v kg", row, deref(row.CODAmount), deref(row.WeightKg))
	}
	var wg sync.WaitGroup
	got := make([]shop.Shipped, 2)
	errs := make([]error, 2)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = e.svc.Ship(e.ctx, 0, code, row.Revision)
		}()
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil || got[i].Shipment == nil {
			t.Fatalf("tab %d: %+v %v", i, got[i], errs[i])
		}
	}
	if got[0].Shipment.ID != got[1].Shipment.ID || e.shipments(code) != 1 {
		t.Fatalf("two tabs, %d shipments: %d and %d", e.shipments(code), got[0].Shipment.ID, got[1].Shipment.ID)
	}
	listed, err := e.app.App.Upstream.Shipping.ListAll(e.ctx, shipping.ListQuery{Reference: code})
	if err != nil || len(listed) != 1 {
		t.Fatalf("at the service: %d %v", len(listed), err)
	}
	again, err := e.svc.Ship(e.ctx, 0, code, 0)
	if err != nil || again.Shipment == nil || again.Shipment.ID != got[0].Shipment.ID || !again.Before {
		t.Fatalf("a third click: %+v %v", again, err)
	}
	var order shipping.Order
	if err := json.Unmarshal(got[0].Shipment.Request, &order); err != nil {
		t.Fatal(err)
	}
	sh := order.Shipments[0]
	cod := codOf(sh)
	if sh.Reference != code || sh.DeliveryBranch != row.PointCode || cod == nil || cod.Value.Value != 1007 || cod.BankVariable != code[len(code)-10:] ||
		sh.To.Surname != "Nováková" || sh.To.Firstname != "Jana" || sh.To.Phone == "" || len(sh.Packages) != 1 || sh.Packages[0].Weight != 1.15 {
		t.Errorf("the shipment as ordered: %+v cod %+v", sh, cod)
	}
	for _, o := range e.inbox(shop.InboxQuery{}) {
		if o.Code == code {
			t.Error("a shipped order stays in the inbox")
		}
	}
	// "A new parcel for this order" is asked for, once per form.
	key := "0f0e0d0c-0b0a-4908-8706-050403020100"
	first, err := e.svc.NewParcel(e.ctx, 0, code, key)
	if err != nil || first.Shipment == nil || first.Shipment.Reference != code+"-2" {
		t.Fatalf("a new parcel: %+v %v", first, err)
	}
	if twice, err := e.svc.NewParcel(e.ctx, 0, code, key); err != nil || twice.Shipment == nil || twice.Shipment.ID != first.Shipment.ID {
		t.Fatalf("the same form again: %+v %v", twice, err)
	}
}

func codOf(sh shipping.Shipment) *shipping.ServiceCOD {
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

// An order that changed in the shop since the clerk saw it is not shipped:
// the clerk looks at it again.
func TestShipRefusesAnOrderChangedSinceSeen(t *testing.T) {
	e := start(t)
	e.quiet()
	e.connect()
	code := e.orderWith(nil)
	if _, err := e.syncNow(e.svc); err != nil {
		t.Fatal(err)
	}
	seen := e.inboxOrder(code).Revision
	if err := e.shop.UpdateOrder(code, func(o *sbshop.Order) { o.Billing.Street = "Korunní" }); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Touch(e.ctx, code); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Ship(e.ctx, 0, code, seen); !apperr.Is(err, apperr.Conflict) || e.shipments(code) != 0 {
		t.Fatalf("changed since seen: %v, %d shipments", err, e.shipments(code))
	}
	if s, err := e.svc.Ship(e.ctx, 0, code, e.inboxOrder(code).Revision); err != nil || s.Shipment == nil {
		t.Fatalf("as it is now: %+v %v", s, err)
	}
	if sh, _ := e.app.App.DB.ShipmentByReference(e.ctx, code); !strings.Contains(string(sh.Request), "Korunní") {
		t.Errorf("shipped to the changed address: %s", sh.Request)
	}
}

// Hostile and incomplete orders are kept, each with its reason in words,
// and none is shipped: a click opens the new-shipment form filled from it.
func TestHostileOrdersSayWhyAndShipNothing(t *testing.T) {
	e := start(t)
	e.quiet()
	e.connect()
	var balikovna string // a point of a carrier whose name is not its code
	for _, p := range e.sb.Sandbox.Shipping.Points() {
		if p.Carrier == "BALIKOVNA" && balikovna == "" {
			balikovna = p.Code
		}
	}
	cases := []struct {
		name string
		edit func(o *sbshop.Order)
		key  string // a key of the problems (or of what they say)
	}{
		{"an unmapped shipping method", func(o *sbshop.Order) { o.Shipping, o.Point = sbshop.ShippingMethods[7].GUID, nil }, "shop.why.unmapped"},
		{"a personal pickup", func(o *sbshop.Order) { o.Shipping, o.Point = sbshop.ShippingMethods[6].GUID, nil }, "shop.why.not_ours"},
		{"NUL in the name", func(o *sbshop.Order) { o.Billing.FullName = "Jana\x00 Nováková" }, "shop.why.cleaned"},
		{"broken UTF-8 in the town", func(o *sbshop.Order) { o.Billing.City = "Praha\xff\xfe" }, "shop.why.cleaned"},
		{"a control character in the phone", func(o *sbshop.Order) { o.Phone = "+420\a777123456" }, "shop.why.cleaned"},
		{"a street of 10 KB", func(o *sbshop.Order) { o.Billing.Street = strings.Repeat("Dlouhá ", 1500) }, "text.too_long"},
		{"a product without weight", func(o *sbshop.Order) { o.Items[0].Weight = "0.000" }, "shop.why.item_no_weight"},
		{"a negative weight", func(o *sbshop.Order) { o.Items[0].Weight = "-1.000" }, "shop.why.item_weight_bad"},
		{"a weight that is no number", func(o *sbshop.Order) { o.Items[0].Weight = "NaN" }, "shop.why.item_weight_bad"},
		{"a huge weight", func(o *sbshop.Order) { o.Items[0].Weight = "99999999.000" }, "shop.why.item_weight_bad"},
		{"heavier than a parcel", func(o *sbshop.Order) { o.Items[0].Weight = "2000.000" }, "text.at_most_unit"},
		{"another carrier's branch", func(o *sbshop.Order) { o.Point.BranchID = balikovna }, "shop.why.point_carrier"},
		{"a branch nobody knows", func(o *sbshop.Order) { o.Point.BranchID, o.Point.Street = "NO-SUCH-BRANCH", "Nikde 1" }, "shop.why.point_unknown"},
		{"a total of 0", func(o *sbshop.Order) {
			for i := range o.Items {
				o.Items[i].Price = "0.00"
			}
		}, "shop.why.cod_zero"},
		{"cash on delivery in EUR to Czechia", func(o *sbshop.Order) { o.Currency = "EUR" }, "shop.field.cod"},
		{"a country the service does not serve", func(o *sbshop.Order) {
			o.Billing.Country, o.Shipping, o.Point = "BR", sbshop.ShippingMethods[2].GUID, nil
		}, "shop.why.country"},
		{"no phone for the point", func(o *sbshop.Order) { o.Phone = "" }, "shop.why.phone_point"},
		{"shipped elsewhere", func(o *sbshop.Order) { o.TrackingNumber = "CZ0001234567" }, "shop.why.elsewhere"},
	}
	codes := make([]string, len(cases))
	for i, c := range cases {
		codes[i] = e.orderWith(c.edit)
	}
	script := e.orderWith(func(o *sbshop.Order) {
		o.Billing.FullName = `<script>alert(1)</script> Robert'); DROP TABLE shop_orders;--`
	})
	if _, err := e.syncNow(e.svc); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		o := e.kept(codes[i])
		if o.Ready || !strings.Contains(string(o.Problems), `"`+c.key+`"`) {
			t.Errorf("%s: kept as ready %v, %s", c.name, o.Ready, o.Problems)
		}
		if c.key == "shop.why.point_carrier" && (!strings.Contains(string(o.Problems), "Balíkovna") || strings.Contains(string(o.Problems), `"BALIKOVNA"`)) {
			t.Errorf("%s: the carrier is not named by its name: %s", c.name, o.Problems)
		}
		s, err := e.svc.Ship(e.ctx, 0, codes[i], 0)
		if err != nil || s.Shipment != nil || s.Form == nil || len(s.Problems) == 0 || e.shipments(codes[i]) != 0 {
			t.Errorf("%s: shipped %+v %v", c.name, s, err)
			continue
		}
		for _, p := range s.Problems {
			for _, k := range p.Keys() {
				if strings.HasPrefix(p.String(), k) {
					t.Errorf("%s: a key, not words: %s", c.name, p)
				}
			}
		}
		if s.Form.Reference != codes[i] || s.Form.To.Country == "" {
			t.Errorf("%s: the form is not filled from the order: %+v", c.name, s.Form)
		}
	}
	kept := e.kept(script)
	var doc struct{ Delivery shop.Address }
	if err := json.Unmarshal(kept.Doc, &doc); err != nil || !strings.Contains(doc.Delivery.FullName, "DROP TABLE") || !kept.Ready {
		t.Errorf("script and SQL are text, kept as they came: %+v %s %v", doc, kept.Problems, err)
	}
}

// A branch the service does not know by its code is found by its address.
func TestPointFoundByAddress(t *testing.T) {
	e := start(t)
	e.quiet()
	e.connect()
	var real *storage.ParcelPoint
	list, err := e.app.App.DB.PointsByCodes(e.ctx, []string{e.pointOfDemo()})
	if err != nil || len(list) == 0 {
		t.Fatalf("the demo's point: %v", err)
	}
	real = &list[0]
	code := e.orderWith(func(o *sbshop.Order) { o.Point.BranchID = "renamed-" + real.Code })
	if _, err := e.syncNow(e.svc); err != nil {
		t.Fatal(err)
	}
	f, problems, err := e.svc.Prefill(e.ctx, code)
	if err != nil || len(problems) != 0 || f.DeliveryBranch != real.Code {
		t.Fatalf("by its address: %q %v %v", f.DeliveryBranch, problems, err)
	}
}

// pointOfDemo is the branch of the demo's first order to a Zásilkovna point.
func (e *env) pointOfDemo() string {
	for _, o := range e.shop.Orders() {
		if o.Shipping == sbshop.ShippingMethods[0].GUID && o.Point != nil {
			return o.Point.BranchID
		}
	}
	e.t.Fatal("no demo order to a point")
	return ""
}

// Ticked orders make one batch of the desk's: an order shipped already, or
// not ours to ship, is left out with why; the batch knows the rest by their
// codes, so a click on one of them meets the batch's shipment.
func TestShipManyMakesOneBatch(t *testing.T) {
	e := start(t)
	e.quiet()
	e.connect()
	codes := e.addOrders(20)
	shipped := e.orderWith(nil)
	pickup := e.orderWith(func(o *sbshop.Order) { o.Shipping, o.Point = sbshop.ShippingMethods[6].GUID, nil })
	if _, err := e.syncNow(e.svc); err != nil {
		t.Fatal(err)
	}
	if s, err := e.svc.Ship(e.ctx, 0, shipped, 0); err != nil || s.Shipment == nil {
		t.Fatal(s, err)
	}
	many, err := e.svc.ShipMany(e.ctx, 0, append(append([]string{}, codes...), shipped, pickup, "NO-SUCH"))
	if err != nil {
		t.Fatal(err)
	}
	if len(many.Skipped) != 3 || many.Batch.ID == 0 {
		t.Fatalf("%+v", many)
	}
	rows, err := e.app.App.DB.BatchRows(e.ctx, many.Batch.ID)
	if err != nil || len(rows) != 20 {
		t.Fatalf("the batch's rows: %d %v", len(rows), err)
	}
	for i, r := range rows {
		if r.Reference != codes[i] {
			t.Errorf("row %d: %q", i, r.Reference)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := e.app.App.DB.BatchByID(e.ctx, many.Batch.ID)
		if err != nil {
			t.Fatal(err)
		}
		counts := b.Counts
		if counts[storage.RowPriced] == 20 || time.Now().After(deadline) {
			if counts[storage.RowPriced] != 20 {
				t.Fatalf("priced by the rules: %v", counts)
			}
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A purchase from the shop tells the claim page its products and its day.
func TestPurchaseItems(t *testing.T) {
	e := start(t)
	e.quiet()
	e.connect()
	code := e.orderWith(nil)
	if _, err := e.syncNow(e.svc); err != nil {
		t.Fatal(err)
	}
	p, err := e.svc.Purchase(e.ctx, code)
	if err != nil || p.Code != code || len(p.Items) != 1 || p.Items[0].Code != "KV-17-TEF" || p.Items[0].Price != "899.00" || p.Day.IsZero() {
		t.Fatalf("%+v %v", p, err)
	}
	if _, err := e.svc.Purchase(e.ctx, "DEMO-1"); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("a parcel of no shop order: %v", err)
	}
}

func deref(x *float64) any {
	if x == nil {
		return nil
	}
	return *x
}
