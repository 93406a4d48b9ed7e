package web_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/i18n"
	sbshop "shipdesk/sandbox/shoptet"
)

var (
	kettle = sbshop.Item{Type: "product", Code: "KV-17-TEF", Name: "Rychlovarná konvice Tefal 1,7 l", Amount: "1.000", Weight: "1.150",
		Price: "899.00", VatRate: "21.00"}
	book = sbshop.Item{Type: "product", Code: "KNI-PRINC", Name: "Kniha: Malý princ", Amount: "1.000", Weight: "0.300",
		Price: "249.00", VatRate: "21.00"}
)

// shopParcel is a parcel shipped from the connected demo shop's new order
// of items (to a Zásilkovna point, to jana@example.cz): the order's code,
// which the parcel carries as its reference.
func shopParcel(t *testing.T, env *apptest.Env, items ...sbshop.Item) string {
	t.Helper()
	ctx := context.Background()
	if err := env.App.SeedDemoShop(ctx); err != nil {
		t.Fatal(err)
	}
	simulated := env.Sandbox.Sandbox.Shoptet
	var point *sbshop.Point
	for _, o := range simulated.Orders() {
		if o.Shipping == sbshop.ShippingMethods[0].GUID && o.Point != nil {
			p := *o.Point
			point = &p
			break
		}
	}
	if point == nil {
		t.Fatal("the demo shop has no order to a Zásilkovna point")
	}
	code, err := simulated.AddOrder(sbshop.Order{Email: "jana@example.cz", Phone: "+420777123456", Status: sbshop.StatusNew,
		Billing:  sbshop.Address{FullName: "Jana Nováková", Street: "Vinohradská", HouseNumber: "12", City: "Praha 2", Zip: "120 00", Country: "CZ"},
		Shipping: sbshop.ShippingMethods[0].GUID, Point: point, Payment: sbshop.PaymentMethods[0].GUID, Currency: "CZK",
		Items: append(items, sbshop.Item{Type: "shipping", Name: "Zásilkovna", Amount: "1.000", Weight: "0.000", Price: "69.00", VatRate: "21.00"})})
	if err != nil {
		t.Fatal(err)
	}
	if err := env.App.Shop.Touch(ctx, code); err != nil {
		t.Fatal(err)
	}
	if s, err := env.App.Shop.Ship(ctx, 0, code, 0); err != nil || s.Shipment == nil {
		t.Fatalf("ship %s: %+v %v", code, s, err)
	}
	return code
}

// shopClaimLink is the claim link mailed for the shop's order code.
func shopClaimLink(t *testing.T, env *apptest.Env, code string) string {
	t.Helper()
	_, link := askLink(t, env, env.NewBrowser(), code, "jana@example.cz")
	if link == "" {
		t.Fatalf("no link mailed for %s", code)
	}
	return link
}

