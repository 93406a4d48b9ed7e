package shoptet_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"shipdesk/clock"
	"shipdesk/sandbox/shoptet"
)

// receiver is a webhook endpoint that checks each notification's signature
// as a receiver must: the HMAC-SHA1 of the raw body with the key.
type receiver struct {
	mu    sync.Mutex
	key   string
	got   []map[string]any
	bad   int // notifications whose signature did not check
	fails int // answer 500 to this many first
	hang  time.Duration
	srv   *httptest.Server
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		hang := rc.hang
		if rc.fails > 0 {
			rc.fails--
			rc.mu.Unlock()
			w.WriteHeader(500)
			return
		}
		mac := hmac.New(sha1.New, []byte(rc.key))
		mac.Write(body)
		if r.Header.Get("Shoptet-Webhook-Signature") != hex.EncodeToString(mac.Sum(nil)) {
			rc.bad++
		} else {
			var v map[string]any
			_ = json.Unmarshal(body, &v)
			rc.got = append(rc.got, v)
		}
		rc.mu.Unlock()
		time.Sleep(hang)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) wait(t *testing.T, n int) []map[string]any {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		rc.mu.Lock()
		if len(rc.got) >= n {
			out := append([]map[string]any(nil), rc.got...)
			rc.mu.Unlock()
			return out
		}
		rc.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	t.Fatalf("%d notifications checked in time, want %d (%d with a bad signature)", len(rc.got), n, rc.bad)
	return nil
}

