package shipping

// What real integrations rely on in the catalog and details: every point
// without paging, detail dates, carrier codes, destinations abroad, invoice
// payment (public-evidence.md).

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParcelPointsWithoutPagingGiveEveryMatch(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		all := e.call("GET", "/api/v1/parcelpoints/list", "", nil)
		if len(all.Data()) != len(e.svc.points) || len(e.svc.points) < 2000 {
			t.Errorf("unpaged list: %d of %d points", len(all.Data()), len(e.svc.points))
		}
		want := 0
		for _, p := range e.svc.points {
			if p.Carrier == "SPS" && p.Country == "CZ" {
				want++
			}
		}
		a := e.call("GET", "/api/v1/parcelpoints/list?country=CZ&carrier=sps", "", nil)
		if len(a.Data()) != want || want <= DefaultPointsPerPage {
			t.Errorf("country=CZ&carrier=sps: %d points, want %d", len(a.Data()), want)
		}
		for id, v := range a.Data() {
			p := v.(map[string]any)
			if p["carrier"] != "SPS" || p["country"] != "CZ" || p["code"] == "" {
				t.Errorf("point %s: %v", id, p)
			}
			if _, sized := p["max_weight"]; sized != e.svc.documented() {
				t.Errorf("point size limits present=%v in %s shapes", sized, e.svc.cfg.Shapes)
			}
		}
		paged := e.call("GET", "/api/v1/parcelpoints/list?country=CZ&carrier=SPS&page=2", "", nil)
		if len(paged.Data()) != min(DefaultPointsPerPage, want-DefaultPointsPerPage) || paged.Body["paging"].(map[string]any)["page"].(float64) != 2 {
			t.Errorf("page 2: %d points, paging %v", len(paged.Data()), paged.Body["paging"])
		}
		if p := e.call("GET", "/api/v1/parcelpoints/list?per_page=7", "", nil); len(p.Data()) != 7 {
			t.Errorf("per_page=7: %d", len(p.Data()))
		}
	})
}

func TestDetailDatesAndCarrierTracking(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		tn, _ := e.create(key1, shipmentTo("ups", "ONDEMAND"))
		for _, key := range []string{key1, ""} {
			d := e.detail(key, tn)
			// 09:00 UTC as the service writes it, in Prague time.
			if d["order_date"] != "2026-11-23 10:00:00" || d["delivery_date"] != "2026-11-25" {
				t.Errorf("key %q: order_date %v, delivery_date %v (pickup Tue, one day)", key, d["order_date"], d["delivery_date"])
			}
			pk := d["packages"].([]any)[0].(map[string]any)
			ct, _ := pk["carrier_tracking"].(string)
			if ct == "" || ct == pk["number"] || !regexp.MustCompile(`^\d+$`).MatchString(ct) {
				t.Errorf("key %q: carrier_tracking %q, package number %v", key, ct, pk["number"])
			}
			_, hasOrder := d["order"]
			_, hasCreated := d["created"]
			if want := key == key1 && e.svc.documented(); hasOrder != want || hasCreated != want {
				t.Errorf("key %q, %s shapes: order %v, created %v", key, e.svc.cfg.Shapes, hasOrder, hasCreated)
			}
		}
		e.advance(2 * time.Minute)
		e.fetchLabels(key1, tn) // a courier takes only labelled parcels
		e.advance(3 * time.Hour)
		if d := e.detail(key1, tn); d["status"] != "DELIVERED" || d["delivery_date"] != "2026-11-23" {
			t.Errorf("delivered: %v on %v, want the actual day", d["status"], d["delivery_date"])
		}
		list, _ := e.call("GET", "/api/v1/shipments/list", key1, nil).Data()[tn].(map[string]any)
		if list["order_date"] == nil || list["delivery_date"] == nil {
			t.Errorf("list item without dates: %v", list)
		}
	})
}

func TestCarrierCodesUpperCaseMatchedInAnyCase(t *testing.T) {
	e := newEnv(t)
	a := e.call("POST", "/api/v1/rates/get", "", map[string]any{"type": "ONDEMAND", "to": recipient(), "packages": []any{pkg(1)}})
	for _, r := range a.Body["rates"].([]any) {
		if c := r.(map[string]any)["carrier"].(string); c != strings.ToUpper(c) || !slices.Contains(CarrierCodes()[:len(carrierSeeds)], c) {
			t.Errorf("offer carrier %q", c)
		}
	}
	g1 := point(e, "ZASILKOVNA", false)
	sh := shipmentTo("zasilkovna", "REGULAR")
	sh["pickup_branch"] = strings.ToLower(g1.Code)
	tn, _ := e.create(key1, sh)
	if d := e.detail(key1, tn); d["carrier"] != "ZASILKOVNA" || d["pickup_branch"] != g1.Code {
		t.Errorf("detail carrier %v, pickup_branch %v", d["carrier"], d["pickup_branch"])
	}
	for _, code := range []string{"pPl", "PPL", "ppl"} {
		if r := e.call("POST", "/api/v1/rates/get", "", map[string]any{"type": "ONDEMAND", "carrier": code, "to": recipient(), "packages": []any{pkg(1)}}); len(r.Body["rates"].([]any)) == 0 {
			t.Errorf("carrier %q found no offers", code)
		}
	}
	if err := e.svc.SetCarrierBehaviour("toptrans", CarrierBehaviour{FailLabels: true}); err != nil || !e.svc.behaviour["TOPTRANS"].FailLabels {
		t.Errorf("behaviour of toptrans: %v", err)
	}
}

