package sandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"shipdesk/clock"
	"shipdesk/sandbox/contracttest"
)

func start(t *testing.T, o Options) (*Sandbox, *contracttest.Client) {
	t.Helper()
	if o.Clock == nil {
		o.Clock = clock.Frozen(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC))
	}
	sb, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	url, err := sb.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return sb, contracttest.New(t, url, sb)
}

var shipment = map[string]any{"type": "ONDEMAND", "carrier": "ups", "reference": "F-1",
	"from":     map[string]any{"company": "Shop", "street": "A 1", "city": "Praha", "zip": "110 00", "country": "CZ", "phone": "+420601000000"},
	"to":       map[string]any{"firstname": "Jan", "surname": "Novák", "street": "B 2", "city": "Brno", "zip": "602 00", "country": "CZ", "phone": "+420602000000"},
	"packages": []any{map[string]any{"weight": 1}}}

func order(payment string) map[string]any {
	return map[string]any{"currency": "CZK", "payment_type": payment, "shipments": []any{shipment}}
}

func total(c *contracttest.Client) float64 {
	return float64(len(c.Call("GET", "/api/v1/shipments/list", "sandbox-key-1", nil).Data()))
}

func TestClockAndPayControls(t *testing.T) {
	_, c := start(t, Options{})
	for _, bad := range []any{map[string]any{}, map[string]any{"minutes": 0}, map[string]any{"minutes": 1.5}, map[string]any{"minutes": MaxAdvance + 1}, `{"minutes":"ten"}`} {
		if a := c.Call("POST", "/sandbox/clock/advance", "", bad); a.Status != 400 {
			t.Errorf("advance %v: %d", bad, a.Status)
		}
	}
	before := c.Call("GET", "/sandbox/clock", "", nil).Data()["now"].(string)
	a := c.Call("POST", "/sandbox/clock/advance", "", map[string]any{"minutes": 90})
	if a.Status != 200 || a.Data()["offset_minutes"].(float64) != 90 || a.Data()["now"].(string) <= before {
		t.Errorf("advance: %s", a.Raw)
	}
	cr := c.Call("POST", "/api/v1/shipments/create", "sandbox-key-1", order("ONLINE"))
	tn := createdNumber(cr)
	path := "/sandbox/orders/" + cr.Data()["order_number"].(string) + "/pay"
	if a := c.Call("POST", path, "", nil); a.Status != 200 {
		t.Fatalf("pay: %s", a.Raw)
	}
	if a := c.Call("POST", path, "", nil); a.Status != 409 {
		t.Errorf("pay twice: %d", a.Status)
	}
	if a := c.Call("POST", "/sandbox/orders/999/pay", "", nil); a.Status != 404 {
		t.Errorf("pay unknown: %d", a.Status)
	}
	c.Call("POST", "/sandbox/clock/advance", "", map[string]any{"minutes": 2})
	d := c.Call("POST", "/api/v1/shipments/detail", "sandbox-key-1", map[string]any{"shipments": []string{tn}}).Data()[tn].(map[string]any)
	if d["label_status"] != "READY" {
		t.Errorf("paid and advanced: %v", d["label_status"])
	}
}

func jsonString(v any) string { b, _ := json.Marshal(v); return string(b) }

// createdNumber is the first created tracking number, in either shape.
func createdNumber(a contracttest.Answer) string {
	switch v := a.Data()["shipments"].([]any)[0].(type) {
	case string:
		return v
	case map[string]any:
		return v["tracking_number"].(string)
	}
	return ""
}

func TestCarrierBehaviourControl(t *testing.T) {
	_, c := start(t, Options{})
	if a := c.Call("POST", "/sandbox/carriers/nope/behaviour", "", map[string]any{"fail_labels": true}); a.Status != 404 {
		t.Errorf("unknown carrier: %d", a.Status)
	}
	if a := c.Call("POST", "/sandbox/carriers/ups/behaviour", "", map[string]any{"fail_labels": true}); a.Status != 200 {
		t.Fatalf("behaviour: %s", a.Raw)
	}
	tn := createdNumber(c.Call("POST", "/api/v1/shipments/create", "sandbox-key-1", order("CREDIT")))
	c.Call("POST", "/sandbox/clock/advance", "", map[string]any{"minutes": 2})
	if a := c.Call("POST", "/api/v1/shipments/label", "sandbox-key-1", map[string]any{"shipments": []string{tn}}); a.Status != 400 {
		t.Errorf("label of a failing carrier: %d", a.Status)
	}
	if cs := c.Call("GET", "/sandbox/carriers", "", nil).Body["data"].([]any); len(cs) < 7 {
		t.Errorf("%d carriers", len(cs))
	}
}

func raw(t *testing.T, method, url, body string) (*http.Response, error) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-apikey", "sandbox-key-1")
	return http.DefaultTransport.RoundTrip(req) // no retries: see each fault as it is
}

