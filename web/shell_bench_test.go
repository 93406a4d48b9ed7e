package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// BenchmarkShellInProcess serves the four signed-in pages of the throughput
// benchmark (a manager's 404, home page, a delivered shipment's page and the
// tracking list) through the dashboard's handler in this process, with no
// network between: what the middleware, session check and page drawing cost
// per request, in time and allocations (steadier than the throughput
// benchmark's rates on a shared machine, and with -cpuprofile/-memprofile a
// profile of our own code alone).
func BenchmarkShellInProcess(b *testing.B) {
	env := apptest.Start(b)
	env.DeliverDemoOrders()
	shipment, err := env.App.DB.ShipmentByReference(context.Background(), "DEMO-1")
	if err != nil {
		b.Fatal(err)
	}
	browser := env.SignedIn(identity.Manager)
	u, _ := url.Parse(env.URL)
	var cookie string
	for _, c := range browser.Jar.Cookies(u) {
		if c.Name == "shipdesk" {
			cookie = c.Name + "=" + c.Value
		}
	}
	if cookie == "" {
		b.Fatal("signing in set no session cookie")
	}
	for _, p := range []struct {
		name, path string
		status     int
	}{{"404", "/no-such-page", http.StatusNotFound}, {"home", "/", http.StatusOK},
		{"shipment", fmt.Sprintf("/shipping/shipments/%d", shipment.ID), http.StatusOK}, {"list", "/tracking", http.StatusOK}} {
		b.Run(p.name, func(b *testing.B) {
			req, _ := http.NewRequest(http.MethodGet, env.URL+p.path, nil)
			req.Header.Set("Cookie", cookie)
			req.Header.Set("Accept", "text/html")
			req.Header.Set("Accept-Language", "cs,en;q=0.8")
			w := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				w.status = 0
				env.App.Handler.ServeHTTP(w, req)
				if w.status != p.status {
					b.Fatalf("GET %s: status %d, want %d", p.path, w.status, p.status)
				}
			}
		})
	}
}

// discardWriter is an answer that keeps its status and headers and drops its
// body, as cheaply as a writer can.
type discardWriter struct {
	h      http.Header
	status int
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}
func (w *discardWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return len(b), nil
}
