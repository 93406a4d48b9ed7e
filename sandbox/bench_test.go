package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkStart measures building a sandbox: carriers, services and a few
// thousand parcel points, generated from the seed. The issue asks for well under
// a second.
func BenchmarkStart(b *testing.B) {
	for b.Loop() {
		sb, err := New(Options{})
		if err != nil {
			b.Fatal(err)
		}
		sb.Close()
	}
}

// BenchmarkRatesGet is one rates/get through the whole handler stack.
func BenchmarkRatesGet(b *testing.B) {
	sb, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer sb.Close()
	body, _ := json.Marshal(map[string]any{"currency": "CZK", "type": "ONDEMAND",
		"from": shipment["from"], "to": shipment["to"], "packages": shipment["packages"]})
	h := sb.Handler()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/rates/get", bytes.NewReader(body))
		req.Header.Set("x-apikey", "sandbox-key-1")
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("rates/get: %d %s", rec.Code, rec.Body)
		}
	}
}
