package jobs_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/clock"
	"shipdesk/desk"
	"shipdesk/desk/desktest"
	"shipdesk/jobs"
	"shipdesk/sandbox/sandboxtest"
)

// poller is one instance of the pollers with its own desk and its own client
// of the service, whose calls it counts.
type poller struct {
	name    string
	runner  *jobs.Runner
	metrics *transport.Metrics
	stats   jobs.Stats
	err     error
}

func newPoller(tb testing.TB, e *desktest.Env, name string, batch int) *poller {
	tb.Helper()
	m := transport.NewMetrics(clock.Real())
	c, err := shipping.New(transport.Config{BaseURL: e.Sandbox.URL, APIKey: sandboxtest.ShippingKey, Metrics: m,
		Retry: transport.Retry{Attempts: 2, Base: time.Millisecond, Max: 5 * time.Millisecond}})
	if err != nil {
		tb.Fatal(err)
	}
	d := desk.New(e.DB, c, nil, e.Clock, nil)
	r := jobs.New(e.DB, d, nil, jobs.Config{RefreshConfig: desk.RefreshConfig{TrackEvery: 30 * time.Minute}, Batch: batch, Instance: name}, e.Clock, nil)
	return &poller{name: name, runner: r, metrics: m}
}

// calls counts the poller's calls of an operation, whatever their outcome.
func (p *poller) calls(op string) int {
	n := 0
	for _, c := range p.metrics.Counters() {
		if c.Op == op {
			n += int(c.Calls)
		}
	}
	return n
}

// trackAll runs the tracking poller of each instance at once until no
// shipment is due: one interval's work.
func trackAll(ctx context.Context, pollers ...*poller) {
	var wg sync.WaitGroup
	for _, p := range pollers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.stats, p.err = p.runner.Tracking(ctx)
		}()
	}
	wg.Wait()
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