func TestFaults(t *testing.T) {
	_, c := start(t, Options{})
	body := jsonString(order("CREDIT"))
	for _, bad := range []map[string]any{{"error_rate": 2}, {"drop_rate": -1}, {"latency_ms": -5}, {"path": "api"}, {"count": -1}} {
		if a := c.Call("POST", "/sandbox/faults", "", bad); a.Status != 400 {
			t.Errorf("fault %v accepted", bad)
		}
	}
	// 5xx for the next two creates only, and only on that path.
	c.Call("POST", "/sandbox/faults", "", map[string]any{"path": "/api/v1/shipments/create", "error_rate": 1, "count": 2})
	if a := c.Call("GET", "/api/v1/shipments/list", "sandbox-key-1", nil); a.Status != 200 {
		t.Errorf("another path was affected: %d", a.Status)
	}
	for i := 0; i < 2; i++ {
		if a := c.Call("POST", "/api/v1/shipments/create", "sandbox-key-1", order("CREDIT")); a.Status != 503 {
			t.Errorf("faulty create %d: %d", i, a.Status)
		}
	}
	if a := c.Call("POST", "/api/v1/shipments/create", "sandbox-key-1", order("CREDIT")); a.Status != 200 {
		t.Errorf("after the count: %d", a.Status)
	}
	if n := total(c); n != 1 {
		t.Errorf("%v shipments after two 503s and one success", n)
	}
	// Dropped before processing: no answer, nothing stored.
	c.Call("POST", "/sandbox/faults", "", map[string]any{"path": "/api/v1/shipments/create", "drop_rate": 1, "count": 1})
	if resp, err := raw(t, "POST", c.URL+"/api/v1/shipments/create", body); err == nil {
		resp.Body.Close()
		t.Errorf("dropped connection answered %d", resp.StatusCode)
	}
	if n := total(c); n != 1 {
		t.Errorf("a dropped request was processed: %v", n)
	}
	// Dropped after processing: no answer, but the order exists.
	c.Call("POST", "/sandbox/faults", "", map[string]any{"path": "/api/v1/shipments/create", "drop_after_rate": 1, "count": 1})
	if resp, err := raw(t, "POST", c.URL+"/api/v1/shipments/create", body); err == nil {
		resp.Body.Close()
		t.Errorf("drop-after answered %d", resp.StatusCode)
	}
	if n := total(c); n != 2 {
		t.Errorf("drop-after did not process the request: %v", n)
	}
	// Latency, listed, then cleared; controls are never affected.
	c.Call("POST", "/sandbox/faults", "", map[string]any{"latency_ms": 150, "error_rate": 1})
	if a := c.Call("GET", "/sandbox/faults", "", nil); len(a.Body["data"].([]any)) != 1 {
		t.Errorf("faults listed: %s", a.Raw)
	}
	if a := c.Call("GET", "/sandbox/clock", "", nil); a.Status != 200 {
		t.Errorf("a control was faulted: %d", a.Status)
	}
	began := time.Now()
	if a := c.Call("GET", "/api/v1/contacts/list", "sandbox-key-1", nil); a.Status != 503 {
		t.Errorf("path-less fault: %d", a.Status)
	}
	if time.Since(began) < 150*time.Millisecond {
		t.Errorf("latency not applied")
	}
	c.Call("DELETE", "/sandbox/faults", "", nil)
	if a := c.Call("GET", "/api/v1/contacts/list", "sandbox-key-1", nil); a.Status != 200 {
		t.Errorf("after clearing: %d", a.Status)
	}
}

func TestWipeAndStateFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	sb, c := start(t, Options{StateFile: file})
	c.Call("POST", "/api/v1/shipments/create", "sandbox-key-1", order("CREDIT"))
	c.Call("POST", "/sandbox/clock/advance", "", map[string]any{"minutes": 30})
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	sb2, c2 := start(t, Options{StateFile: file})
	if n := total(c2); n != 1 {
		t.Errorf("after restart with a state file: %v shipments", n)
	}
	if off := sb2.clock.Offset(); off != 30*time.Minute {
		t.Errorf("clock offset after restart: %s", off)
	}
	if a := c2.Call("POST", "/sandbox/wipe", "", nil); a.Status != 200 || total(c2) != 0 {
		t.Errorf("wipe: %s", a.Raw)
	}
	if _, err := New(Options{WipeAt: "25:00"}); err == nil {
		t.Error("--wipe-at 25:00 accepted")
	}
}

func TestOpenAPIDocumentCoversEverything(t *testing.T) {
	sb, c := start(t, Options{})
	resp, err := http.Get(c.URL + "/sandbox/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || doc.OpenAPI != "3.1.0" {
		t.Fatalf("document: %v %.200s", err, b)
	}
	mux := http.NewServeMux()
	sb.Shipping.Register(mux)
	sb.Returns.Register(mux)
	sb.registerControls(mux)
	contracttest.CheckRoutesDocumented(t, mux, sb)
	for _, op := range sb.Operations() {
		if _, ok := doc.Paths[op.Path][strings.ToLower(op.Method)]; !ok {
			t.Errorf("%s %s missing from openapi.json", op.Method, op.Path)
		}
	}
	for _, want := range []string{"/api/v1/rates/get", "/api/v2/public/cart/create", "/returns/api/v1/commissions/create", "/sandbox/faults", "/sandbox/clock/advance"} {
		if doc.Paths[want] == nil {
			t.Errorf("%s missing", want)
		}
	}
}
