package transport

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"shipdesk/clock"
)

// hostile starts a server that answers with h and counts requests.
func hostile(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

func newClient(t *testing.T, base string, mod ...func(*Config)) (*Client, *bytes.Buffer) {
	t.Helper()
	var logs bytes.Buffer
	cfg := Config{
		Interface: "shipping", BaseURL: base, APIKey: "secret-key-123", UserAgent: "shipdesk-test",
		Timeout: 2 * time.Second, MaxBody: 1 << 16, Metrics: NewMetrics(clock.Real()),
		Log: slog.New(slog.NewTextHandler(&logs, nil)),
	}
	for _, m := range mod {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.wait = func(ctx context.Context, d time.Duration) error { return ctx.Err() } // no real sleeping in tests
	return c, &logs
}

func jsonAnswer(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

var read = Call{Op: "shipments/detail", Method: http.MethodPost, Path: "/api/v1/shipments/detail", JSON: map[string]any{"shipments": []string{"X1"}}, Idempotent: true}
var create = Call{Op: "shipments/create", Method: http.MethodPost, Path: "/api/v1/shipments/create", JSON: map[string]any{"shipments": []any{}}}

func TestSendsKeyAgentAndBody(t *testing.T) {
	var got *http.Request
	var body []byte
	srv, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		got = r
		body, _ = io.ReadAll(r.Body)
		jsonAnswer(200, `{"status":200,"message":"ok","data":{"a":1}}`)(w, r)
	})
	c, logs := newClient(t, srv.URL)
	ans, err := c.Do(context.Background(), read)
	if err != nil {
		t.Fatal(err)
	}
	if got.Header.Get("x-apikey") != "secret-key-123" || got.Header.Get("User-Agent") != "shipdesk-test" {
		t.Errorf("headers %v", got.Header)
	}
	if got.URL.Path != "/api/v1/shipments/detail" || got.Header.Get("Content-Type") != "application/json" || !strings.Contains(string(body), "X1") {
		t.Errorf("request %s %s %q", got.URL.Path, got.Header.Get("Content-Type"), body)
	}
	var data struct{ A int }
	if err := ans.Data(read.Op, &data); err != nil || data.A != 1 {
		t.Errorf("data %+v, %v", data, err)
	}
	if strings.Contains(logs.String(), "secret-key-123") || strings.Contains(logs.String(), "X1") {
		t.Errorf("log has the key or the request body: %s", logs)
	}
	if !strings.Contains(logs.String(), "op=shipments/detail") || !strings.Contains(logs.String(), "outcome=200") {
		t.Errorf("log lacks operation and status: %s", logs)
	}
}

func TestErrorEnvelopeKeepsStatusMessageAndFields(t *testing.T) {
	srv, _ := hostile(t, jsonAnswer(400, `{"status":400,"message":"Validation failed","errors":[{"field":"shipments[0].label_less","message":"Label-free is available for one carrier only"},{"message":"general"}]}`))
	c, _ := newClient(t, srv.URL)
	_, err := c.Do(context.Background(), create)
	if !IsInvalid(err) || !HasFieldErrors(err) || IsUnauthorized(err) || IsNotFound(err) || IsTemporary(err) {
		t.Fatalf("classification wrong for %v", err)
	}
	fe := FieldErrors(err)
	if len(fe) != 2 || fe[0].Field != "shipments[0].label_less" || fe[0].Message != "Label-free is available for one carrier only" || fe[1].Field != "" {
		t.Errorf("field errors %+v", fe)
	}
	if !strings.Contains(err.Error(), "shipments/create: 400 Validation failed") {
		t.Errorf("error text %q", err)
	}
}

func TestStatusHelpers(t *testing.T) {
	for status, check := range map[int]func(error) bool{401: IsUnauthorized, 404: IsNotFound, 503: IsTemporary, 429: IsTemporary} {
		srv, _ := hostile(t, jsonAnswer(status, `{"status":0,"message":"x"}`))
		c, _ := newClient(t, srv.URL, func(c *Config) { c.Retry.Attempts = 1 })
		if _, err := c.Do(context.Background(), read); !check(err) || StatusOf(err) != status {
			t.Errorf("status %d: %v", status, err)
		}
	}
}

func TestReadsAreRetriedOnFiveHundredsAndSucceed(t *testing.T) {
	var calls atomic.Int32
	srv, n := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) < 3 {
			jsonAnswer(503, `{"status":503,"message":"busy"}`)(w, r)
			return
		}
		jsonAnswer(200, `{"status":200,"message":"ok","data":{}}`)(w, r)
	})
	c, logs := newClient(t, srv.URL)
	if _, err := c.Do(context.Background(), read); err != nil {
		t.Fatalf("read after two 503s: %v", err)
	}
	if n.Load() != 3 {
		t.Errorf("%d attempts, want 3", n.Load())
	}
	if !strings.Contains(logs.String(), "attempt=3") {
		t.Errorf("attempts are not logged: %s", logs)
	}
}

