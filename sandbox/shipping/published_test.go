package shipping

import (
	"strings"
	"testing"
)

// The request shapes of public-evidence.md's last section, each accepted in
// both answer shapes.

// shipments/create as published: ins with data as the Money itself, cod
// without bank details (the account's stored ones are used), payment_type in
// lower case, a payer with company, tin and vatin, a package with value and
// content, a reference of 255 characters, to without e-mail, from {"id": N}.
func TestCreateTakesThePublishedRequest(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		to := recipient()
		delete(to, "email")
		sh := map[string]any{"type": "OCCASIONAL", "carrier": "ups", "from": map[string]any{"id": 1}, "to": to,
			"reference": strings.Repeat("R", 255),
			"packages":  []any{map[string]any{"weight": 2, "width": 20, "height": 10, "length": 30, "value": map[string]any{"value": 12500, "currency": "CZK"}, "content": "Knihy"}},
			"services": []any{
				map[string]any{"code": "ins", "data": map[string]any{"value": 12500, "currency": "CZK"}},
				map[string]any{"code": "cod", "data": map[string]any{"value": map[string]any{"value": "500", "currency": "CZK"}}},
			}}
		body := orderBody("invoice", sh)
		body["payer"] = map[string]any{"company": "Shop s.r.o.", "tin": "12345678", "vatin": "CZ12345678", "email": "shop@example.com"}
		a := e.call("POST", "/api/v1/shipments/create", key1, body)
		if a.Status != 200 || a.Data()["order"] == nil || a.Data()["order_number"] == nil {
			t.Fatalf("published create: %d %s", a.Status, a.Raw)
		}
		tn := createdNumbers(t, a)[0]
		d := e.detail(key1, tn)
		if d["reference"] != strings.Repeat("R", 255) || d["from"].(map[string]any)["city"] != "Praha" {
			t.Errorf("detail %v", d)
		}
		var codBank, insured any
		for _, sv := range d["services"].([]any) {
			m := sv.(map[string]any)
			switch strings.ToLower(m["code"].(string)) {
			case "cod":
				codBank = m["data"].(map[string]any)["bank_account"]
			case "ins":
				insured = m["data"].(map[string]any)["value"]
			}
		}
		if codBank != "19-2000145399" {
			t.Errorf("COD without bank details took %v, want the account's stored 19-2000145399", codBank)
		}
		if insured == nil {
			t.Errorf("insurance lost: %v", d["services"])
		}
		// The same insurance as {value: Money} is the same.
		sh2 := shipmentTo("ups", "ONDEMAND")
		sh2["services"] = []any{map[string]any{"code": "INS", "data": map[string]any{"value": map[string]any{"value": 12500, "currency": "CZK"}}}}
		if a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("credit", sh2)); a.Status != 200 {
			t.Errorf("ins as {value: Money}, credit in lower case: %d %s", a.Status, a.Raw)
		}
		// Other rules still hold: 256 characters, an unknown payment type,
		// invoice without the right, COD without a key and without bank details.
		long := shipmentTo("ups", "ONDEMAND")
		long["reference"] = strings.Repeat("R", 256)
		if a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", long)); a.Status != 400 || a.FieldError("shipments[0].reference") == "" {
			t.Errorf("256 characters: %d %s", a.Status, a.Raw)
		}
		if a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("cash", shipmentTo("ups", "ONDEMAND"))); a.Status != 400 || a.FieldError("payment_type") == "" {
			t.Errorf("unknown payment type: %d", a.Status)
		}
		if a := e.call("POST", "/api/v1/shipments/create", key2, orderBody("invoice", shipmentTo("ups", "ONDEMAND"))); a.Status != 401 {
			t.Errorf("invoice without the right: %d", a.Status)
		}
		anon := shipmentTo("ups", "ONDEMAND")
		anon["services"] = sh["services"]
		body = orderBody("ONLINE", anon)
		body["payer"] = map[string]any{"company": "Shop s.r.o.", "email": "shop@example.com"}
		if a := e.call("POST", "/api/v1/shipments/create", "", body); a.Status != 400 || a.FieldError("shipments[0].services[1].data.bank_account") == "" {
			t.Errorf("COD without a key and bank details: %d %s", a.Status, a.Raw)
		}
	})
}

// rates/get as real clients ask it: country-only addresses, without
// pickup_date or type, with cod without bank details, with delivery_branch
// and no carrier. Each is 200 with a rates list.
func TestRatesTakeThePublishedRequests(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		pkgs := []any{map[string]any{"weight": 1, "width": 20, "height": 10, "length": 30}}
		g4 := point(e, "sps", false)
		for name, body := range map[string]map[string]any{
			"country only": {"currency": "CZK", "from": map[string]any{"country": "CZ"}, "to": map[string]any{"country": "SK"}, "packages": pkgs},
			"cod without bank": {"currency": "CZK", "from": map[string]any{"country": "CZ"}, "to": map[string]any{"country": "CZ"}, "packages": pkgs,
				"services": []any{map[string]any{"code": "cod", "data": map[string]any{"value": map[string]any{"value": 500, "currency": "CZK"}}}}},
			"delivery_branch without carrier": {"currency": "CZK", "from": map[string]any{"country": "CZ"}, "to": map[string]any{"country": "CZ"}, "packages": pkgs,
				"delivery_branch": g4.Code},
		} {
			a := e.call("POST", "/api/v1/rates/get", "", body)
			rates, _ := a.Body["rates"].([]any)
			if a.Status != 200 || len(rates) == 0 {
				t.Errorf("%s: %d %s", name, a.Status, a.Raw)
				continue
			}
			selectable := 0
			for _, r := range rates {
				if r.(map[string]any)["selectable"] == true {
					selectable++
				}
			}
			if selectable == 0 {
				t.Errorf("%s: no selectable offer: %s", name, a.Raw)
			}
		}
	})
}
