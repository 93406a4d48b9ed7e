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

	"shipdesk/clock"
	"shipdesk/sandbox"
)

// Keys of the default sandbox accounts.
const (
	ShippingKey = "sandbox-key-1"
	OtherKey    = "sandbox-key-2"
	ReturnsKey  = "sandbox-returns-key"
	// ShoptetToken is the simulated shop's private API token.
	ShoptetToken = "sandbox-shoptet-token"
)

// ExpressCarrier is the sandbox's express carrier (the spec's G3, which
// prints its labels for a one-off pickup): the carrier test helpers outside
// the sandbox order with, since the dashboard's own code names none.
const ExpressCarrier = "UPS"

// Epoch is where a test's clock starts: a Monday morning, 09:00 UTC. It is
// SHIPDESK_TEST_EPOCH when set (RFC 3339, a Monday at 09:00 UTC), so the
// suite can run with its clock before and after today's date: `make test`
// runs the dashboard's tests both ways. No test may depend on the day it
// runs.
var Epoch = epochOf(os.Getenv("SHIPDESK_TEST_EPOCH"))

// Day is the date n days after the test clock's first day (a Monday), as the
// interfaces write dates: what a test names instead of a calendar date.
func Day(n int) string { return Epoch.AddDate(0, 0, n).Format(time.DateOnly) }

// DefaultEpoch is the epoch when SHIPDESK_TEST_EPOCH is not set.
var DefaultEpoch = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

// epochOf reads an epoch; anything else than a Monday at 09:00 UTC stops the
// tests at once, since the sandbox's working days and hours start there.
func epochOf(s string) time.Time {
	if s == "" {
		return DefaultEpoch
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil || t.UTC().Weekday() != time.Monday || t.UTC().Hour() != 9 || t.UTC().Minute() != 0 {
		panic(fmt.Sprintf("SHIPDESK_TEST_EPOCH=%q: want a Monday at 09:00 UTC in RFC 3339, e.g. 2031-03-03T09:00:00Z", s))
	}
	return t.UTC()
}

// Env is a running sandbox.
type Env struct {
	T       testing.TB
	Sandbox *sandbox.Sandbox
	URL     string // base of the shipping and cart APIs and of /sandbox/
	Returns string // base of the returns API
	Shoptet string // base URI of the simulated shop's Shoptet API (its paths: /api/eshop, …)
	// Clock is the test's one clock: it starts at Epoch and runs at real
	// speed; the sandbox's clock control moves it, and a dashboard started on
	// this sandbox (apptest) reads it too.
	Clock *clock.Clock

	mu       sync.Mutex
	requests map[string]int64 // by path, when started by StartCounting
}

// Start runs a sandbox on a clock from Epoch until the test ends. Its answer
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
	clk := clock.From(Epoch)
	sb, err := sandbox.New(sandbox.Options{Clock: clk, Shapes: shapes})
	if err != nil {
		t.Fatal(err)
	}
	url, err := sb.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	return &Env{T: t, Sandbox: sb, URL: url, Returns: url + "/returns", Shoptet: url + "/shoptet", Clock: clk}
}

// StartThrough runs a sandbox like StartShapes whose requests pass through
// wrap first (a benchmark records the calls it is asked, to make them again).
func StartThrough(t testing.TB, shapes string, wrap func(http.Handler) http.Handler) *Env {
	t.Helper()
	clk := clock.From(Epoch)
	sb, err := sandbox.New(sandbox.Options{Clock: clk, Shapes: shapes})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(wrap(sb.Handler()))
	t.Cleanup(func() {
		srv.Close()
		sb.Close()
	})
	return &Env{T: t, Sandbox: sb, URL: srv.URL, Returns: srv.URL + "/returns", Shoptet: srv.URL + "/shoptet", Clock: clk}
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

// Hold keeps the service's answers on paths starting with path until
// Release: a test looks at a busy page for as long as it needs.
func (e *Env) Hold(path string) {
	e.Fault(path, map[string]any{"hold": true})
}

// Release clears every fault; the held answers go.
func (e *Env) Release() {
	e.Control("DELETE", "/sandbox/faults", nil)
}

// Pay pays an ONLINE order.
func (e *Env) Pay(orderID int64) {
	e.Control("POST", fmt.Sprintf("/sandbox/orders/%d/pay", orderID), nil)
}

// LabelsFetched counts the labels of the shop's shipments as fetched now, as
// a print would (shipments/label), without drawing them: the sandbox's
// courier takes a printed-label parcel past ONPICKUP only then.
func (e *Env) LabelsFetched(numbers ...string) {
	e.T.Helper()
	if err := e.Sandbox.Shipping.LabelsFetched(ShippingKey, numbers); err != nil {
		e.T.Fatal(err)
	}
}
