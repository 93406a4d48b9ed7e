package shipping

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"shipdesk/sandbox/labelpdf"
	"shipdesk/sandbox/openapi"
	"shipdesk/sandbox/simclock"
)

const key1, key2 = "sandbox-key-1", "sandbox-key-2"

// A Monday morning, so pickup dates and working days are predictable.
var start = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

type env struct {
	t     *testing.T
	svc   *Service
	clock *simclock.Clock
	url   string
	docs  map[string]openapi.Operation
}

func newEnv(t *testing.T) *env {
	t.Helper()
	clock := simclock.Frozen(start)
	svc := New(Config{Clock: clock, Render: labelpdf.Render, RenderManifest: labelpdf.RenderManifest, MaxBody: 64 << 10})
	mux := http.NewServeMux()
	svc.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	docs := map[string]openapi.Operation{}
	for _, op := range svc.Operations() {
		docs[op.Method+" "+op.Path] = op
	}
	return &env{t: t, svc: svc, clock: clock, url: srv.URL, docs: docs}
}

type answer struct {
	Status int
	Body   map[string]any
	Raw    []byte
}

// call sends a request and checks the answer against the OpenAPI document, so
// every test also proves the document tells the truth.
func (e *env) call(method, path, key string, body any) answer {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		if s, ok := body.(string); ok {
			rd = strings.NewReader(s)
		} else {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
	}
	req, _ := http.NewRequest(method, e.url+path, rd)
	if key != "" {
		req.Header.Set("x-apikey", key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := answer{Status: resp.StatusCode, Raw: raw}
	if err := json.Unmarshal(raw, &a.Body); err != nil {
		e.t.Fatalf("%s %s: answer is not a JSON object: %s", method, path, raw)
	}
	if st, _ := a.Body["status"].(float64); int(st) != resp.StatusCode {
		e.t.Errorf("%s %s: envelope status %v, HTTP %d", method, path, a.Body["status"], resp.StatusCode)
	}
	route := path
	if i := strings.IndexByte(route, '?'); i >= 0 {
		route = route[:i]
	}
	if op, ok := e.docs[method+" "+route]; ok {
		doc, ok := op.Responses[resp.StatusCode]
		if !ok {
			e.t.Errorf("%s %s answered %d, which the OpenAPI document does not list", method, route, resp.StatusCode)
		} else if err := openapi.ValidateJSON(e.svc.Components(), doc.Schema, raw); err != nil {
			e.t.Errorf("%s %s %d disagrees with the OpenAPI document: %.600v\n%.300s", method, route, resp.StatusCode, err, raw)
		}
	}
	return a
}

// fieldError returns the message for field, or "".
func (a answer) fieldError(field string) string {
	errs, _ := a.Body["errors"].([]any)
	var msgs []string
	for _, e := range errs {
		m := e.(map[string]any)
		if f, _ := m["field"].(string); f == field {
			msgs = append(msgs, m["message"].(string))
		}
	}
	return strings.Join(msgs, " | ")
}

func (a answer) data() map[string]any {
	d, _ := a.Body["data"].(map[string]any)
	return d
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

// create orders one shipment and returns its tracking number and the order.
func (e *env) create(key string, sh map[string]any) (string, map[string]any) {
	e.t.Helper()
	a := e.call("POST", "/api/v1/shipments/create", key, orderBody("CREDIT", sh))
	if a.Status != 201 {
		e.t.Fatalf("create: %d %s", a.Status, a.Raw)
	}
	d := a.data()
	s := d["shipments"].([]any)[0].(map[string]any)
	return s["tracking_number"].(string), d["order"].(map[string]any)
}

func (e *env) detail(key, tn string, tokens ...string) map[string]any {
	e.t.Helper()
	a := e.call("POST", "/api/v1/shipments/detail?tracking", key, map[string]any{"shipments": []string{tn}, "tokens": tokens})
	if a.Status != 200 {
		e.t.Fatalf("detail %s: %d %s", tn, a.Status, a.Raw)
	}
	return a.data()[tn].(map[string]any)
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
		if p.Carrier == carrier && p.IsLocker == locker && p.Country == "CZ" {
			return p
		}
	}
	panic(fmt.Sprintf("no point of %s", carrier))
}
