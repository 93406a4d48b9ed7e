package jobs_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/sandbox/sandboxtest"
)

// nulProxy stands between the pollers and the sandbox and writes a NUL and a
// control character into every tracking event's name, as a faulty service might.
func nulProxy(t *testing.T, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := httputil.NewSingleHostReverseProxy(u)
	director := p.Director
	p.Director = func(r *http.Request) {
		director(r)
		r.Header.Del("Accept-Encoding")
	}
	p.ModifyResponse = func(resp *http.Response) error {
		if !strings.HasSuffix(resp.Request.URL.Path, "/shipments/tracking") {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		body = bytes.ReplaceAll(body, []byte(`"name":"`), []byte(`"name":"\u0000\u0007`))
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestNULInTrackingEventsIsStoredCleaned(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	s := e.order(1)[0]
	c, err := shipping.New(transport.Config{BaseURL: nulProxy(t, e.sb.URL), APIKey: sandboxtest.ShippingKey, Metrics: e.metrics,
		Retry: transport.Retry{Attempts: 1, Base: time.Millisecond, Max: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	e.ship = c
	r := e.runner("nul", 100)
	e.sb.Advance(2 * time.Hour)
	e.now = e.now.Add(time.Hour)
	if raw, _ := c.Tracking(ctx, []string{s.Tracking()}); len(raw[s.Tracking()].Packages) == 0 ||
		!strings.HasPrefix(raw[s.Tracking()].Packages[0][0].Name, "\x00") {
		t.Fatalf("the proxy did not inject a NUL: %+v", raw)
	}
	st, err := r.Tracking(ctx)
	if err != nil || st.Failed != 0 || st.Events == 0 {
		t.Fatalf("tracking: %+v %v", st, err)
	}
	events, err := e.db.Events(ctx, s.ID)
	if err != nil || len(events) == 0 {
		t.Fatalf("events: %v %v", events, err)
	}
	for _, ev := range events {
		if strings.ContainsAny(ev.Name, "\x00\x07") || ev.Name == "" {
			t.Errorf("stored event name %q", ev.Name)
		}
	}
	if got := e.shipment(s.ID); got.LastCheckedAt == nil {
		t.Error("the shipment was not marked as checked")
	}
}
