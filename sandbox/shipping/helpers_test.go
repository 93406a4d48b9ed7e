package shipping

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"shipdesk/clock"
	"shipdesk/sandbox/apijson"
	"shipdesk/sandbox/contracttest"
	"shipdesk/sandbox/labelpdf"
)

const key1, key2 = "sandbox-key-1", "sandbox-key-2"

// A Monday morning, so pickup dates and working days are predictable.
var start = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

type env struct {
	t     *testing.T
	svc   *Service
	clock *clock.Clock
	url   string
	api   *contracttest.Client
}

// newEnv serves the documented shapes.
func newEnv(t *testing.T) *env { return newEnvShapes(t, ShapesDocumented) }

// newEnvShapes serves the given answer shapes; in the minimal shapes every
// answer is also checked to carry no x-sandbox-only property.
func newEnvShapes(t *testing.T, shapes string) *env {
	t.Helper()
	clock := clock.Frozen(start)
	svc := New(Config{Clock: clock, Render: labelpdf.Render, RenderManifest: labelpdf.RenderManifest, MaxBody: 64 << 10, Shapes: shapes})
	mux := http.NewServeMux()
	svc.Register(mux)
	srv := httptest.NewServer(apijson.WithJSONFallbacks(mux))
	t.Cleanup(srv.Close)
	api := contracttest.New(t, srv.URL, svc)
	api.Lang = "en" // the rules' tests read the English texts; czech_test.go reads the default
	api.Minimal = shapes == ShapesMinimal
	return &env{t: t, svc: svc, clock: clock, url: srv.URL, api: api}
}

// bothShapes runs a test against each answer shape.
func bothShapes(t *testing.T, test func(t *testing.T, e *env)) {
	for _, shapes := range []string{ShapesDocumented, ShapesMinimal} {
		t.Run(shapes, func(t *testing.T) { test(t, newEnvShapes(t, shapes)) })
	}
}

type answer = contracttest.Answer

func (e *env) call(method, path, key string, body any) answer {
	e.t.Helper()
	return e.api.Call(method, path, key, body)
}

func (e *env) advance(d time.Duration) { e.clock.Advance(d) }

func recipient() map[string]any {
	return map[string]any{"firstname": "Jan", "surname": "Novák", "street": "Dlouhá 5", "city": "Brno", "zip": "602 00", "country": "CZ", "phone": "+420777111222", "email": "jan@example.com"}
}

func sender() map[string]any {
	return map[string]any{"company": "Shop s.r.o.", "firstname": "Eva", "surname": "Malá", "street": "Krátká 1", "city": "Praha", "zip": "110 00", "country": "CZ", "phone": "+420777000111"}
}

func pkg(kg float64) map[string]any {
	return map[string]any{"weight": kg, "width": 20, "height": 10, "length": 30}
}

// shipmentTo is a valid shipment of a carrier, from an address.
func shipmentTo(carrier, typ string) map[string]any {
	return map[string]any{"type": typ, "carrier": carrier, "from": sender(), "to": recipient(), "packages": []any{pkg(2)}, "reference": "REF-1"}
}

func orderBody(payment string, shipments ...map[string]any) map[string]any {
	list := make([]any, len(shipments))
	for i, s := range shipments {
		list[i] = s
	}
	return map[string]any{"currency": "CZK", "payment_type": payment, "shipments": list}
}

// create orders one shipment and returns its tracking number and the order
// token.
func (e *env) create(key string, sh map[string]any) (string, string) {
	e.t.Helper()
	a := e.call("POST", "/api/v1/shipments/create", key, orderBody("CREDIT", sh))
	if a.Status != 200 {
		e.t.Fatalf("create: %d %s", a.Status, a.Raw)
	}
	return createdNumbers(e.t, a)[0], a.Data()["order"].(string)
}

// fetchLabels fetches the labels of exported shipments, as a clerk's print
// does: only then does a courier take a printed-label parcel past ONPICKUP.
func (e *env) fetchLabels(key string, tns ...string) {
	e.t.Helper()
	if a := e.call("POST", "/api/v1/shipments/label", key, map[string]any{"shipments": tns}); a.Status != 200 {
		e.t.Fatalf("labels of %v: %d %s", tns, a.Status, a.Raw)
	}
}

// createdNumbers reads the created shipments in either shape: tracking-number
// strings or objects with tracking_number.
func createdNumbers(t *testing.T, a answer) []string {
	t.Helper()
	var out []string
	for _, x := range a.Data()["shipments"].([]any) {
		switch v := x.(type) {
		case string:
			out = append(out, v)
		case map[string]any:
			out = append(out, v["tracking_number"].(string))
		default:
			t.Fatalf("created shipment %v is neither a string nor an object", x)
		}
	}
	return out
}

func (e *env) detail(key, tn string, tokens ...string) map[string]any {
	e.t.Helper()
	a := e.call("POST", "/api/v1/shipments/detail?tracking", key, map[string]any{"shipments": []string{tn}, "tokens": tokens})
	if a.Status != 200 {
		e.t.Fatalf("detail %s: %d %s", tn, a.Status, a.Raw)
	}
	return a.Data()[tn].(map[string]any)
}

var pageObj = regexp.MustCompile(`/Type /Page\b`)

// pdfPages decodes a base64 PDF answer and counts its pages.
func pdfPages(t *testing.T, a answer) int {
	t.Helper()
	s, _ := a.Body["data"].(string)
	pdf, err := base64.StdEncoding.DecodeString(s)
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("data is not a base64 PDF: %v %.40q", err, s)
	}
	return len(pageObj.FindAll(pdf, -1))
}

func point(e *env, carrier string, locker bool) *Point {
	for _, p := range e.svc.points {
		if strings.EqualFold(p.Carrier, carrier) && p.IsLocker == locker && p.Country == "CZ" {
			return p
		}
	}
	panic(fmt.Sprintf("no point of %s", carrier))
}