func TestCreateIsNeverRepeated(t *testing.T) {
	srv, n := hostile(t, jsonAnswer(503, `{"status":503,"message":"busy"}`))
	c, _ := newClient(t, srv.URL)
	_, err := c.Do(context.Background(), create)
	if n.Load() != 1 || !IsTemporary(err) {
		t.Errorf("create: %d attempts, err %v; want exactly 1 and a temporary error", n.Load(), err)
	}
}

func TestBadRequestsAreNotRetried(t *testing.T) {
	srv, n := hostile(t, jsonAnswer(400, `{"status":400,"message":"no"}`))
	c, _ := newClient(t, srv.URL)
	c.Do(context.Background(), read)
	if n.Load() != 1 {
		t.Errorf("400 was tried %d times", n.Load())
	}
}

// A connection dropped after the request was sent leaves the outcome of a
// create unknown; a refused connection does not.
func TestDroppedConnectionMeansOutcomeUnknown(t *testing.T) {
	srv, n := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	c, _ := newClient(t, srv.URL)
	_, err := c.Do(context.Background(), create)
	if !IsOutcomeUnknown(err) || n.Load() != 1 {
		t.Errorf("dropped create: %v (attempts %d); want outcome unknown after one attempt", err, n.Load())
	}

	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	c2, _ := newClient(t, "http://"+addr)
	_, err = c2.Do(context.Background(), create)
	if err == nil || IsOutcomeUnknown(err) || !IsTemporary(err) {
		t.Errorf("refused connection: %v; want a temporary error with a known (not sent) outcome", err)
	}
}

func TestHostileAnswers(t *testing.T) {
	huge := strings.Repeat("x", 1<<17)
	cases := map[string]struct {
		h    http.HandlerFunc
		want string
	}{
		"truncated JSON": {jsonAnswer(200, `{"status":200,"message":"ok","data":{"a"`), "expected a JSON object"},
		"HTML": {func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html>hi</html>")
		}, "text/html"},
		"empty body":  {jsonAnswer(200, ``), "empty body"},
		"JSON array":  {jsonAnswer(200, `[1,2]`), "expected a JSON object"},
		"null":        {jsonAnswer(200, `null`), "expected a JSON object"},
		"wrong types": {jsonAnswer(200, `{"status":"ok","message":1}`), "status is not a number"},
		"huge body":   {jsonAnswer(200, `{"status":200,"message":"`+huge+`"}`), "larger than"},
		"not json type": {func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, `{"status":200}`)
		}, "expected application/json"},
		"HTML 502": {func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(502)
			io.WriteString(w, "<h1>Bad gateway</h1>")
		}, "502"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			srv, _ := hostile(t, tc.h)
			c, _ := newClient(t, srv.URL, func(c *Config) { c.Retry.Attempts = 1 })
			ans, err := c.Do(context.Background(), read)
			if err == nil {
				t.Fatalf("accepted %+v", ans)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not say %q", err, tc.want)
			}
		})
	}
}

func TestMissingDataIsAnErrorNotAZeroValue(t *testing.T) {
	srv, _ := hostile(t, jsonAnswer(200, `{"status":200,"message":"ok","data":null}`))
	c, _ := newClient(t, srv.URL)
	ans, err := c.Do(context.Background(), read)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := ans.Data(read.Op, &out); err == nil || !strings.Contains(err.Error(), `expected "data"`) {
		t.Errorf("null data: %v", err)
	}
	var wrong []string
	if err := ans.Field(read.Op, "message", &wrong); err == nil || !strings.Contains(err.Error(), "wrong shape") {
		t.Errorf("wrong shape: %v", err)
	}
}

func TestSlowAnswerTimesOutAndCallerContextWins(t *testing.T) {
	release := make(chan struct{})
	srv, n := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	c, _ := newClient(t, srv.URL, func(c *Config) { c.Timeout = 100 * time.Millisecond; c.Retry.Attempts = 2 })
	_, err := c.Do(context.Background(), read)
	if !IsTemporary(err) || !strings.Contains(err.Error(), "no answer within 100ms") || n.Load() != 2 {
		t.Errorf("slow read: %v after %d attempts", err, n.Load())
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c2, _ := newClient(t, srv.URL)
	if _, err := c2.Do(ctx, read); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled caller: %v", err)
	}
}

