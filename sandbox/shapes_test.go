package sandbox

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"shipdesk/sandbox/openapi"
)

// Every shipping and cart operation, called in both answer shapes, agrees with
// the OpenAPI document; in the minimal shapes no answer carries a property
// marked x-sandbox-only.
func TestEveryOperationAgreesWithTheDocumentInBothShapes(t *testing.T) {
	for _, shapes := range []string{"documented", "minimal"} {
		t.Run(shapes, func(t *testing.T) {
			_, c := start(t, Options{Shapes: shapes})
			c.Minimal = shapes == "minimal"
			key := "sandbox-key-1"
			sh := map[string]any{"carrier": "SPS", "pickup_branch": "1", "reference": "A-1",
				"from": shipment["from"], "to": shipment["to"], "packages": shipment["packages"],
				"services": []any{map[string]any{"code": "ins", "data": map[string]any{"value": map[string]any{"value": "1000", "currency": "CZK"}}}}}
			body := map[string]any{"currency": "CZK", "payment_type": "CREDIT", "shipments": []any{sh}}
			c.Call("POST", "/api/v1/rates/get", "", map[string]any{"to": shipment["to"], "packages": shipment["packages"]})
			c.Call("POST", "/api/v1/rates/get", "", map[string]any{})
			c.Call("POST", "/api/v1/shipments/validate", key, body)
			c.Call("POST", "/api/v1/shipments/validate", "sandbox-key-2", map[string]any{"currency": "CZK", "payment_type": "INVOICE", "shipments": []any{sh}})
			cr := c.Call("POST", "/api/v1/shipments/create", key, body)
			c.Call("POST", "/api/v1/shipments/create", key, map[string]any{})
			tn := createdNumber(cr)
			nums := map[string]any{"shipments": []string{tn}}
			c.Call("POST", "/sandbox/clock/advance", "", map[string]any{"minutes": 2})
			c.Call("POST", "/api/v1/shipments/detail?tracking", "", map[string]any{"shipments": []string{tn}, "tokens": []string{cr.Data()["order"].(string)}})
			c.Call("POST", "/api/v1/shipments/detail", key, nums)
			c.Call("GET", "/api/v1/shipments/list?tracking=1", key, nil)
			c.Call("POST", "/api/v1/shipments/tracking", "", nums)
			c.Call("POST", "/api/v1/shipments/label", key, nums)
			c.Call("POST", "/api/v1/shipments/manifest", key, nums)
			c.Call("POST", "/api/v1/shipments/storno", key, nums)
			c.Call("GET", "/api/v1/parcelpoints/list?country=CZ&carrier=sps", "", nil)
			c.Call("GET", "/api/v1/parcelpoints/list?per_page=5", "", nil)
			c.Call("GET", "/api/v1/contacts/list", key, nil)
			c.Call("POST", "/api/v1/contacts/add", key, map[string]any{"company": "Sklad Brno", "street": "Vídeňská 1", "city": "Brno",
				"zip": "619 00", "country": "CZ", "phone": "+420601000009"})
			c.Call("POST", "/api/v1/pickups/add", key, map[string]any{"address_id": 1, "date": "2026-11-24", "time_from": "09:00",
				"time_to": "12:00", "packages": 2, "weight": 5})
			c.Call("POST", "/api/v1/pickups/add", key, map[string]any{"address_id": 1, "date": "2026-11-28", "time_from": "09:00",
				"time_to": "12:00", "packages": 2, "weight": 5}) // a Saturday
			c.Call("GET", "/api/v1/pickups/list", key, nil)
			c.Call("POST", "/api/v2/public/cart/create", key, map[string]any{"to": shipment["to"]})
			if unseen := c.Unseen("shipping", "cart"); len(unseen) > 0 {
				t.Errorf("operations not exercised: %v", unseen)
			}
		})
	}
}

func TestSandboxOnlyFieldsAreMarkedAndNeverRequired(t *testing.T) {
	sb, _ := start(t, Options{})
	doc := sb.Document()
	got := openapi.SandboxOnlyFields(doc)
	for _, want := range []string{"carrier_group", "reason", "type", "max_length", "max_width", "max_height", "max_weight", "order", "created"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s is not marked x-sandbox-only (marked: %v)", want, got)
		}
	}
	for _, spec := range []string{"order_date", "delivery_date", "carrier_tracking", "label_mode", "tracking_number"} {
		if slices.Contains(got, spec) {
			t.Errorf("%s is in the contract or the evidence, yet marked sandbox-only", spec)
		}
	}
	for name, s := range sb.Components() {
		props, _ := s["properties"].(map[string]any)
		req, _ := s["required"].([]string)
		for _, r := range req {
			if ps, ok := props[r].(map[string]any); ok && openapi.IsSandboxOnly(ps) {
				t.Errorf("%s requires the sandbox-only %s", name, r)
			}
		}
	}
}

func TestUnknownPathsAndWrongMethodsAnswerJSON(t *testing.T) {
	_, c := start(t, Options{})
	cases := []struct {
		method, path string
		status       int
		allow        string
	}{
		{"GET", "/nope", 404, ""},
		{"GET", "/api/v1/shipments/nope", 404, ""},
		{"POST", "/api/v2/public/cart/nope", 404, ""},
		{"GET", "/returns/api/v1/nope", 404, ""},
		{"GET", "/sandbox/nope", 404, ""},
		{"GET", "/api/v1/rates/get", 405, "POST"},
		{"DELETE", "/api/v1/shipments/list", 405, "GET"},
		{"GET", "/api/v2/public/cart/create", 405, "POST"},
		{"PUT", "/returns/api/v1/commissions/create", 405, "POST"},
		{"PUT", "/sandbox/wipe", 405, "POST"},
	}
	for _, tc := range cases {
		req, _ := http.NewRequest(tc.method, c.URL+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s %s: %d %s", tc.method, tc.path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if tc.allow != "" && !strings.Contains(resp.Header.Get("Allow"), tc.allow) {
			t.Errorf("%s %s: Allow %q", tc.method, tc.path, resp.Header.Get("Allow"))
		}
		a := c.Call(tc.method, tc.path, "", nil) // decodes the envelope and checks status
		if a.Status != tc.status || a.Body["message"] == "" {
			t.Errorf("%s %s: envelope %s", tc.method, tc.path, a.Raw)
		}
	}
	if _, err := New(Options{Shapes: "fancy"}); err == nil {
		t.Error("unknown shapes accepted")
	}
}
