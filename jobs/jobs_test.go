package jobs_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/desk"
	"shipdesk/desk/desktest"
	"shipdesk/jobs"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage"
)

type env struct {
	*desktest.Env
	t       *testing.T
	sb      *sandboxtest.Env
	db      *storage.DB
	ship    *shipping.Client
	metrics *transport.Metrics
}

func start(t *testing.T) *env {
	t.Helper()
	d := desktest.Start(t)
	return &env{Env: d, t: t, sb: d.Sandbox, db: d.DB, ship: d.Ship, metrics: d.Metrics}
}

// runner is a poller of a shipping desk on the shared database whose clock the
// test moves.
func (e *env) runner(name string, batch int) *jobs.Runner {
	d := desk.New(e.db, e.ship, nil, e.Clock, nil)
	r := jobs.New(e.db, d, nil, jobs.Config{RefreshConfig: desk.RefreshConfig{LabelEvery: 3 * time.Minute, TrackEvery: 30 * time.Minute}, Batch: batch, Instance: name}, e.Clock, nil)
	return r
}

// order creates n shipments at the service and records them as shipdesk does.
func (e *env) order(n int) []storage.Shipment {
	return e.Order(n)
}

func (e *env) calls(op string) int64 { return e.Calls(op) }

func (e *env) shipment(id int64) storage.Shipment { return e.Shipment(id) }

func (e *env) upstreamEvents(number string) int {
	e.t.Helper()
	tr, err := e.ship.Tracking(context.Background(), []string{number})
	if err != nil {
		e.t.Fatal(err)
	}
	n := 0
	for _, p := range tr[number].Packages {
		n += len(p)
	}
	return n
}

