package shipping

// Destinations across Europe and beyond, their postal codes and customs data
// (public-evidence.md: a checkout plugin's tests against the live service).

import (
	"strings"
	"testing"
)

// evidenceZips are the countries a checkout plugin asks offers for from CZ,
// each with a postal code of its own country's shape.
var evidenceZips = map[string]string{
	"CZ": "14000", "SK": "811 01", "DE": "10115", "AT": "1050", "PL": "00-001", "HU": "1051",
	"FR": "75001", "CH": "8001", "LI": "9490", "IT": "00118", "SI": "1000", "UA": "01001",
	"BY": "220000", "LT": "01001", "RU": "236000", "DK": "1050", "LU": "1050", "BE": "1050",
	"NL": "1012 AB", "HR": "10000", "RS": "11000", "RO": "010011",
}

// addressIn is a full recipient address in a country.
func addressIn(country, zip string) map[string]any {
	r := recipient()
	r["country"], r["zip"], r["city"], r["street"] = country, zip, "Town", "Main Street 1"
	if zip == "" {
		delete(r, "zip")
	}
	return r
}

// pluginRates asks as a checkout plugin does: country and postal code only,
// no type and no pickup date.
func pluginRates(e *env, country, zip string, services ...any) answer {
	e.t.Helper()
	to := map[string]any{"country": country}
	if zip != "" {
		to["zip"] = zip
	}
	body := map[string]any{"currency": "CZK", "from": map[string]any{"country": "CZ", "zip": "767 01"}, "to": to, "packages": []any{pkg(2)}}
	if len(services) > 0 {
		body["services"] = services
	}
	return e.call("POST", "/api/v1/rates/get", "", body)
}

func selectableOffers(a answer) []map[string]any {
	var out []map[string]any
	rates, _ := a.Body["rates"].([]any)
	for _, r := range rates {
		if m := r.(map[string]any); m["selectable"] == true {
			out = append(out, m)
		}
	}
	return out
}

func TestEveryEvidenceCountryHasSelectableOffers(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		for country, zip := range evidenceZips {
			a := pluginRates(e, country, zip)
			offers := selectableOffers(a)
			if a.Status != 200 || len(offers) == 0 {
				t.Errorf("%s %s: %d, %d selectable offers: %.300s", country, zip, a.Status, len(offers), a.Raw)
				continue
			}
			for _, o := range offers {
				if price := o["price"].(map[string]any)["value"].(float64); price <= 0 {
					t.Errorf("%s: %v priced %v", country, o["carrier"], price)
				}
			}
		}
		if offers := selectableOffers(pluginRates(e, "CZ", "767 01")); len(offers) == 0 {
			t.Errorf("a Czech postal code with its space found no offers")
		}
	})
}

// The full postal-code rules hold on validate and create; rates/get takes
// what a checkout knows (a short or partial code: a WooCommerce plugin's
// tests against the live service ask for the Netherlands with "1011").
func TestPostalCodesOfTheirCountryShape(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		for _, c := range []struct{ country, zip, says string }{
			{"FR", "7500", "75001"}, {"CH", "80011", "8001"}, {"PL", "00001", "00-001"}, {"BY", "22000", "220000"},
			{"RO", "01001", "010011"}, {"NL", "1012", "1012 AB"}, {"GB", "12345", "SW1A 1AA"}, {"US", "1000", "10001"},
		} {
			if a := pluginRates(e, c.country, c.zip); a.Status != 200 || len(selectableOffers(a)) == 0 {
				t.Errorf("rates to %s %q (a partial code): %d %.300s", c.country, c.zip, a.Status, a.Raw)
			}
			sh := shipmentTo("ups", "ONDEMAND")
			sh["to"] = addressIn(c.country, c.zip)
			a := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh))
			if !strings.Contains(a.FieldError("shipments[0].to.zip"), c.says) {
				t.Errorf("validate to %s %q: %d %.300s", c.country, c.zip, a.Status, a.Raw)
			}
		}
		for country, zip := range map[string]string{"GB": "sw1a 1aa", "CA": "K1A 0B1", "JP": "100-0001", "PT": "1100-148", "LT": "LT-01001"} {
			if a := pluginRates(e, country, zip); len(selectableOffers(a)) == 0 {
				t.Errorf("%s %q: %.300s", country, zip, a.Raw)
			}
		}
		if a := pluginRates(e, "NL", "1011"); a.Status != 200 || len(selectableOffers(a)) == 0 {
			t.Errorf("rates to NL 1011: %d %.300s", a.Status, a.Raw)
		}
		// What could not begin any postal code is still refused.
		for _, zip := range []string{"<script>", "12345678901", "-1011", "10\x0011"} {
			if a := pluginRates(e, "NL", zip); a.Status != 400 || a.FieldError("to.zip") == "" {
				t.Errorf("rates to NL %q: %d %.300s", zip, a.Status, a.Raw)
			}
		}
	})
}