func TestMetricsCountOutcomes(t *testing.T) {
	srv, _ := hostile(t, jsonAnswer(503, `{"status":503,"message":"busy"}`))
	c, _ := newClient(t, srv.URL, func(c *Config) { c.Retry.Attempts = 3 })
	c.Do(context.Background(), read)
	cs := c.cfg.Metrics.Counters()
	if len(cs) != 1 || cs[0].Op != "shipments/detail" || cs[0].Outcome != "503" || cs[0].Calls != 3 {
		t.Errorf("counters %+v", cs)
	}
	if f := c.cfg.Metrics.Failures("shipping"); len(f) != 3 {
		t.Errorf("failures %+v", f)
	}
	var b bytes.Buffer
	c.cfg.Metrics.WritePrometheus(&b)
	if !strings.Contains(b.String(), `shipdesk_upstream_calls_total{interface="shipping",op="shipments/detail",outcome="503"} 3`) {
		t.Errorf("prometheus text:\n%s", b.String())
	}
}

func TestBackoffGrowsWithJitterAndCap(t *testing.T) {
	c, _ := newClient(t, "http://127.0.0.1:1", func(c *Config) { c.Retry = Retry{Attempts: 6, Base: 100 * time.Millisecond, Max: time.Second} })
	c.rand = func() float64 { return 1 }
	if d := c.backoff(1, 0); d != 100*time.Millisecond {
		t.Errorf("first wait %s", d)
	}
	if d := c.backoff(3, 0); d != 400*time.Millisecond {
		t.Errorf("third wait %s", d)
	}
	if d := c.backoff(10, 0); d != time.Second {
		t.Errorf("capped wait %s", d)
	}
	c.rand = func() float64 { return 0 }
	if d := c.backoff(3, 0); d != 200*time.Millisecond {
		t.Errorf("jittered wait %s", d)
	}
	if d := c.backoff(1, 30*time.Second); d != time.Second {
		t.Errorf("Retry-After beyond the cap: %s", d)
	}
}

func TestMultipartUpload(t *testing.T) {
	var name, ctype string
	var content []byte
	srv, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		f, h, err := r.FormFile("file")
		if err == nil {
			content, _ = io.ReadAll(f)
			name, ctype = h.Filename, h.Header.Get("Content-Type")
		}
		jsonAnswer(200, `{"status":200,"message":"ok","data":{"token":"t"}}`)(w, r)
	})
	c, _ := newClient(t, srv.URL)
	_, err := c.Do(context.Background(), Call{Op: "commissions/upload-file", Method: "POST", Path: "/up",
		Form: &Multipart{FileField: "file", FileName: "proof.pdf", ContentType: "application/pdf", File: []byte("%PDF-1.4")}})
	if err != nil || name != "proof.pdf" || ctype != "application/pdf" || string(content) != "%PDF-1.4" {
		t.Errorf("upload: %v %q %q %q", err, name, ctype, content)
	}
}

func TestBaseURLIsChecked(t *testing.T) {
	for _, bad := range []string{"", "ftp://x", "not a url", "http://"} {
		if _, err := New(Config{Interface: "shipping", BaseURL: bad}); err == nil {
			t.Errorf("base URL %q accepted", bad)
		}
	}
}

// An interface with its own key header and media type (Shoptet's) gets
// them on every request, and its answers in that type are read.
func TestKeyHeaderAndMediaType(t *testing.T) {
	var got []*http.Request
	var mu sync.Mutex
	srv, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/vnd.shop.v1.0")
		io.WriteString(w, `{"data":{"a":1},"errors":null}`)
	})
	c, logs := newClient(t, srv.URL, func(c *Config) { c.KeyHeader, c.MediaType = "Shop-Token", "application/vnd.shop.v1.0" })
	for _, call := range []Call{read, {Op: "get", Method: http.MethodGet, Path: "/x", Idempotent: true}} {
		if _, err := c.Do(context.Background(), call); err != nil {
			t.Fatalf("%s: %v", call.Op, err)
		}
	}
	for _, r := range got {
		if r.Header.Get("Shop-Token") != "secret-key-123" || r.Header.Get("x-apikey") != "" || r.Header.Get("Content-Type") != "application/vnd.shop.v1.0" {
			t.Errorf("%s %s: headers %v", r.Method, r.URL.Path, r.Header)
		}
	}
	if strings.Contains(logs.String(), "secret-key-123") {
		t.Errorf("the key is in the log: %s", logs)
	}
}