var shoptetTime = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+\d{4}$`)

// Registered URLs get signed notifications of the order events; the key is
// the one renew-signature-key handed out; the body is Shoptet's.
func TestWebhooksDeliveredAndSigned(t *testing.T) {
	e := newEnv(t, "documented")
	rc := newReceiver(t)
	reg := e.call("POST", "/api/webhooks", map[string]any{"data": []any{
		map[string]any{"event": "order:create", "url": rc.srv.URL}, map[string]any{"event": "order:update", "url": rc.srv.URL},
		map[string]any{"event": "order:paid", "url": rc.srv.URL}}})
	if reg.Status != 201 || len(reg.data()["webhooks"].([]any)) != 3 {
		t.Fatalf("register: %d %s", reg.Status, reg.Raw)
	}
	key := e.call("POST", "/api/webhooks/renew-signature-key", nil).data()["signatureKey"].(string)
	if len(key) != 32 || key == "" {
		t.Fatalf("key %q", key)
	}
	rc.mu.Lock()
	rc.key = key
	rc.mu.Unlock()
	code, err := e.shop.AddOrder(shoptet.Order{Email: "jan@example.cz", Shipping: shoptet.ShippingMethods[2].GUID, Payment: shoptet.PaymentMethods[2].GUID})
	if err != nil {
		t.Fatal(err)
	}
	e.call("PATCH", "/api/orders/"+code+"/status", map[string]any{"data": map[string]any{"statusId": shoptet.StatusDone}})
	got := rc.wait(t, 3)
	events := map[string]bool{}
	for _, n := range got {
		events[n["event"].(string)] = true
		if n["eshopId"].(float64) != shoptet.EshopID || n["eventInstance"] != code || !shoptetTime.MatchString(n["eventCreated"].(string)) || len(n) != 4 {
			t.Errorf("notification %v", n)
		}
	}
	if !events["order:create"] || !events["order:update"] || !events["order:paid"] {
		t.Errorf("events %v", events)
	}
	if rc.bad > 0 {
		t.Errorf("%d notifications with a bad signature", rc.bad)
	}
	if a := e.call("POST", "/api/webhooks", map[string]any{"data": []any{map[string]any{"event": "order:create", "url": rc.srv.URL}}}); a.Status != 422 {
		t.Errorf("a second URL for one event: %d", a.Status)
	}
}

func TestWebhookRegistrationRefusals(t *testing.T) {
	e := newEnv(t, "documented")
	for _, c := range []struct {
		body   any
		status int
	}{
		{map[string]any{"data": []any{map[string]any{"event": "order:update", "url": "http://127.0.0.1:1/a"}, map[string]any{"event": "order:cancel", "url": "http://127.0.0.1:1/b"}}}, 409},
		{map[string]any{"data": []any{map[string]any{"event": "order:create", "url": "https://example.com/hook"}}}, 422},
		{map[string]any{"data": []any{map[string]any{"event": "order:create", "url": "file:///etc/passwd"}}}, 422},
		{map[string]any{"data": []any{map[string]any{"event": "product:create", "url": "http://127.0.0.1:1/"}}}, 422},
		{map[string]any{"data": []any{map[string]any{"event": "order:create", "url": "http://127.0.0.1:1/", "extra": 1}}}, 422},
		{map[string]any{"data": []any{}}, 422},
		{map[string]any{"data": "order:create"}, 422},
		{`{"data": [`, 422},
	} {
		if a := e.call("POST", "/api/webhooks", c.body); a.Status != c.status {
			t.Errorf("%v: %d, want %d: %s", c.body, a.Status, c.status, a.Raw)
		}
	}
	if a := e.call("DELETE", "/api/webhooks/12", nil); a.Status != 404 || a.errorCode() != "webhook-not-found" {
		t.Errorf("delete unknown: %d %s", a.Status, a.Raw)
	}
}

// A failed notification is sent again; a slow receiver never holds up the
// API's answers; Close stops the delivery at once.
func TestWebhookRetriesNeverBlockAndStop(t *testing.T) {
	shop := shoptet.New(shoptet.Config{Clock: clock.Frozen(start), WebhookRetry: 20 * time.Millisecond})
	t.Cleanup(shop.Close)
	srv := httptest.NewServer(shop.Handler())
	defer srv.Close()
	rc := newReceiver(t)
	rc.key, rc.fails = shop.SignatureKey(), 2
	post := func(call string, body any) answer {
		method, path, _ := strings.Cut(call, " ")
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(b))
		req.Header.Set("Shoptet-Private-Api-Token", shoptet.Token)
		req.Header.Set("Content-Type", "application/vnd.shoptet.v1.0")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		return answer{Status: resp.StatusCode, Raw: raw}
	}
	if a := post("POST /api/webhooks", map[string]any{"data": []any{map[string]any{"event": "order:update", "url": rc.srv.URL}}}); a.Status != 201 {
		t.Fatalf("register: %d %s", a.Status, a.Raw)
	}
	code := shop.Orders()[0].Code
	post("PATCH /api/orders/"+code+"/notes", map[string]any{"data": map[string]any{"eshopRemark": "1"}})
	rc.wait(t, 1)
	// The receiver has it; the sender records the answer right after.
	notes := shop.Notifications()
	for deadline := time.Now().Add(5 * time.Second); (len(notes) != 1 || !notes[0].Delivered) && time.Now().Before(deadline); notes = shop.Notifications() {
		time.Sleep(10 * time.Millisecond)
	}
	if len(notes) != 1 || notes[0].Attempts != 3 || !notes[0].Delivered {
		t.Errorf("after two failures: %+v", notes)
	}
	rc.mu.Lock()
	rc.hang = 3 * time.Second
	rc.mu.Unlock()
	post("PATCH /api/orders/"+code+"/notes", map[string]any{"data": map[string]any{"eshopRemark": "2"}})
	time.Sleep(100 * time.Millisecond) // the receiver now holds the delivery
	watch := time.Now()
	if a := post("PATCH /api/orders/"+code+"/notes", map[string]any{"data": map[string]any{"eshopRemark": "3"}}); a.Status != 200 || time.Since(watch) > time.Second {
		t.Errorf("a write while the receiver hangs: %d in %s", a.Status, time.Since(watch))
	}
	watch = time.Now()
	shop.Close()
	if time.Since(watch) > time.Second {
		t.Errorf("Close took %s with a delivery in flight", time.Since(watch))
	}
}
