package web_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// offerPrice is the price with VAT of the first selectable offer of a carrier.
func offerPrice(t *testing.T, body, carrier string) float64 {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	price := -1.0
	doc.Find(`[data-testid=offers] tbody tr:has(button[name=choose])`).EachWithBreak(func(_ int, row *goquery.Selection) bool {
		cells := row.Find("td")
		if !strings.EqualFold(strings.TrimSpace(cells.Eq(0).Text()), carrier) {
			return true
		}
		// English money, "CZK 1,121.00": the digits and the decimal point.
		v := strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' || r == '.' {
				return r
			}
			return -1
		}, row.Find("[data-testid=offer-price-vat]").Text())
		price, err = strconv.ParseFloat(v, 64)
		return false
	})
	if price < 0 || err != nil {
		t.Fatalf("no selectable %s offer: %s", carrier, problemsOf(body))
	}
	return price
}

func TestCarrierTableOnlyForManagers(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	anon := env.NewBrowser()
	for _, role := range []identity.Role{identity.Clerk, identity.Agent} {
		b := env.SignedIn(role)
		if r := b.PostForm("/connection/carriers/ZASILKOVNA", url.Values{"label_free": {"no"}}); r.StatusCode != 403 {
			t.Errorf("%s may edit a carrier: %d", role, r.StatusCode)
		}
	}
	if r := anon.PostForm("/connection/carriers/ZASILKOVNA", url.Values{"label_free": {"no"}}); r.StatusCode == 200 || r.StatusCode == 303 && !strings.HasPrefix(r.Header.Get("Location"), "/login") {
		t.Errorf("anonymous may edit a carrier: %d %s", r.StatusCode, r.Header.Get("Location"))
	}
	c, err := env.App.DB.CarrierByCode(context.Background(), "ZASILKOVNA")
	if err != nil || !c.LabelFree.Valid || !c.LabelFree.Bool {
		t.Fatalf("the sandbox's carriers fill the table (ZASILKOVNA takes label-free packages): %+v %v", c, err)
	}
	manager := env.SignedIn(identity.Manager)
	page := manager.Get("/connection")
	if page.StatusCode != 200 || !strings.Contains(page.Body, `data-carrier="ZASILKOVNA"`) || !strings.Contains(page.Body, `data-carrier="UPS"`) {
		t.Fatalf("the carrier table is missing: %d", page.StatusCode)
	}
}

func TestCarrierTableRefusesBadValues(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	manager := env.SignedIn(identity.Manager)
	before, _ := env.App.DB.CarrierByCode(context.Background(), "BALIKOVNA")
	for name, form := range map[string]url.Values{
		"unknown label-free": {"label_free": {"maybe"}, "cod_packages": {""}},
		"unknown COD rule":   {"label_free": {""}, "cod_packages": {"'; DROP TABLE carriers; --"}},
		"huge name":          {"name": {strings.Repeat("x", 100_000)}},
		"NUL in a choice":    {"label_free": {"yes\x00"}},
	} {
		t.Run(name, func(t *testing.T) {
			r := manager.PostForm("/connection/carriers/BALIKOVNA", form)
			if r.StatusCode >= 500 {
				t.Fatalf("%d", r.StatusCode)
			}
			if r.StatusCode == 413 && strings.Contains(r.Body, "too large") {
				return // refused before it is read, with a message
			}
			if page := manager.Get("/connection"); !strings.Contains(page.Body, "Choose from the list") && !strings.Contains(page.Body, "At most") {
				t.Errorf("no message for the person")
			}
		})
	}
	if after, _ := env.App.DB.CarrierByCode(context.Background(), "BALIKOVNA"); after.LabelFree != before.LabelFree || after.CODPackages != before.CODPackages {
		t.Errorf("a refused edit changed the carrier: %+v → %+v", before, after)
	}
	for _, code := range []string{"NOPE", "..%2F..%2Fetc", strings.Repeat("A", 30)} {
		if r := manager.PostForm("/connection/carriers/"+code, url.Values{"label_free": {"no"}}); r.StatusCode < 300 || r.StatusCode >= 500 {
			t.Errorf("carrier %q: %d", code, r.StatusCode)
		}
	}
	// A valid edit is kept.
	if r := manager.PostForm("/connection/carriers/BALIKOVNA", url.Values{"name": {"Pošta"}, "label_free": {"no"}, "cod_packages": {"single"}}); r.StatusCode != 303 {
		t.Fatalf("edit: %d", r.StatusCode)
	}
	c, _ := env.App.DB.CarrierByCode(context.Background(), "BALIKOVNA")
	if c.Name != "Pošta" || !c.LabelFree.Valid || c.LabelFree.Bool || c.CODPackages != "single" || c.EditedAt == nil {
		t.Errorf("edit not kept: %+v", c)
	}
}