func TestPollersFollowAShipmentToDelivery(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	s := e.order(1)[0]
	r := e.runner("one", 100)
	// Not exported yet: the label stays pending and is asked again later.
	if st, err := r.Labels(ctx); err != nil || st.Shipments != 1 {
		t.Fatalf("first label check: %+v %v", st, err)
	}
	if got := e.shipment(s.ID); got.LabelStatus != "PENDING" {
		t.Fatalf("label %s", got.LabelStatus)
	}
	if st, _ := r.Labels(ctx); st.Shipments != 0 {
		t.Errorf("checked again before it was due: %+v", st)
	}
	// The carrier takes it over; the next check finds the label.
	e.sb.Advance(20 * time.Minute)
	e.Clock.Advance(3 * time.Minute)
	if st, err := r.Labels(ctx); err != nil || st.Shipments != 1 {
		t.Fatalf("second label check: %+v %v", st, err)
	}
	if got := e.shipment(s.ID); got.LabelStatus != "READY" {
		t.Fatalf("after export the label is %s", got.LabelStatus)
	}
	// The clerk prints it: the courier takes only labelled parcels.
	if _, err := e.ship.Label(ctx, []string{s.Tracking()}); err != nil {
		t.Fatal(err)
	}
	e.Clock.Advance(3 * time.Minute)
	if st, _ := r.Labels(ctx); st.Shipments != 0 {
		t.Errorf("a ready label is still polled: %+v", st)
	}
	// Tracking follows it; events are stored once however often they are read.
	for step := 0; step < 30 && e.shipment(s.ID).Status != "DELIVERED"; step++ {
		if _, err := r.Tracking(ctx); err != nil {
			t.Fatal(err)
		}
		events, err := e.db.Events(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := e.upstreamEvents(s.Tracking()); len(events) != want {
			t.Fatalf("step %d: %d events stored, the service has %d", step, len(events), want)
		}
		e.sb.Advance(30 * time.Minute)
		e.Clock.Advance(30 * time.Minute)
	}
	got := e.shipment(s.ID)
	if got.Status != "DELIVERED" || got.DeliveredAt == nil {
		t.Fatalf("never delivered: %s", got.Status)
	}
	for _, p := range got.Packages {
		if p.Status != "DELIVERED" {
			t.Errorf("package %s is %s", p.Number, p.Status)
		}
	}
	e.Clock.Advance(24 * time.Hour)
	if st, _ := r.Tracking(ctx); st.Shipments != 0 {
		t.Errorf("a delivered shipment is still tracked: %+v", st)
	}
}

func TestTrackingCallsAreBatched(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	e.order(7)
	e.sb.Advance(20 * time.Minute)
	r := e.runner("one", 3)
	before := e.calls("shipments/tracking")
	st, err := r.Tracking(ctx)
	if err != nil || st.Shipments != 7 {
		t.Fatalf("%+v %v", st, err)
	}
	if got := e.calls("shipments/tracking") - before; got != 3 { // ceil(7 / 3)
		t.Errorf("%d tracking calls for 7 shipments in batches of 3, want 3", got)
	}
}

func TestTwoPollersNeverTakeTheSameShipment(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	e.order(12)
	e.sb.Advance(20 * time.Minute)
	a, b := e.runner("a", 2), e.runner("b", 2)
	var wg sync.WaitGroup
	var sa, sb jobs.Stats
	var ea, eb error
	wg.Add(2)
	go func() { defer wg.Done(); sa, ea = a.Tracking(ctx) }()
	go func() { defer wg.Done(); sb, eb = b.Tracking(ctx) }()
	wg.Wait()
	if ea != nil || eb != nil {
		t.Fatal(ea, eb)
	}
	seen := map[int64]string{}
	for _, c := range []struct {
		name string
		st   jobs.Stats
	}{{"a", sa}, {"b", sb}} {
		t.Run("poller "+c.name, func(t *testing.T) {
			for _, id := range c.st.Handled {
				if other, dup := seen[id]; dup {
					t.Errorf("shipment %d fetched by %s and %s", id, other, c.name)
				}
				seen[id] = c.name
			}
		})
	}
	if len(seen) != 12 {
		t.Errorf("%d of 12 shipments fetched", len(seen))
	}
}

func TestFailureBurstBacksOffAndLosesNothing(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	list := e.order(3)
	e.sb.Advance(90 * time.Minute)
	r := e.runner("one", 100)
	// Every call fails twice in a row (the client's two attempts): one cycle fails.
	e.sb.Fault("/api/v1/shipments/tracking", map[string]any{"error_rate": 1, "count": 4})
	st, err := r.Tracking(ctx)
	if err != nil || st.Failed != 3 {
		t.Fatalf("first cycle: %+v %v", st, err)
	}
	if got := e.shipment(list[0].ID); got.PollFailures != 1 {
		t.Errorf("failures %d", got.PollFailures)
	}
	// Backed off: not due again at the normal cadence plus a little.
	e.Clock.Advance(time.Minute)
	if st, _ := r.Tracking(ctx); st.Shipments != 0 {
		t.Errorf("retried at once: %+v", st)
	}
	e.Clock.Advance(30 * time.Minute)
	if st, _ := r.Tracking(ctx); st.Failed != 3 {
		t.Errorf("second failing cycle: %+v", st)
	}
	if got := e.shipment(list[0].ID); got.PollFailures != 2 {
		t.Errorf("failures %d", got.PollFailures)
	}
	e.Clock.Advance(30 * time.Minute) // the wait doubled: not yet
	if st, _ := r.Tracking(ctx); st.Shipments != 0 {
		t.Errorf("the wait did not double: %+v", st)
	}
	e.Clock.Advance(31 * time.Minute)
	if st, err := r.Tracking(ctx); err != nil || st.Failed != 0 || st.Shipments != 3 {
		t.Fatalf("recovery: %+v %v", st, err)
	}
	for _, s := range list {
		events, _ := e.db.Events(ctx, s.ID)
		if want := e.upstreamEvents(s.Tracking()); len(events) != want || want == 0 {
			t.Errorf("shipment %d: %d events stored, the service has %d", s.ID, len(events), want)
		}
		if got := e.shipment(s.ID); got.PollFailures != 0 {
			t.Errorf("failures not reset: %d", got.PollFailures)
		}
	}
}

// A label check may be the first to see DELIVERED; the events still come.
func TestDeliveredSeenByLabelCheckStillGetsItsEvents(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	s := e.order(1)[0]
	e.sb.Advance(2 * time.Minute)
	// Printed on time: the courier takes only labelled parcels.
	if _, err := e.ship.Label(ctx, []string{s.Tracking()}); err != nil {
		t.Fatal(err)
	}
	e.sb.Advance(5 * 24 * time.Hour)
	r := e.runner("one", 100)
	if _, err := r.Labels(ctx); err != nil {
		t.Fatal(err)
	}
	if got := e.shipment(s.ID); got.Status != "DELIVERED" {
		t.Fatalf("status after the label check: %s", got.Status)
	}
	if st, err := r.Tracking(ctx); err != nil || st.Shipments != 1 {
		t.Fatalf("tracking: %+v %v", st, err)
	}
	events, _ := e.db.Events(ctx, s.ID)
	if want := e.upstreamEvents(s.Tracking()); len(events) != want || want == 0 {
		t.Errorf("%d events stored, the service has %d", len(events), want)
	}
	e.Clock.Advance(48 * time.Hour)
	if st, _ := r.Tracking(ctx); st.Shipments != 0 {
		t.Errorf("tracked after the final state: %+v", st)
	}
}

// A shipment the carrier has not scanned yet has no events: nothing breaks.
func TestTrackingWithoutEventsYet(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	s := e.order(1)[0]
	if n := e.upstreamEvents(s.Tracking()); n != 0 {
		t.Fatalf("precondition: a fresh shipment has %d events at the sandbox", n)
	}
	st, err := e.runner("one", 100).Tracking(ctx)
	if err != nil || st.Shipments != 1 || st.Failed != 0 {
		t.Fatalf("%+v %v", st, err)
	}
	if got := e.shipment(s.ID); got.LastCheckedAt == nil || got.PollFailures != 0 {
		t.Errorf("not recorded: %+v", got)
	}
}

// Two instances share an interval's tracking: every shipment is fetched once,
// by one of them, and recorded as the service reports it. Leases are taken one
// after the other, so every call but the very last carries a full batch: the
// two make ⌈N / batch⌉ calls between them, each ⌈its share / batch⌉.
func TestTwoPollersTrackInFullBatches(t *testing.T) {
	e := desktest.Start(t)
	ctx := context.Background()
	const batch = 100
	// Some arrive during the interval, the others move on.
	ids := e.OrderMany(600)
	e.Sandbox.Advance(70 * time.Minute)
	ids = append(ids, e.OrderMany(450)...)
	e.Sandbox.Advance(20 * time.Minute)
	n := len(ids)
	a, b := newPoller(t, e, "a", batch), newPoller(t, e, "b", batch)
	trackAll(ctx, a, b)
	seen := map[int64]string{}
	total := 0
	for _, p := range []*poller{a, b} {
		if p.err != nil || p.stats.Failed != 0 {
			t.Fatalf("%s: %+v %v", p.name, p.stats, p.err)
		}
		for _, id := range p.stats.Handled {
			if other, dup := seen[id]; dup {
				t.Errorf("shipment %d fetched by %s and %s", id, other, p.name)
			}
			seen[id] = p.name
		}
		calls := p.calls("shipments/tracking")
		if want := ceilDiv(len(p.stats.Handled), batch); calls != want || p.stats.Calls != calls {
			t.Errorf("%s: %d tracking calls (%d counted by the runner) for %d shipments in batches of %d, want %d",
				p.name, calls, p.stats.Calls, len(p.stats.Handled), batch, want)
		}
		total += calls
		t.Logf("%s: %d shipments, %d calls", p.name, len(p.stats.Handled), calls)
	}
	if total != ceilDiv(n, batch) {
		t.Errorf("%d tracking calls for %d shipments in batches of %d, want %d", total, n, batch, ceilDiv(n, batch))
	}
	// Each shipment holds what the service says of it, recorded in batches.
	delivered := 0
	for lo := 0; lo < n; lo += batch {
		var numbers []string
		byNumber := map[string]storage.Shipment{}
		for _, id := range ids[lo:min(lo+batch, n)] {
			if seen[id] == "" {
				t.Errorf("shipment %d never fetched", id)
			}
			s := e.Shipment(id)
			numbers = append(numbers, s.Tracking())
			byNumber[s.Tracking()] = s
		}
		tracks, err := e.Ship.Tracking(ctx, numbers)
		if err != nil {
			t.Fatal(err)
		}
		for number, s := range byNumber {
			tr := tracks[number]
			events, err := e.DB.Events(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for i, list := range tr.Packages {
				want += len(list)
				if len(list) > 0 && (i >= len(s.Packages) || s.Packages[i].Status != list[0].Status) {
					t.Errorf("%s package %d: stored %+v, the service says %s", number, i, s.Packages, list[0].Status)
				}
			}
			if s.Status != tr.Status || s.Returned != tr.Returned || len(events) != want || want == 0 {
				t.Errorf("%s: stored %s (returned %v) with %d events; the service says %s (returned %v) with %d",
					number, s.Status, s.Returned, len(events), tr.Status, tr.Returned, want)
			}
			if s.Status == "DELIVERED" {
				delivered++
				if s.DeliveredAt == nil {
					t.Errorf("%s delivered without a delivery time", number)
				}
			}
		}
	}
	if delivered != 600 {
		t.Errorf("%d delivered, want the 600 ordered first", delivered)
	}
	// The arrived ones are done; the others are due again after the interval.
	e.Clock.Advance(31 * time.Minute)
	if st, err := a.runner.Tracking(ctx); err != nil || st.Shipments != 450 {
		t.Errorf("the next interval: %+v %v, want the 450 still moving", st, err)
	}
}
