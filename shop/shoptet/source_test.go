package shoptet_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	api "shipdesk/client/shoptet"
	"shipdesk/client/transport"
	"shipdesk/sandbox/sandboxtest"
	sim "shipdesk/sandbox/shoptet"
	"shipdesk/shop"
	"shipdesk/shop/shoptet"
)

// world is the sandbox's Shoptet shop and a Source of it, whose waits move
// the test's clock (the shop's limits run on it).
type world struct {
	env     *sandboxtest.Env
	sim     *sim.Service
	src     *shoptet.Source
	metrics *transport.Metrics
	logs    *bytes.Buffer
}

type options struct {
	token string
	http  *http.Client
}

func start(t testing.TB, o options) *world {
	t.Helper()
	env := sandboxtest.StartCounting(t)
	w := &world{env: env, sim: env.Sandbox.Shoptet, metrics: transport.NewMetrics(env.Clock), logs: &bytes.Buffer{}}
	st := w.sim.Settings()
	st.Arrivals = false // no order arrives while a test moves the clock
	w.sim.SetSettings(st)
	w.src = w.source(t, o)
	return w
}

func (w *world) source(t testing.TB, o options) *shoptet.Source {
	t.Helper()
	cfg := apiConfig(w)
	if o.token != "" {
		cfg.APIKey = o.token
	}
	cfg.HTTP = o.http
	c, err := api.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return shoptet.New(c)
}

// apiConfig is a client of the shop with the full token, counted and
// logged by the world, whose waits move the test's clock.
func apiConfig(w *world) transport.Config {
	return transport.Config{BaseURL: w.env.Shoptet, APIKey: sim.Token, Clock: w.env.Clock,
		Metrics: w.metrics, Log: slog.New(slog.NewTextHandler(w.logs, nil)),
		Wait: func(ctx context.Context, d time.Duration) error { w.env.Clock.Advance(d); return ctx.Err() }}
}

// limitless lifts the shop's bucket, so a large sync meets only the limit
// of connections.
func (w *world) limitless() {
	st := w.sim.Settings()
	st.Bucket, st.LeakPerSecond = 100000, 100000
	w.sim.SetSettings(st)
}

// calls counts the attempts of an operation with an outcome.
func (w *world) calls(op, outcome string) int64 {
	var n int64
	for _, c := range w.metrics.Counters() {
		if c.Op == op && (outcome == "" || c.Outcome == outcome) {
			n += c.Calls
		}
	}
	return n
}

// addOrders puts n plain orders into the shop, a second apart.
func (w *world) addOrders(t testing.TB, n int) []string {
	t.Helper()
	codes := make([]string, n)
	for i := range codes {
		code, err := w.sim.AddOrder(plainOrder())
		if err != nil {
			t.Fatal(err)
		}
		codes[i] = code
		w.env.Clock.Advance(time.Second)
	}
	return codes
}

func plainOrder() sim.Order {
	paid := false
	return sim.Order{Email: "jana@example.cz", Phone: "+420601000002", Shipping: sim.ShippingMethods[2].GUID, Payment: sim.PaymentMethods[0].GUID, Paid: &paid,
		Billing: sim.Address{FullName: "Jana Nováková", Street: "Vinohradská", HouseNumber: "12", City: "Praha 2", Zip: "120 00", Country: "CZ"},
		Items:   []sim.Item{{Type: "product", Code: "KV-17", Name: "Konvice", Amount: "1.000", Weight: "1.150", Price: "899.00", VatRate: "21.00"}}}
}