func TestRecipientsInEUNeighbours(t *testing.T) {
	e := newEnv(t)
	to := func(country, zip string) map[string]any {
		r := recipient()
		r["country"], r["zip"], r["city"] = country, zip, "Town"
		return r
	}
	offers := func(recipient map[string]any) map[string]map[string]any {
		a := e.call("POST", "/api/v1/rates/get", "", map[string]any{"type": "ONDEMAND", "to": recipient, "packages": []any{pkg(1)}})
		if a.Status != 200 {
			t.Fatalf("rates to %v: %s", recipient["country"], a.Raw)
		}
		out := map[string]map[string]any{}
		for _, r := range a.Body["rates"].([]any) {
			m := r.(map[string]any)
			out[m["carrier"].(string)] = m
		}
		return out
	}
	home := offers(recipient())
	for country, zip := range map[string]string{"DE": "10115", "AT": "1010", "PL": "00-950", "HU": "1051", "SK": "811 01"} {
		abroad := offers(to(country, zip))
		if len(abroad) == 0 || len(abroad) >= len(home) {
			t.Errorf("%s: %d carriers, CZ %d: want some, not all", country, len(abroad), len(home))
		}
		for carrier, o := range abroad {
			if !e.svc.carrier(carrier).serves(country) {
				t.Errorf("%s offered to %s", carrier, country)
			}
			h := home[carrier]
			if h == nil {
				continue // a carrier of that country only
			}
			if o["price"].(map[string]any)["value"].(float64) <= h["price"].(map[string]any)["value"].(float64) || o["delivery_date"].(string) <= h["delivery_date"].(string) {
				t.Errorf("%s to %s: %v %v, at home %v %v", carrier, country, o["price"], o["delivery_date"], h["price"], h["delivery_date"])
			}
		}
	}
	for country, zip := range map[string]string{"DE": "1011", "AT": "10101", "PL": "00950", "HU": "105 1", "CZ": "1100"} {
		sh := shipmentTo("ups", "ONDEMAND")
		sh["to"] = to(country, zip)
		if a := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh)); a.FieldError("shipments[0].to.zip") == "" {
			t.Errorf("%s postal code %q accepted: %s", country, zip, a.Raw)
		}
	}
	sh := shipmentTo("liftago", "ONDEMAND")
	sh["to"] = to("DE", "10115")
	if a := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh)); !strings.Contains(a.FieldError("shipments[0].to.country"), "does not deliver") {
		t.Errorf("LIFTAGO to DE: %s", a.Raw)
	}
	withCOD := func(country, zip, currency string) answer {
		sh := shipmentTo("ups", "ONDEMAND")
		sh["to"] = to(country, zip)
		sh["services"] = []any{map[string]any{"code": "cod", "data": map[string]any{"value": map[string]any{"value": 100, "currency": currency}, "bank_account": "2000145399", "bank_code": "0800"}}}
		return e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh))
	}
	if a := withCOD("DE", "10115", "EUR"); !strings.Contains(a.FieldError("shipments[0].services[0].data.value.currency"), "not available from CZ to DE") {
		t.Errorf("COD to DE: %s", a.Raw)
	}
	if a := withCOD("SK", "811 01", "EUR"); a.Status != 200 {
		t.Errorf("COD to SK in EUR: %s", a.Raw)
	}
	if a := withCOD("SK", "811 01", "USD"); a.FieldError("shipments[0].services[0].data.value.currency") == "" {
		t.Errorf("COD to SK in USD: %s", a.Raw)
	}
	if a := withCOD("CZ", "602 00", "EUR"); a.FieldError("shipments[0].services[0].data.value.currency") == "" {
		t.Errorf("COD within CZ in EUR: %s", a.Raw)
	}
}

func TestInvoicePayment(t *testing.T) {
	e := newEnv(t)
	invoice := orderBody("INVOICE", shipmentTo("ups", "ONDEMAND"))
	if a := e.call("POST", "/api/v1/shipments/create", key1, invoice); a.Status != 200 {
		t.Fatalf("INVOICE for the first account: %s", a.Raw)
	} else {
		tn := createdNumbers(t, a)[0]
		e.advance(2 * time.Minute)
		if d := e.detail(key1, tn); d["label_status"] != "READY" {
			t.Errorf("an INVOICE order waits for payment: %v", d["label_status"])
		}
	}
	for _, path := range []string{"/api/v1/shipments/create", "/api/v1/shipments/validate"} {
		if a := e.call("POST", path, key2, invoice); a.Status != 401 || a.Body["message"] != "You are not allowed to use invoice payment method" {
			t.Errorf("%s INVOICE for the second account: %d %s", path, a.Status, a.Raw)
		}
	}
	// Without a valid key: processed as unauthenticated, so payer required and ONLINE.
	if a := e.call("POST", "/api/v1/shipments/create", "bogus", invoice); a.Status != 400 || a.FieldError("payer") == "" {
		t.Errorf("INVOICE without a key and payer: %d %s", a.Status, a.Raw)
	}
	invoice["payer"] = map[string]any{"firstname": "Ann", "surname": "Lee", "email": "ann@example.com"}
	a := e.call("POST", "/api/v1/shipments/create", "", invoice)
	if a.Status != 200 || e.svc.PayOrder(a.Data()["order_number"].(string)) != nil {
		t.Errorf("INVOICE without a key is not an ONLINE order: %s", a.Raw)
	}
}
