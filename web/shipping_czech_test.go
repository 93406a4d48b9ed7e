package web_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// The shipping desk speaks Czech to a clerk who chose it: the form, its
// hints, the offers' prices and the shipment page's money and dates.
func TestShippingInCzech(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	if r := b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/shipping/new"}}); r.StatusCode != 303 {
		t.Fatalf("switch to Czech: %d", r.StatusCode)
	}
	form := b.Get("/shipping/new").Body
	for _, want := range []string{"<title>Nová zásilka", "Odesílatel a předání", "Příjemce", "Dobírka", "Pojištění",
		"Porovnat nabídky", "např. 1 299,50", "předčíslí-číslo/banka, např. 19-2000145399/0800"} {
		if !strings.Contains(form, want) {
			t.Errorf("the new-shipment form lacks %q", want)
		}
	}
	if strings.Contains(form, "Compare offers") || strings.Contains(form, "Cash on delivery") {
		t.Error("the new-shipment form still speaks English")
	}

	// A Czech amount and an account written with its bank: "2000145399/0800".
	order := with(shipmentForm(t, env), "cod", "on", "cod_currency", "CZK", "cod_value", "1 299",
		"cod_bank_account", "2000145399/0800", "cod_bank_code", "")
	offers := b.PostForm("/shipping/new/compare", order)
	if offers.StatusCode != 200 {
		t.Fatalf("compare: %d %s", offers.StatusCode, problemsOf(offers.Body))
	}
	price := page(t, offers.Body).Find(`[data-testid=offer-price-vat]`).First().Text()
	if !regexp.MustCompile(`^\d{1,3}(\x{a0}\d{3})*(,\d\d)?\x{a0}Kč$`).MatchString(price) {
		t.Errorf("offer price %q is not written the Czech way", price)
	}
	if !strings.Contains(offers.Body, "S DPH") || !strings.Contains(offers.Body, "Nabídky") {
		t.Error("the offers are not in Czech")
	}
	chosen := b.PostForm("/shipping/new/choose", with(order, "choose", offerOf(t, offers.Body, "UPS")))
	resp := b.PostForm("/shipping/new/order", merge(order, hiddenFields(chosen.Body)))
	if resp.StatusCode != 303 {
		t.Fatalf("order: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	shipment := b.Get(resp.Header.Get("Location")).Body
	doc := page(t, shipment)
	if got := strings.TrimSpace(doc.Find(`[data-testid=cod]`).Text()); got != "1\u00a0299\u00a0Kč" {
		t.Errorf("COD %q, want 1 299 Kč", got)
	}
	if !regexp.MustCompile(`\d{1,2}\. \d{1,2}\. 20\d\d \d\d:\d\d`).MatchString(doc.Find(`main`).Text()) {
		t.Errorf("the shipment page has no Czech date: %q", doc.Find(`dl.facts`).Text())
	}
	for _, want := range []string{"Podací číslo", "Dopravce", "Co teď udělat", "Zásilka "} {
		if !strings.Contains(shipment, want) {
			t.Errorf("the shipment page lacks %q", want)
		}
	}
	if strings.Contains(shipment, "Tracking number") || strings.Contains(shipment, "What to do now") {
		t.Error("the shipment page still speaks English")
	}
}
