package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	sbshop "shipdesk/sandbox/shoptet"
)

// A customer on a phone claims a purchase from the shop: the form offers
// the order's two items with their code and price and the order's day, not
// the service's list of products; the kind of product is asked only for the
// item the service does not list; the kettle chosen becomes the claim, and
// the commission names it. Screenshots in both languages.
func TestClaimOffersTheOrdersItems(t *testing.T) {
	t.Parallel()
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true})
	env.SeedDesk()
	ctx := context.Background()
	if err := env.App.Bench.RefreshProducts(ctx); err != nil {
		t.Fatal(err)
	}
	code := shopOrderShipped(t, env)
	proof, _ := claimFilesIn(t)

	customer := newTab(t, env.URL)
	customer.Open("/claim")
	customer.toCzech()
	customer.phone()
	customer.Fill("#reference", code)
	customer.Fill("#contact", "jana@example.cz")
	customer.Submit(`[data-testid=claim-ask] button[type=submit]`)
	customer.WaitText(`[data-testid=claim-sent]`, "Pokud jsme objednávku")
	sendMail(t, env)
	customer.Open(mailedClaimLink(t, env))
	customer.phone()
	customer.wantText(`[data-testid=claim-purchase]`, code)
	customer.wantText(`[data-testid=claim-purchase]`, "Objednáno")
	customer.wantText(`[data-testid=claim-items]`, "Rychlovarná konvice Tefal 1,7 l")
	customer.wantText(`[data-testid=claim-items]`, "Kód KV-17-TEF · 899\u00a0Kč")
	customer.wantText(`[data-testid=claim-items]`, "Kniha: Malý princ")
	if n := len(customer.Texts(`#model_id optgroup`)); n == 0 {
		t.Fatal("no kinds of product for the book the service does not list")
	}
	customer.wantShown(map[string]bool{"#model_id": false})
	book, kettle := `input[name=item][value="KNI-PRINC"]`, `input[name=item][value="KV-17-TEF"]`
	customer.Click(book)
	customer.wantShown(map[string]bool{"#model_id": true})
	customer.Click(kettle)
	customer.wantShown(map[string]bool{"#model_id": false})
	customer.wantNoSideScroll()
	customer.bothLanguages("claim-items", func() { customer.Click(book) })

	customer.Click(kettle)
	customer.Click(`#kind-defect`)
	customer.do("describe the defect", chromedp.SetValue("#description", "Konvice po týdnu přestala hřát."))
	customer.Click(`#remedy-repair`)
	customer.do("attach the proof", chromedp.SetUploadFiles(`#proof`, []string{proof}))
	customer.Click(`#transport-shop`)
	customer.Submit(`[data-testid=claim-submit]`)
	status := customer.Path()
	if !strings.HasPrefix(status, "/claim/status/") {
		t.Fatalf("after sending the page is %s: %q", status, customer.Texts(".form-message, .field-error"))
	}
	c, err := env.ClaimByStatus(status)
	if err != nil || !strings.Contains(c.Product, "KV-17-TEF") || c.CommissionID == nil {
		t.Fatalf("the claim: %+v %v", c, err)
	}
	var fault string
	if err := env.App.DB.SQL().QueryRow(`SELECT request->'product'->>'fault' FROM commissions WHERE id = $1`, *c.CommissionID).Scan(&fault); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fault, "Rychlovarná konvice Tefal 1,7 l") || strings.Contains(fault, "Malý princ") {
		t.Errorf("the commission's fault names %q", fault)
	}
}

// shopOrderShipped ships the demo shop's new order of a kettle and a book
// to a Zásilkovna point and returns its code (the parcel's reference).
func shopOrderShipped(t *testing.T, env *apptest.Env) string {
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
		Items: []sbshop.Item{
			{Type: "product", Code: "KV-17-TEF", Name: "Rychlovarná konvice Tefal 1,7 l", Amount: "1.000", Weight: "1.150", Price: "899.00", VatRate: "21.00"},
			{Type: "product", Code: "KNI-PRINC", Name: "Kniha: Malý princ", Amount: "1.000", Weight: "0.300", Price: "249.00", VatRate: "21.00"},
			{Type: "shipping", Name: "Zásilkovna", Amount: "1.000", Weight: "0.000", Price: "69.00", VatRate: "21.00"}}})
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

// mailedClaimLink is the path of the claim link in the newest mail sent.
func mailedClaimLink(t *testing.T, env *apptest.Env) string {
	t.Helper()
	mails, err := env.App.DB.RecentMail(context.Background(), 20)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mails {
		if strings.HasPrefix(m.EventKey, "claim-link:") {
			for _, u := range dashboardURL.FindAllStringSubmatch(m.Text, -1) {
				if strings.HasPrefix(u[1], "/claim/open/") {
					return u[1]
				}
			}
		}
	}
	t.Fatal("no claim link mailed")
	return ""
}
