package shipping

// What real integrations rely on in orders: 200 answers with the order's token
// and number, optional pickup type, services in any case, insurance, money as
// numbers or numeric strings (public-evidence.md).

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// Contract tests of what real integrations rely on (public-evidence.md), run
// against both answer shapes where the shape differs.

func TestCreateAndValidateAnswer200WithOrderTokenAndNumber(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		sh := shipmentTo("sps", "REGULAR")
		sh["pickup_branch"] = point(e, "sps", false).Code
		if a := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh)); a.Status != 200 || a.Body["status"].(float64) != 200 {
			t.Errorf("validate: %d %s", a.Status, a.Raw)
		}
		a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", sh))
		if a.Status != 200 || a.Body["status"].(float64) != 200 {
			t.Fatalf("create: %d %s", a.Status, a.Raw)
		}
		token, _ := a.Data()["order"].(string)
		number, _ := a.Data()["order_number"].(string)
		if !regexp.MustCompile(`^[0-9a-f]{16,}$`).MatchString(token) || !regexp.MustCompile(`^SO\d{8}$`).MatchString(number) {
			t.Errorf("order %q, order_number %q", token, number)
		}
		created := a.Data()["shipments"].([]any)[0]
		if e.svc.documented() {
			obj, ok := created.(map[string]any)
			if !ok {
				t.Fatalf("documented shapes: created shipment %v is not an object", created)
			}
			for _, f := range []string{"tracking_number", "status", "carrier", "service_id", "label_mode", "label_status", "package_password", "packages", "reference"} {
				if _, ok := obj[f]; !ok {
					t.Errorf("created shipment lacks %s: %v", f, obj)
				}
			}
			pk := obj["packages"].([]any)[0].(map[string]any)
			if obj["package_password"] != nil || pk["package_password"] != nil || pk["number"] == "" || obj["carrier"] != "SPS" {
				t.Errorf("created shipment %v", obj)
			}
		} else if _, ok := created.(string); !ok {
			t.Fatalf("minimal shapes: created shipment %v is not a tracking number", created)
		}
		tn := createdNumbers(t, a)[0]
		e.advance(2 * time.Minute)
		pw := func(d map[string]any) any { return d["packages"].([]any)[0].(map[string]any)["package_password"] }
		if got := pw(e.detail(key2, tn, token)); got == nil || got != pw(e.detail(key1, tn)) {
			t.Errorf("the order token does not unlock package_password: %v", got)
		}
		if pw(e.detail("", tn)) != nil {
			t.Error("package_password without the token")
		}
	})
}

func TestTypeIsOptional(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		a := e.call("POST", "/api/v1/rates/get", "", map[string]any{"currency": "CZK", "from": sender(), "to": recipient(), "packages": []any{pkg(1)}})
		if a.Status != 200 {
			t.Fatalf("rates without type: %d %s", a.Status, a.Raw)
		}
		offers := map[string][]any{} // carrier → offer types
		for _, r := range a.Body["rates"].([]any) {
			m := r.(map[string]any)
			offers[m["carrier"].(string)] = append(offers[m["carrier"].(string)], m["type"])
		}
		want := map[string][]string{"UPS": {"ONDEMAND", "REGULAR"}, "LIFTAGO": {"ONDEMAND"}, "SPS": {"REGULAR", "REGULAR"}, "BALIKOVNA": {OfferAtBranch}}
		for carrier, types := range want {
			got := offers[carrier]
			if len(got) != len(types) {
				t.Errorf("%s: %d offers %v, want %v", carrier, len(got), got, types)
				continue
			}
			for _, typ := range types {
				found := false
				for _, g := range got {
					found = found || g == typ
				}
				if e.svc.documented() && !found {
					t.Errorf("%s: offer types %v, want %s among them", carrier, got, typ)
				}
			}
		}
		// With a pickup point: every offer is a hand-over there.
		a = e.call("POST", "/api/v1/rates/get", "", map[string]any{"carrier": "sps", "to": recipient(), "packages": []any{pkg(1)}, "pickup_branch": "1"})
		if a.Status != 200 || len(a.Body["rates"].([]any)) == 0 {
			t.Fatalf("rates at a point: %s", a.Raw)
		}
		for _, r := range a.Body["rates"].([]any) {
			if m := r.(map[string]any); e.svc.documented() && m["type"] != OfferAtBranch {
				t.Errorf("pickup_branch offer of type %v", m["type"])
			}
		}
		// Create at a point without type and pickup_date; without a point type stays required.
		sh := shipmentTo("sps", "")
		delete(sh, "type")
		sh["pickup_branch"] = "1"
		tn, _ := e.create(key1, sh)
		if d := e.detail(key1, tn); d["pickup_date"] != "2026-11-24" || d["type"] != nil {
			t.Errorf("hand-over at a point without type: pickup_date %v type %v", d["pickup_date"], d["type"])
		}
		delete(sh, "pickup_branch")
		if a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", sh)); a.Status != 400 || a.FieldError("shipments[0].type") == "" {
			t.Errorf("create without type and point: %d %s", a.Status, a.Raw)
		}
		if a := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh)); a.FieldError("shipments[0].type") == "" {
			t.Errorf("validate without type and point: %s", a.Raw)
		}
	})
}