// orderedDay is the shop order's day, as the commission's purchase date.
func orderedDay(t *testing.T, env *apptest.Env, code string) string {
	t.Helper()
	o, err := env.App.DB.ShopOrderByCode(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	return o.CreatedAt.In(i18n.Prague).Format("2006-01-02")
}

// commissionProduct is the last commission's request as sent to the
// service: its purchase date, fault and product type.
func commissionProduct(t *testing.T, env *apptest.Env) (day, fault string, typeID int64) {
	t.Helper()
	if err := env.App.DB.SQL().QueryRow(`SELECT request->'product'->>'purchase_date', request->'product'->>'fault',
		(request->'product'->>'type_id')::bigint FROM commissions ORDER BY id DESC LIMIT 1`).Scan(&day, &fault, &typeID); err != nil {
		t.Fatal(err)
	}
	return day, fault, typeID
}

// A claim for a purchase from the shop offers the order's items (its one
// item chosen already) with their code and price and the order's day, not
// the service's list of products; the commission it becomes carries the
// item and the order's day as the day of purchase, filed under the kind
// the service lists it as.
func TestClaimOffersWhatTheOrderBought(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	code := shopParcel(t, env, kettle)
	link := shopClaimLink(t, env, code)
	b := env.NewBrowser()
	form := b.Get(link)
	if form.StatusCode != 200 {
		t.Fatalf("the form: %d", form.StatusCode)
	}
	doc := page(t, form.Body)
	items := doc.Find(`[data-testid=claim-items] input[name=item]`)
	if items.Length() != 1 || items.AttrOr("value", "") != "KV-17-TEF" || items.AttrOr("checked", "no") == "no" {
		t.Fatalf("the items offered: %d, %q", items.Length(), items.AttrOr("value", ""))
	}
	offered := doc.Find(`[data-testid=claim-items]`).Text()
	for _, want := range []string{kettle.Name, "KV-17-TEF", "CZK\u00a0899.00"} {
		if !strings.Contains(offered, want) {
			t.Errorf("the item offered lacks %q: %q", want, offered)
		}
	}
	o, _ := env.App.DB.ShopOrderByCode(context.Background(), code)
	ordered := i18n.Date(i18n.WithLang(context.Background(), i18n.English), o.CreatedAt)
	if !strings.Contains(doc.Find(`[data-testid=claim-purchase]`).Text(), ordered) {
		t.Errorf("the purchase does not say the order's day %q", ordered)
	}
	if n := doc.Find(`#model_id, #model_id option`).Length(); n != 0 {
		t.Errorf("the service's list of products is offered too: %d", n)
	}
	fields := claimFields(t, form.Body, "kind", "defect", "remedy", "repair", "transport", "shop", "description", "It does not heat.")
	resp := claimPost(t, env, b, link, fields, map[string][][2]string{"proof": {{"invoice.pdf", string(pdfBytes)}}})
	if resp.StatusCode != 303 {
		t.Fatalf("file the claim: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	c, err := env.ClaimByStatus(strings.TrimPrefix(resp.Header.Get("Location"), "/claim/status/"))
	if err != nil || c.CommissionID == nil || !strings.Contains(c.Product, "KV-17-TEF") {
		t.Fatalf("the claim: %+v %v", c, err)
	}
	day, fault, typeID := commissionProduct(t, env)
	if day != orderedDay(t, env, code) || !strings.Contains(fault, kettle.Name) || !strings.Contains(fault, code) {
		t.Errorf("the commission: bought %s (the order's %s), fault %q", day, orderedDay(t, env, code), fault)
	}
	if kind := typeNamed(t, env, typeID); !strings.Contains(strings.ToLower(kettle.Name), strings.ToLower(kind)) {
		t.Errorf("the commission's kind of product: %d %q", typeID, kind)
	}
}

// typeNamed is the name of a kind of product of the service's list.
func typeNamed(t *testing.T, env *apptest.Env, id int64) string {
	t.Helper()
	products, err := env.App.Bench.Products(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range products {
		if p.ID == id {
			return p.Name
		}
	}
	return ""
}

// The item claimed is one the order bought: a forged one, none, or hostile
// text is the customer's field to fix and nothing is stored; an item whose kind the
// service does not list asks for its kind; a parcel of no shop order keeps
// the service's list and refuses an item.
func TestClaimRefusesAnItemNotBought(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	code := shopParcel(t, env, kettle, book)
	link := shopClaimLink(t, env, code)
	b := env.NewBrowser()
	form := b.Get(link)
	doc := page(t, form.Body)
	if n := doc.Find(`[data-testid=claim-items] input[name=item]`).Length(); n != 2 || doc.Find(`input[name=item][checked]`).Length() != 0 {
		t.Fatalf("two items, none chosen: %d", n)
	}
	if doc.Find(`.item-unlisted-only #model_id optgroup option`).Length() == 0 {
		t.Fatal("no kinds offered for the book the service does not list")
	}
	anyModel := doc.Find(`#model_id optgroup option`).First().AttrOr("value", "")
	before := claimCount(t, env)
	base := []string{"kind", "defect", "remedy", "repair", "transport", "shop", "description", "Torn pages.", "model_id", ""}
	for _, c := range []struct{ name, item, model, field string }{
		{"forged", "TV-65-OLED", "", "item"},
		{"forged with a model", "TV-65-OLED", anyModel, "item"},
		{"none", "", anyModel, "item"},
		{"unlisted without its kind", "KNI-PRINC", "", "model_id"},
		{"script", "<script>alert(1)</script>", anyModel, "item"},
		{"NUL", "KV-17-TEF\x00", anyModel, "item"},
		{"invalid UTF-8", "KV-17-\xff\xfe", anyModel, "item"},
		{"10 KB", strings.Repeat("KV-17-TEF", 1200), anyModel, "item"},
	} {
		t.Run(c.name, func(t *testing.T) {
			fields := claimFields(t, form.Body, append(base, "item", c.item, "model_id", c.model)...)
			resp := claimPost(t, env, b, link, fields, map[string][][2]string{"proof": {{"invoice.pdf", string(pdfBytes)}}})
			if resp.StatusCode != 422 {
				t.Fatalf("%d", resp.StatusCode)
			}
			if strings.Contains(resp.Body, "<script>alert") {
				t.Error("the posted item is drawn unescaped")
			}
			if errs := page(t, resp.Body).Find(`#` + c.field + `-error`); errs.Length() == 0 {
				t.Errorf("no problem said at %s: %s", c.field, problemsOf(resp.Body))
			}
		})
	}
	if n := claimCount(t, env); n != before {
		t.Fatalf("claims stored: %d, then %d", before, n)
	}
	fields := claimFields(t, form.Body, append(base, "item", "KNI-PRINC", "model_id", anyModel)...)
	resp := claimPost(t, env, b, link, fields, map[string][][2]string{"proof": {{"invoice.pdf", string(pdfBytes)}}})
	if resp.StatusCode != 303 {
		t.Fatalf("file the claim of the book: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	c, err := env.ClaimByStatus(strings.TrimPrefix(resp.Header.Get("Location"), "/claim/status/"))
	if err != nil || !strings.Contains(c.Product, "KNI-PRINC") || strconv.FormatInt(c.ModelID, 10) != anyModel {
		t.Fatalf("the claim of the book: %+v %v", c, err)
	}

	// DEMO-1 came from no shop order: the service's list, and no item.
	_, demo := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	db := env.NewBrowser()
	dform := db.Get(demo)
	ddoc := page(t, dform.Body)
	if ddoc.Find(`[data-testid=claim-items]`).Length() != 0 || ddoc.Find(`#model_id optgroup option`).Length() == 0 {
		t.Fatal("a parcel of no shop order is not offered the service's list")
	}
	fields = claimFields(t, dform.Body, append(base[:len(base)-2], "item", "KV-17-TEF")...)
	if r := claimPost(t, env, db, demo, fields, map[string][][2]string{"proof": {{"invoice.pdf", string(pdfBytes)}}}); r.StatusCode != 422 {
		t.Errorf("an item posted for a parcel of no shop order: %d", r.StatusCode)
	}
}
