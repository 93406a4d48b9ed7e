package shoptet_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"shipdesk/sandbox/shoptet"
)

func control(t *testing.T, e *env, method, path string, body any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, e.url+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Three connections at once per token: the fourth gets 429 with
// Retry-After while the three are answered; another token is not held up.
func TestFourthConcurrentConnectionGets429(t *testing.T) {
	e := newEnv(t, "documented")
	if st := control(t, e, "POST", "/sandbox/shoptet/settings", map[string]any{"latency_ms": 600}); st != 200 {
		t.Fatalf("settings: %d", st)
	}
	var wg sync.WaitGroup
	statuses := make([]int, 3)
	for i := range 3 {
		wg.Add(1)
		go func() { defer wg.Done(); statuses[i] = e.call("GET", "/api/eshop", nil).Status }()
	}
	deadline := time.Now().Add(5 * time.Second)
	for e.shop.InFlight(shoptet.Token) < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	fourth := e.call("GET", "/api/orders/statuses", nil)
	if fourth.Status != 429 || fourth.Header.Get("Retry-After") != "1" || fourth.errorCode() != "too-many-connections" {
		t.Errorf("the fourth at once: %d Retry-After %q %s", fourth.Status, fourth.Header.Get("Retry-After"), fourth.Raw)
	}
	if other := e.callAs(shoptet.ReadOnlyToken, "GET", "/api/orders/statuses", nil); other.Status != 200 {
		t.Errorf("another token meanwhile: %d", other.Status)
	}
	wg.Wait()
	for i, st := range statuses {
		if st != 200 {
			t.Errorf("connection %d: %d", i, st)
		}
	}
	if a := e.call("GET", "/api/orders/statuses", nil); a.Status != 200 {
		t.Errorf("after the three: %d", a.Status)
	}
}

// The leaky bucket: every answer says its filling; a full bucket answers
// 429 with Retry-After, the moment (simulated time) it has room again.
func TestLeakyBucket(t *testing.T) {
	e := newEnv(t, "documented")
	e.shop.SetSettings(shoptet.Settings{Connections: 3, Bucket: 5, LeakPerSecond: 1, LockSeconds: 5})
	for i := 1; i <= 5; i++ {
		a := e.call("GET", "/api/orders/statuses", nil)
		if want := string(rune('0'+i)) + "/5"; a.Status != 200 || a.Header.Get("X-RateLimit-Bucket-Filling") != want {
			t.Errorf("request %d: %d, filling %q, want %q", i, a.Status, a.Header.Get("X-RateLimit-Bucket-Filling"), want)
		}
	}
	full := e.call("GET", "/api/orders/statuses", nil)
	retry, err := http.ParseTime(full.Header.Get("Retry-After"))
	if full.Status != 429 || err != nil || !retry.Equal(start.Add(time.Second)) || full.Header.Get("X-RateLimit-Bucket-Filling") != "5/5" {
		t.Errorf("full: %d Retry-After %q (%v) filling %q", full.Status, full.Header.Get("Retry-After"), err, full.Header.Get("X-RateLimit-Bucket-Filling"))
	}
	e.clock.Advance(time.Second)
	if a := e.call("GET", "/api/orders/statuses", nil); a.Status != 200 {
		t.Errorf("after Retry-After: %d", a.Status)
	}
	def := newEnv(t, "documented")
	if got := def.call("GET", "/api/eshop", nil).Header.Get("X-RateLimit-Bucket-Filling"); got != "1/200" {
		t.Errorf("Shoptet's bucket: %q", got)
	}
}

// The sandbox's faults reach the shop: for an hour of simulated time it
// answers 503 in Shoptet's error shape, then everything is still there.
func TestShopDownForAnHourLosesNothing(t *testing.T) {
	e := newEnv(t, "documented")
	e.shop.SetSettings(func() shoptet.Settings { s := shoptet.DefaultSettings; s.Arrivals = false; return s }())
	before := len(e.shop.Orders())
	if st := control(t, e, "POST", "/sandbox/faults", map[string]any{"path": "/shoptet/", "error_rate": 1}); st != 201 {
		t.Fatalf("fault: %d", st)
	}
	for range 6 {
		if a := e.call("GET", "/api/orders/changes?from=2026-11-01T00:00:00%2B0100", nil); a.Status != 503 || a.errorCode() != "service-unavailable" {
			t.Fatalf("down: %d %s", a.Status, a.Raw)
		}
		e.clock.Advance(10 * time.Minute)
	}
	control(t, e, "DELETE", "/sandbox/faults", nil)
	a := e.call("GET", "/api/orders", nil)
	if a.Status != 200 || int(paginator(a)["totalCount"].(float64)) != before {
		t.Errorf("after the hour: %d, %v orders, want %d", a.Status, paginator(a)["totalCount"], before)
	}
}