func TestAdditionalServicesAndInsurance(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		val := func(v any, cur string) map[string]any { return map[string]any{"value": v, "currency": cur} }
		ins := func(v any, cur string) map[string]any {
			return map[string]any{"code": "ins", "data": map[string]any{"value": val(v, cur)}}
		}
		cod := map[string]any{"code": "cod", "data": map[string]any{"value": val("500", "CZK"), "bank_account": "2000145399", "bank_code": "0800"}}
		price := func(services ...any) float64 {
			sh := shipmentTo("ups", "ONDEMAND")
			sh["services"] = services
			a := e.call("POST", "/api/v1/rates/get", "", sh)
			for _, r := range a.Body["rates"].([]any) {
				if m := r.(map[string]any); m["carrier"] == "UPS" {
					return m["price"].(map[string]any)["value"].(float64)
				}
			}
			t.Fatalf("no UPS offer: %s", a.Raw)
			return 0
		}
		plain, insured := price(), price(ins(50000, "CZK"))
		if insured != plain+200 || price(ins(100, "CZK")) != plain+10 {
			t.Errorf("insurance price: plain %v, 50 000 insured %v, 100 insured %v", plain, insured, price(ins(100, "CZK")))
		}
		for _, code := range []string{"COD", "cod", "Cod"} {
			c := map[string]any{"code": code, "data": cod["data"]}
			sh := shipmentTo("ups", "ONDEMAND")
			sh["services"] = []any{c, ins("1500.5", "CZK")}
			if a := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh)); a.Status != 200 {
				t.Errorf("services with code %q: %s", code, a.Raw)
			}
		}
		refused := map[string]struct {
			services []any
			field    string
		}{
			"above the express maximum": {[]any{ins(200001, "CZK")}, "shipments[0].services[0].data.value"},
			"zero":                      {[]any{ins(0, "CZK")}, "shipments[0].services[0].data.value"},
			"other currency":            {[]any{ins(100, "EUR")}, "shipments[0].services[0].data.value"},
			"twice":                     {[]any{ins(100, "CZK"), ins(200, "CZK")}, "shipments[0].services[1].code"},
			"unknown code":              {[]any{map[string]any{"code": "xyz"}}, "shipments[0].services[0].code"},
		}
		for name, tc := range refused {
			sh := shipmentTo("ups", "ONDEMAND")
			sh["services"] = tc.services
			if a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", sh)); a.Status != 400 || a.FieldError(tc.field) == "" {
				t.Errorf("%s: %d %s, want an error on %s", name, a.Status, a.Raw, tc.field)
			}
		}
		home := shipmentTo("dpd", "REGULAR")
		home["services"] = []any{ins(100001, "CZK")}
		if a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", home)); !strings.Contains(a.FieldError("shipments[0].services[0].data.value"), "100000 CZK") {
			t.Errorf("home service maximum: %s", a.Raw)
		}
		sh := shipmentTo("ups", "ONDEMAND")
		sh["services"] = []any{ins(2500, "CZK")}
		tn, _ := e.create(key1, sh)
		e.svc.mu.Lock()
		pages := e.svc.pages(e.svc.shipments[tn], e.clock.Now())
		e.svc.mu.Unlock()
		if l := pages[0].Label; l == nil || l.Insured == nil || l.Insured.Value != 2500 {
			t.Errorf("insurance not on the label: %+v", pages[0].Label)
		}
	})
}

func TestMoneyValueAsNumberOrNumericString(t *testing.T) {
	e := newEnv(t)
	withCOD := func(v any) map[string]any {
		sh := shipmentTo("ups", "ONDEMAND")
		sh["services"] = []any{map[string]any{"code": "cod", "data": map[string]any{"value": map[string]any{"value": v, "currency": "CZK"}, "bank_account": "2000145399", "bank_code": "0800"}}}
		return sh
	}
	for _, ok := range []any{500, "500", "500.0"} {
		if a := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", withCOD(ok))); a.Status != 200 {
			t.Errorf("COD value %#v refused: %s", ok, a.Raw)
		}
	}
	for _, bad := range []any{"abc", "NaN", "Inf", "1e3", "", true} {
		a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", withCOD(bad)))
		if a.Status != 400 || !strings.Contains(a.FieldError("shipments[0].services[0].data.value.value"), "number") {
			t.Errorf("COD value %#v: %d %s", bad, a.Status, a.Raw)
		}
		sh := shipmentTo("ups", "ONDEMAND")
		sh["services"] = []any{map[string]any{"code": "ins", "data": map[string]any{"value": map[string]any{"value": bad, "currency": "CZK"}}}}
		if r := e.call("POST", "/api/v1/shipments/validate", key1, orderBody("CREDIT", sh)); r.FieldError("shipments[0].services[0].data.value.value") == "" {
			t.Errorf("insured value %#v: %s", bad, r.Raw)
		}
	}
}
