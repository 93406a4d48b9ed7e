package web_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/clock"
	"shipdesk/sandbox/sandboxtest"
)

// rowCalls are the calls of one row: its offers, its order.
type rowCalls struct {
	ref            string
	rates, ordered []upstreamCall
}

// callPlan is a batch's upstream calls by phase: per row its offers (asked
// at the same time) and its order (checked, then created), then the label
// checks and the label fetches, one after another as the batch makes them.
type callPlan struct {
	rows           []*rowCalls
	details, label []upstreamCall
	n              int
}

// planOf sorts recorded calls into a plan; old names a batch shipment's
// tracking number and order token by its reference.
func planOf(b *testing.B, calls []upstreamCall) callPlan {
	b.Helper()
	var p callPlan
	byRef := map[string]*rowCalls{}
	row := func(ref string) *rowCalls {
		if byRef[ref] == nil {
			byRef[ref] = &rowCalls{ref: ref}
			p.rows = append(p.rows, byRef[ref])
		}
		return byRef[ref]
	}
	for _, c := range calls {
		switch c.Op {
		case "rates/get":
			var req shipping.RateRequest
			if err := json.Unmarshal(c.Body, &req); err != nil || req.Reference == "" {
				b.Fatalf("rates/get without a reference: %v %s", err, c.Body)
			}
			r := row(req.Reference)
			r.rates = append(r.rates, c)
		case "shipments/validate", "shipments/create":
			var o shipping.Order
			if err := json.Unmarshal(c.Body, &o); err != nil || len(o.Shipments) != 1 {
				b.Fatalf("%s: %v %s", c.Op, err, c.Body)
			}
			r := row(o.Shipments[0].Reference)
			r.ordered = append(r.ordered, c)
		case "shipments/detail":
			p.details = append(p.details, c)
		case "shipments/label":
			p.label = append(p.label, c)
		default:
			b.Fatalf("the batch made a call the plan does not know: %s", c.Op)
		}
	}
	p.n = len(calls)
	return p
}

// replayer makes a plan's calls again through the shipping client against a
// sandbox of its own.
type replayer struct {
	b        *testing.B
	sb       *sandboxtest.Env
	client   *shipping.Client
	metrics  *transport.Metrics
	old      map[string]string // the batch's tracking numbers and order tokens → reference
	mu       sync.Mutex
	tracking map[string]string // reference → tracking number here
	token    map[string]string // reference → order token here
}

func newReplayer(b *testing.B, old map[string]string) *replayer {
	b.Helper()
	sb := sandboxtest.StartShapes(b, "") // the documented answers, as the batch's sandbox
	m := transport.NewMetrics(clock.Real())
	c, err := shipping.New(transport.Config{BaseURL: sb.URL, APIKey: sandboxtest.ShippingKey, Timeout: 10 * time.Second, Metrics: m})
	if err != nil {
		b.Fatal(err)
	}
	return &replayer{b: b, sb: sb, client: c, metrics: m, old: old, tracking: map[string]string{}, token: map[string]string{}}
}

// calls counts the calls made.
func (r *replayer) calls() int {
	n := 0
	for _, c := range r.metrics.Counters() {
		n += int(c.Calls)
	}
	return n
}

// each runs do for 0…n-1, at most workers at a time.
func each(n, workers int, do func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				do(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// run makes the plan's calls: rows workers at a time (each row's offers
// asked at the same time, as the desk asks them, or one after another when
// workers is 1), the label checks one after another, and the labels as a
// print asks for them: the first alone, then labelWorkers at a time.
func (r *replayer) run(p callPlan, workers, labelWorkers int) (total time.Duration, phases [4]time.Duration) {
	ctx := context.Background()
	start := time.Now()
	r.price(p, workers)
	phases[0] = time.Since(start)
	r.order(p, workers)
	phases[1] = time.Since(start)
	r.sb.Advance(10 * time.Minute)
	for _, c := range p.details {
		req := r.detailRequest(c.Body)
		_, err := r.client.Detail(ctx, req, strings.Contains(c.Query, "tracking=1"))
		r.fail(c.Op, err)
	}
	phases[2] = time.Since(start)
	label := func(i int) {
		_, err := r.client.Label(ctx, r.detailRequest(p.label[i].Body).Shipments)
		r.fail(p.label[i].Op, err)
	}
	if len(p.label) > 0 {
		label(0) // a print asks for its first label alone
		each(len(p.label)-1, labelWorkers, func(i int) { label(i + 1) })
	}
	phases[3] = time.Since(start)
	return phases[3], phases
}

func (r *replayer) fail(op string, err error) {
	if err != nil {
		r.b.Errorf("replay %s: %v", op, err)
	}
}

// price asks for each row's offers, rows workers at a time (each row's
// offers at the same time, as the desk asks them, or one after another when
// workers is 1), and says how long it took.
func (r *replayer) price(p callPlan, workers int) time.Duration {
	ctx := context.Background()
	start := time.Now()
	each(len(p.rows), workers, func(i int) {
		rates := p.rows[i].rates
		ask := func(j int) {
			var req shipping.RateRequest
			_ = json.Unmarshal(rates[j].Body, &req)
			_, err := r.client.Rates(ctx, req)
			r.fail("rates/get", err)
		}
		if workers == 1 {
			for j := range rates {
				ask(j)
			}
			return
		}
		each(len(rates), len(rates), ask)
	})
	return time.Since(start)
}

// order checks and creates each row's order, rows workers at a time, and
// says how long it took.
func (r *replayer) order(p callPlan, workers int) time.Duration {
	ctx := context.Background()
	start := time.Now()
	each(len(p.rows), workers, func(i int) {
		for _, c := range p.rows[i].ordered {
			var o shipping.Order
			_ = json.Unmarshal(c.Body, &o)
			if c.Op == "shipments/validate" {
				r.fail(c.Op, r.client.Validate(ctx, o))
				continue
			}
			created, err := r.client.Create(ctx, o)
			r.fail(c.Op, err)
			if err == nil {
				r.mu.Lock()
				r.tracking[p.rows[i].ref], r.token[p.rows[i].ref] = created.Shipments[0].TrackingNumber, created.OrderToken
				r.mu.Unlock()
			}
		}
	})
	return time.Since(start)
}

// detailRequest is a recorded request naming the batch's shipments, with
// this sandbox's numbers and tokens of the same orders.
func (r *replayer) detailRequest(body []byte) shipping.DetailRequest {
	var req shipping.DetailRequest
	if err := json.Unmarshal(body, &req); err != nil {
		r.b.Fatalf("detail or label request: %v", err)
	}
	for i, n := range req.Shipments {
		req.Shipments[i] = r.tracking[r.old[n]]
	}
	for i, t := range req.Tokens {
		req.Tokens[i] = r.token[r.old[t]]
	}
	return req
}

// batchNames maps the batch's tracking numbers and order tokens to their
// references.
func batchNames(b *testing.B, env *apptest.Env, id int64) map[string]string {
	b.Helper()
	ctx := context.Background()
	ids, err := env.App.DB.BatchShipmentIDs(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	list, err := env.App.DB.ShipmentsByID(ctx, ids)
	if err != nil {
		b.Fatal(err)
	}
	out := map[string]string{}
	for _, s := range list {
		out[s.Tracking()] = s.Reference
		if s.OrderToken != nil {
			out[*s.OrderToken] = s.Reference
		}
	}
	return out
}