func TestCountryWithoutPostalCodesIsServedWithoutOne(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		if a := pluginRates(e, "AE", ""); len(selectableOffers(a)) == 0 {
			t.Errorf("rates to AE without a postal code: %.300s", a.Raw)
		}
		sh := shipmentTo("ups", "ONDEMAND")
		sh["to"] = addressIn("AE", "")
		sh["customs"] = completeCustoms()
		if a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", sh)); a.Status != 200 {
			t.Errorf("create to AE without a postal code: %.300s", a.Raw)
		}
		sh["to"] = addressIn("FR", "")
		if a := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh)); a.FieldError("shipments[0].to.zip") == "" {
			t.Errorf("FR without a postal code: %.300s", a.Raw)
		}
	})
}

func TestFartherCostsMoreAndTakesLonger(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		prevPrice, prevDate := 0.0, ""
		for _, country := range []string{"CZ", "SK", "DE", "FR", "NO", "US", "AU"} {
			a := e.call("POST", "/api/v1/rates/get", "", map[string]any{"type": "ONDEMAND", "carrier": "UPS",
				"to": map[string]any{"country": country}, "packages": []any{pkg(2)}})
			offers := selectableOffers(a)
			if len(offers) != 1 {
				t.Fatalf("UPS to %s: %.300s", country, a.Raw)
			}
			price, date := offers[0]["price"].(map[string]any)["value"].(float64), offers[0]["delivery_date"].(string)
			if price <= prevPrice || date <= prevDate {
				t.Errorf("UPS to %s: %v on %s, nearer %v on %s", country, price, date, prevPrice, prevDate)
			}
			prevPrice, prevDate = price, date
		}
	})
}

func TestCarriersByReach(t *testing.T) {
	e := newEnv(t)
	carriers := func(country, zip string) map[string]bool {
		out := map[string]bool{}
		for _, o := range selectableOffers(pluginRates(e, country, zip)) {
			out[o["carrier"].(string)] = true
		}
		return out
	}
	if fr := carriers("FR", "75001"); !fr["PPL"] || !fr["UPS"] || fr["ZASILKOVNA"] || fr["SPS"] || fr["BALIKOVNA"] {
		t.Errorf("France: road and express carriers, no post or points: %v", fr)
	}
	if us := carriers("US", "10001"); !us["UPS"] || !us["FEDEX"] || us["PPL"] || us["TOPTRANS"] {
		t.Errorf("United States: express carriers only: %v", us)
	}
	if sk := carriers("SK", "811 01"); !sk["ZASILKOVNA"] || !sk["SPS"] {
		t.Errorf("Slovakia: points next door: %v", sk)
	}
}

