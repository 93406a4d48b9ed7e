// Package sandboxtest runs a sandbox on a loopback port for tests of the parts
// that talk to the service: they reach it over real HTTP, as they would the
// real service.
package sandboxtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"shipdesk/sandbox"
	"shipdesk/sandbox/simclock"
)

// Keys of the default sandbox accounts.
const (
	ShippingKey = "sandbox-key-1"
	OtherKey    = "sandbox-key-2"
	ReturnsKey  = "sandbox-returns-key"
)

// Epoch is where a test sandbox's clock stands: a Monday morning.
var Epoch = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// Env is a running sandbox.
type Env struct {
	T       testing.TB
	Sandbox *sandbox.Sandbox
	URL     string // base of the shipping and cart APIs and of /sandbox/
	Returns string // base of the returns API

	mu       sync.Mutex
	requests map[string]int64 // by path, when started by StartCounting
}

// Start runs a sandbox with a frozen clock until the test ends. Its answer
// shapes follow SANDBOX_SHAPES (documented when unset), so `make test` can run
// the same suites against the leanest answers the real service may give.
func Start(t testing.TB) *Env {
	t.Helper()
	return StartShapes(t, os.Getenv("SANDBOX_SHAPES"))
}

// StartShapes runs a sandbox that answers in the given shapes ("minimal" or
// "documented").
func StartShapes(t testing.TB, shapes string) *Env {
	t.Helper()
	sb, err := sandbox.New(sandbox.Options{Clock: simclock.Frozen(Epoch), Shapes: shapes})
	if err != nil {
		t.Fatal(err)
	}
	url, err := sb.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return &Env{T: t, Sandbox: sb, URL: url, Returns: url + "/returns"}
}

// StartThrough runs a sandbox like StartShapes whose requests pass through
// wrap first (a benchmark records the calls it is asked, to make them again).
func StartThrough(t testing.TB, shapes string, wrap func(http.Handler) http.Handler) *Env {
	t.Helper()
	sb, err := sandbox.New(sandbox.Options{Clock: simclock.Frozen(Epoch), Shapes: shapes})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(wrap(sb.Handler()))
	t.Cleanup(func() {
		srv.Close()
		sb.Close()
	})
	return &Env{T: t, Sandbox: sb, URL: srv.URL, Returns: srv.URL + "/returns"}
}

// StartCounting runs a sandbox like Start that also counts the requests it
// receives on each path, whoever sends them (processes under test too).
func StartCounting(t testing.TB) *Env {
	t.Helper()
	requests := map[string]int64{}
	var e *Env
	e = StartThrough(t, os.Getenv("SANDBOX_SHAPES"), func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			e.mu.Lock()
			e.requests[r.URL.Path]++
			e.mu.Unlock()
			h.ServeHTTP(w, r)
		})
	})
	e.requests = requests
	return e
}

// Requests is the number of requests received on path so far (StartCounting).
func (e *Env) Requests(path string) int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.requests[path]
}

// AllRequests is the number of requests received on every path so far
// (StartCounting), the sandbox's controls left out.
func (e *Env) AllRequests() int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	var n int64
	for p, k := range e.requests {
		if !strings.HasPrefix(p, "/sandbox/") {
			n += k
		}
	}
	return n
}

// Control calls a /sandbox/ control and fails the test unless it succeeds.
func (e *Env) Control(method, path string, body any) {
	e.T.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, e.URL+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.T.Fatalf("sandbox control %s %s: %v", method, path, err)
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		e.T.Fatalf("sandbox control %s %s: %d", method, path, resp.StatusCode)
	}
}

// Advance moves the sandbox clock.
func (e *Env) Advance(d time.Duration) {
	e.Control("POST", "/sandbox/clock/advance", map[string]any{"minutes": int(d / time.Minute)})
}

// Fault injects a fault for the next count requests on path.
func (e *Env) Fault(path string, f map[string]any) {
	f["path"] = path
	e.Control("POST", "/sandbox/faults", f)
}

// Pay pays an ONLINE order.
func (e *Env) Pay(orderID int64) {
	e.Control("POST", fmt.Sprintf("/sandbox/orders/%d/pay", orderID), nil)
}