// A thousand changed orders are pulled with no more calls than the pages
// need, and read with at most three requests at once however many
// goroutines ask: the shop refuses a fourth connection with 429, and none
// came.
func TestThousandOrdersThreeAtOnce(t *testing.T) {
	w := start(t, options{})
	w.env.Clock.Advance(time.Minute)
	from := w.env.Clock.Now()
	codes := w.addOrders(t, 1000)
	w.limitless()
	st := w.sim.Settings()
	st.LatencyMS = 2 // each answer holds its connection a while, so requests overlap
	w.sim.SetSettings(st)
	ctx := context.Background()

	changes, err := w.src.Changes(ctx, from)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1000 || changes[0].Code != codes[0] || changes[999].Code != codes[999] || changes[0].Event != "update" {
		t.Fatalf("%d changes, first %+v", len(changes), changes[0])
	}
	if n := w.env.Requests("/shoptet/api/orders/changes"); n != 1000/api.PerPage {
		t.Errorf("%d calls for the changes; the pages are %d", n, 1000/api.PerPage)
	}

	var most atomic.Int32
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() { // the shop's own count of the token's connections
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			default:
				if n := int32(w.sim.InFlight(sim.Token)); n > most.Load() {
					most.Store(n)
				}
				time.Sleep(100 * time.Microsecond)
			}
		}
	}()
	next := make(chan string)
	var wg sync.WaitGroup
	var read atomic.Int32
	for range 10 {
		wg.Go(func() {
			for code := range next {
				if o, err := w.src.Order(ctx, code); err != nil || o.Code != code {
					t.Errorf("order %s: %v", code, err)
				}
				read.Add(1)
			}
		})
	}
	for _, c := range changes {
		next <- c.Code
	}
	close(next)
	wg.Wait()
	close(stop)
	<-sampled
	if read.Load() != 1000 || w.calls("orders/detail", "") != 1000 || w.calls("orders/detail", "200") != 1000 {
		t.Errorf("%d read in %d calls (%d answered 200); counters %+v", read.Load(), w.calls("orders/detail", ""), w.calls("orders/detail", "200"), w.metrics.Counters())
	}
	if most.Load() > api.MaxConnections || most.Load() < 2 {
		t.Errorf("the shop saw %d connections of the token at once; want 2 or 3", most.Load())
	}
}

// An order changed again while the pages of the changes are read moves to
// the end, and the first order of the next page slips onto a page already
// read; the walk sees the moved order twice and reads again from where it
// first was, so the slipped order is not lost.
func TestChangesSurviveAnOrderMovingDuringTheWalk(t *testing.T) {
	var w *world
	var once sync.Once
	var codes []string
	hook := &http.Client{Transport: afterFirstPage(func() {
		once.Do(func() {
			w.env.Clock.Advance(time.Second)
			if err := w.sim.UpdateOrder(codes[10], func(o *sim.Order) { o.EshopRemark = "moved" }); err != nil {
				t.Error(err)
			}
		})
	})}
	w = start(t, options{})
	w.env.Clock.Advance(time.Minute)
	from := w.env.Clock.Now()
	codes = w.addOrders(t, 120)
	w.limitless()
	src := w.source(t, options{http: hook})
	changes, err := src.Changes(context.Background(), from)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]shop.Change{}
	for _, c := range changes {
		got[c.Code] = c
	}
	if len(changes) != 120 || len(got) != 120 {
		t.Fatalf("%d changes of %d orders; want 120", len(changes), len(got))
	}
	if _, ok := got[codes[50]]; !ok {
		t.Errorf("the order that slipped onto page 1 (%s) is lost", codes[50])
	}
	if moved := got[codes[10]]; !moved.Changed.After(got[codes[119]].Changed) || changes[119].Code != codes[10] {
		t.Errorf("the moved order %+v is not the last change", moved)
	}
	if n := w.env.Requests("/shoptet/api/orders/changes"); n != 3+3 {
		t.Errorf("%d calls: want the three pages, then the three again from page 1", n)
	}
	for i := 1; i < len(changes); i++ {
		if changes[i].Changed.Before(changes[i-1].Changed) {
			t.Fatalf("changes out of order at %d", i)
		}
	}
}

// afterFirstPage is the real transport, with then run once the first page
// of the changes has been answered.
type afterFirstPage func()

func (then afterFirstPage) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && strings.HasSuffix(r.URL.Path, "/api/orders/changes") && r.URL.Query().Get("page") == "1" {
		then()
	}
	return resp, err
}