func TestCODOnlyWhereTheSpecAllows(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		cod := map[string]any{"code": "cod", "data": map[string]any{"value": map[string]any{"value": 20, "currency": "EUR"}}}
		for country, zip := range map[string]string{"FR": "75001", "CH": "8001", "US": "10001"} {
			if offers := selectableOffers(pluginRates(e, country, zip, cod)); len(offers) != 0 {
				t.Errorf("COD to %s: %d selectable offers", country, len(offers))
			}
			sh := shipmentTo("ups", "ONDEMAND")
			sh["to"] = addressIn(country, zip)
			sh["customs"] = completeCustoms()
			sh["services"] = []any{map[string]any{"code": "cod", "data": map[string]any{"value": map[string]any{"value": 20, "currency": "EUR"},
				"bank_account": "2000145399", "bank_code": "0800"}}}
			a := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh))
			if !strings.Contains(a.FieldError("shipments[0].services[0].data.value.currency"), "not available from CZ to "+country) {
				t.Errorf("COD to %s: %.300s", country, a.Raw)
			}
		}
		if offers := selectableOffers(pluginRates(e, "SK", "811 01", cod)); len(offers) == 0 {
			t.Errorf("COD in EUR to SK found no selectable offer")
		}
	})
}

// completeCustoms declares one kind of goods as a sale.
func completeCustoms() map[string]any {
	return map[string]any{"reason": "sale", "items": []any{map[string]any{
		"description": "Cotton T-shirts", "hs_code": "6109 10", "origin_country": "CZ", "quantity": 3,
		"value": map[string]any{"value": "1200", "currency": "CZK"}, "weight": 0.9}}}
}

func TestCustomsOutsideTheEU(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		order := func(country, zip string, customs map[string]any) map[string]any {
			sh := shipmentTo("ups", "ONDEMAND")
			sh["to"] = addressIn(country, zip)
			if customs != nil {
				sh["customs"] = customs
			}
			return orderBody("CREDIT", sh)
		}
		for _, path := range []string{"/api/v1/shipments/validate", "/api/v1/shipments/create"} {
			a := e.call("POST", path, key1, order("CH", "8001", nil))
			if a.Status != 400 || !strings.Contains(a.FieldError("shipments[0].customs"), "outside the EU customs territory") {
				t.Errorf("%s to CH without customs: %d %.300s", path, a.Status, a.Raw)
			}
		}
		incomplete := completeCustoms()
		incomplete["reason"] = "present"
		item := incomplete["items"].([]any)[0].(map[string]any)
		item["hs_code"], item["quantity"], item["origin_country"], item["weight"] = "61", 0, "Czechia", 5
		a := e.call("POST", "/api/v1/shipments/validate", key1, order("NO", "0150", incomplete))
		for _, field := range []string{"customs.reason", "customs.items[0].hs_code", "customs.items[0].quantity", "customs.items[0].origin_country", "customs.items"} {
			if a.FieldError("shipments[0]."+field) == "" {
				t.Errorf("NO with incomplete customs: no error at %s: %.400s", field, a.Raw)
			}
		}
		for country, zip := range map[string]string{"CH": "8001", "NO": "0150", "GB": "SW1A 1AA", "RS": "11000", "US": "10001"} {
			if a := e.call("POST", "/api/v1/shipments/create", key1, order(country, zip, completeCustoms())); a.Status != 200 {
				t.Errorf("create to %s with customs: %.300s", country, a.Raw)
			}
		}
		documents := map[string]any{"reason": "DOCUMENTS", "items": []any{map[string]any{"description": "Contract", "origin_country": "CZ",
			"quantity": 1, "value": map[string]any{"value": 1, "currency": "EUR"}, "weight": 0.2}}}
		if a := e.call("POST", "/api/v1/shipments/validate", key1, order("CH", "8001", documents)); a.Status != 200 {
			t.Errorf("documents without an HS code: %.300s", a.Raw)
		}
		for country, zip := range map[string]string{"DE": "10115", "FR": "75001", "MC": "98000"} {
			if a := e.call("POST", "/api/v1/shipments/create", key1, order(country, zip, nil)); a.Status != 200 {
				t.Errorf("create to %s inside the EU without customs: %.300s", country, a.Raw)
			}
		}
	})
}