// MaxInFlight bounds the requests at once, however many goroutines call.
func TestMaxInFlightBoundsConcurrentRequests(t *testing.T) {
	var now, most atomic.Int32
	srv, n := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		cur := now.Add(1)
		defer now.Add(-1)
		for m := most.Load(); cur > m && !most.CompareAndSwap(m, cur); m = most.Load() {
		}
		time.Sleep(5 * time.Millisecond)
		jsonAnswer(200, `{"data":{}}`)(w, r)
	})
	c, _ := newClient(t, srv.URL, func(c *Config) { c.MaxInFlight = 3 })
	var wg sync.WaitGroup
	for range 24 {
		wg.Go(func() {
			if _, err := c.Do(context.Background(), read); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if most.Load() > 3 || most.Load() < 2 || n.Load() != 24 {
		t.Errorf("at most %d at once over %d requests; want 3 at most", most.Load(), n.Load())
	}
}

// A Retry-After date is read against the upstream's clock; 423 Locked is
// retried like 429.
func TestRetryAfterDateAndLocked(t *testing.T) {
	clk := clock.Frozen(time.Date(2030, 1, 7, 9, 0, 0, 0, time.UTC))
	var calls atomic.Int32
	srv, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		switch calls.Add(1) {
		case 1:
			w.Header().Set("Retry-After", clk.Now().Add(7*time.Second).Format(http.TimeFormat))
			jsonAnswer(429, `{"data":null,"errors":[{"errorCode":"too-many-requests","message":"full","instance":"access-token"}]}`)(w, r)
		case 2:
			jsonAnswer(423, `{"data":null,"errors":[{"errorCode":"locked","message":"locked","instance":"lock"}]}`)(w, r)
		default:
			jsonAnswer(200, `{"data":{}}`)(w, r)
		}
	})
	var waits []time.Duration
	c, _ := newClient(t, srv.URL, func(c *Config) {
		c.Clock, c.Retry = clk, Retry{Attempts: 4, Base: time.Second, Max: time.Minute}
	})
	c.rand = func() float64 { return 1 }
	c.wait = func(ctx context.Context, d time.Duration) error { waits = append(waits, d); clk.Advance(d); return nil }
	if _, err := c.Do(context.Background(), read); err != nil {
		t.Fatal(err)
	}
	if len(waits) != 2 || waits[0] != 7*time.Second || waits[1] != 2*time.Second {
		t.Errorf("waits %v; want 7s (the Retry-After date) then the back-off's 2s", waits)
	}
	if c.retryAfter("Mon, 07 Jan 2030 08:00:00 GMT") != 0 || c.retryAfter("soon") != 0 {
		t.Error("a date in the past or no date is no wait")
	}
}

// Errors that carry a code (Shoptet's errorCode and instance) keep it for
// the log and the client.
func TestCodedErrorsAreKept(t *testing.T) {
	srv, _ := hostile(t, jsonAnswer(404, `{"data":null,"errors":[{"errorCode":"order-not-found","message":"Order \"7\" not found.","instance":"7"}],"metadata":{"requestId":"r"}}`))
	c, _ := newClient(t, srv.URL)
	_, err := c.Do(context.Background(), read)
	fe := FieldErrors(err)
	if !IsNotFound(err) || len(fe) != 1 || fe[0].Code != "order-not-found" || fe[0].Instance != "7" || fe[0].Message != `Order "7" not found.` {
		t.Fatalf("%v: %+v", err, fe)
	}
	if !strings.Contains(err.Error(), `404 Not Found; order-not-found (7): Order "7" not found.`) {
		t.Errorf("error text %q", err)
	}
}

// A client that reads its answers itself gets a 2xx body as it came, once
// its type is JSON; an error answer's envelope is read here all the same.
func TestOwnAnswers(t *testing.T) {
	var status atomic.Int32
	var ctype atomic.Value
	srv, _ := hostile(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype.Load().(string))
		w.WriteHeader(int(status.Load()))
		io.WriteString(w, `{"data":{"no":"status member"},"errors":[{"errorCode":"x","message":"m","instance":"i"}]}`)
	})
	c, _ := newClient(t, srv.URL, func(c *Config) { c.OwnAnswers = true })
	status.Store(200)
	ctype.Store("application/json; charset=utf-8")
	ans, err := c.Do(context.Background(), read)
	if err != nil || !strings.Contains(string(ans.Body), `"no":"status member"`) {
		t.Fatalf("2xx: %v", err)
	}
	ctype.Store("text/html")
	if _, err := c.Do(context.Background(), read); err == nil || !strings.Contains(err.Error(), "expected JSON") {
		t.Errorf("an HTML 2xx: %v", err)
	}
	status.Store(404)
	ctype.Store("application/json")
	if _, err := c.Do(context.Background(), read); !IsNotFound(err) || FieldErrors(err)[0].Code != "x" {
		t.Errorf("404: %v", err)
	}
}
