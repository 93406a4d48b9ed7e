package shipping

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"

	"shipdesk/sandbox/contracttest"
	"shipdesk/sandbox/labelpdf"
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
	api   *contracttest.Client
}

func newEnv(t *testing.T) *env {
	t.Helper()
	clock := simclock.Frozen(start)
	svc := New(Config{Clock: clock, Render: labelpdf.Render, RenderManifest: labelpdf.RenderManifest, MaxBody: 64 << 10})
	mux := http.NewServeMux()
	svc.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &env{t: t, svc: svc, clock: clock, url: srv.URL, api: contracttest.New(t, srv.URL, svc)}
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

// create orders one shipment and returns its tracking number and the order.
func (e *env) create(key string, sh map[string]any) (string, map[string]any) {
	e.t.Helper()
	a := e.call("POST", "/api/v1/shipments/create", key, orderBody("CREDIT", sh))
	if a.Status != 201 {
		e.t.Fatalf("create: %d %s", a.Status, a.Raw)
	}
	d := a.Data()
	s := d["shipments"].([]any)[0].(map[string]any)
	return s["tracking_number"].(string), d["order"].(map[string]any)
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
		if p.Carrier == carrier && p.IsLocker == locker && p.Country == "CZ" {
			return p
		}
	}
	panic(fmt.Sprintf("no point of %s", carrier))
}