// With the carrier table not knowing a carrier, the service is asked once
// (shipments/validate with label_less) and its answer is remembered.
func TestLabelFreeLearntFromTheService(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	manager := env.SignedIn(identity.Manager)
	for _, code := range []string{"ZASILKOVNA", "SPS"} {
		if r := manager.PostForm("/connection/carriers/"+code, url.Values{"label_free": {""}}); r.StatusCode != 303 {
			t.Fatalf("set %s to ask: %d", code, r.StatusCode)
		}
	}
	form := with(shipmentForm(t, env), "handover", "POINT")
	offers := b.PostForm("/shipping/new/compare", form).Body
	for _, tc := range []struct {
		carrier string
		offered bool
	}{{"ZASILKOVNA", true}, {"SPS", false}} {
		t.Run(tc.carrier, func(t *testing.T) {
			before := countCalls(env, "shipments/validate")
			resp := b.PostForm("/shipping/new/choose", with(form, "choose", offerOf(t, offers, tc.carrier)))
			if got := strings.Contains(resp.Body, `name="label_less"`); got != tc.offered {
				t.Errorf("label-free offered: %v, want %v (%s)", got, tc.offered, problemsOf(resp.Body))
			}
			if n := countCalls(env, "shipments/validate") - before; n != 1 {
				t.Errorf("validate calls: %d, want 1", n)
			}
			c, _ := env.App.DB.CarrierByCode(context.Background(), tc.carrier)
			if !c.LabelFree.Valid || c.LabelFree.Bool != tc.offered {
				t.Errorf("not remembered: %+v", c.LabelFree)
			}
			before = countCalls(env, "shipments/validate")
			b.PostForm("/shipping/new/choose", with(form, "choose", offerOf(t, offers, tc.carrier)))
			if n := countCalls(env, "shipments/validate") - before; n != 0 {
				t.Errorf("asked again although known: %d calls", n)
			}
		})
	}
}

// Insurance is priced in the offers, ordered with the shipment and shown.
func TestInsurancePricedOrderedAndShown(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	plain := b.PostForm("/shipping/new/compare", form).Body
	insured := b.PostForm("/shipping/new/compare", with(form, "insure", "on", "insured_value", "20000")).Body
	if p, q := offerPrice(t, plain, "UPS"), offerPrice(t, insured, "UPS"); q <= p {
		t.Errorf("insurance is not priced: %v without, %v with", p, q)
	}
	// Empty value with COD: the COD amount is insured.
	resp := b.PostForm("/shipping/new/compare", with(form, "insure", "on", "cod", "on", "cod_value", "1500"))
	if !strings.Contains(resp.Body, `value="1500"`) {
		t.Errorf("insured value not prefilled from the COD amount")
	}
	for _, bad := range []string{"NaN", "-5", "1e308", "abc", "\x00"} {
		r := b.PostForm("/shipping/new/compare", with(form, "insure", "on", "insured_value", bad))
		if r.StatusCode != 422 || !strings.Contains(r.Body, `id="insured_value-error"`) {
			t.Errorf("insured value %q: %d", bad, r.StatusCode)
		}
	}
	_, full := order(t, b, with(form, "insure", "on", "insured_value", "20000"), "UPS")
	created := b.PostForm("/shipping/new/order", full)
	if created.StatusCode != 303 {
		t.Fatalf("order: %d %s", created.StatusCode, problemsOf(created.Body))
	}
	if body := b.Get(created.Header.Get("Location")).Body; !strings.Contains(body, "CZK\u00a020,000.00") {
		t.Error("the shipment page does not show the insured value")
	}
}

// The carrier table names each carrier and says what its columns decide in
// the desk's words, not the service's operations, in both languages.
func TestCarrierTableSpeaksToManagers(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	manager := env.SignedIn(identity.Manager)
	for _, c := range []struct{ lang, name, code, column string }{
		{"en", "Zásilkovna", "code ZASILKOVNA", "What the columns mean"},
		{"cs", "Zásilkovna", "kód ZASILKOVNA", "Co jednotlivé sloupce znamenají"},
	} {
		if c.lang == "cs" {
			manager.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/connection"}})
		}
		page := manager.Get("/connection")
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(page.Body))
		if err != nil {
			t.Fatal(err)
		}
		who := strings.Join(strings.Fields(doc.Find(`[data-carrier=ZASILKOVNA] [data-testid=carrier-name]`).Text()), " ")
		if !strings.Contains(who, c.name) || !strings.Contains(who, c.code) {
			t.Errorf("%s: the carrier reads %q, want its name %q and %q", c.lang, who, c.name, c.code)
		}
		if got := doc.Find(`[data-testid=carrier-terms] summary`).Text(); got != c.column {
			t.Errorf("%s: the explanation is %q", c.lang, got)
		}
		table := doc.Find(`#carriers`).Parent().Text()
		for _, api := range []string{"shipments/validate", "label_less", "cod_packages", "rates/get"} {
			if strings.Contains(table, api) {
				t.Errorf("%s: the carrier table speaks of %q", c.lang, api)
			}
		}
	}
}
