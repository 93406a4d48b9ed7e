package web_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/client/returns"
	"shipdesk/client/shipping"
	"shipdesk/storage"
)

// A slow service, reproducibly: every upstream call may take at most
// callLimit, and an order may still appear settle after that. The sandbox's
// latency fault makes shipments/create take longer than callLimit; the
// sandbox keeps working after shipdesk stops waiting, as a slow service does.
const (
	callLimit = time.Second
	settle    = time.Second
	slow      = 1600 * time.Millisecond // longer than callLimit
)

func slowEnv(t *testing.T) (*apptest.Env, *apptest.Browser) {
	t.Helper()
	return impatientDesk(t, apptest.Options{UpstreamTimeout: callLimit, Settle: settle})
}

func shipmentAt(t *testing.T, env *apptest.Env, loc string) storage.Shipment {
	t.Helper()
	id := idOf(loc)
	s, err := env.App.DB.ShipmentByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// waitSettled waits until every create attempt of the shipment has passed its
// deadline, the earliest moment "not created" may be concluded.
func waitSettled(t *testing.T, env *apptest.Env, loc string) {
	t.Helper()
	s := shipmentAt(t, env, loc)
	if s.SettlesAt == nil {
		t.Fatalf("shipment %d has no settle time", s.ID)
	}
	time.Sleep(env.App.Upstream.Clock().Until(*s.SettlesAt) + 50*time.Millisecond) // on the dashboard's clock
}

// atService is how many orders the service holds under a reference.
func atService(t *testing.T, env *apptest.Env, reference string) []shipping.ShipmentInfo {
	t.Helper()
	held, err := env.App.Upstream.Shipping.ListAll(context.Background(), shipping.ListQuery{Reference: reference})
	if err != nil {
		t.Fatal(err)
	}
	return held
}

// exactlyOne asserts the service holds one order for the shipment, and the
// shipment is bound to it.
func exactlyOne(t *testing.T, env *apptest.Env, loc string) {
	t.Helper()
	s := shipmentAt(t, env, loc)
	orders := atService(t, env, s.Reference)
	if len(orders) != 1 {
		t.Fatalf("the service holds %d orders with reference %s, want 1", len(orders), s.Reference)
	}
	if s.State != storage.StateCreated || s.Tracking() != orders[0].TrackingNumber || len(s.Duplicates) != 0 {
		t.Errorf("shipment %d: state %s, tracking %q, duplicates %v; the service's order is %s", s.ID, s.State, s.Tracking(),
			s.Duplicates, orders[0].TrackingNumber)
	}
}

// missingOrder makes a shipment whose order never reached the service and
// that was proved missing after its deadline.
func missingOrder(t *testing.T, env *apptest.Env, b *apptest.Browser) string {
	t.Helper()
	_, full := order(t, b, shipmentForm(t, env), "UPS")
	env.Sandbox.Fault("/api/v1/shipments/create", map[string]any{"drop_rate": 1, "count": 1})
	loc := b.PostForm("/shipping/new/order", full).Header.Get("Location")
	page := b.Get(loc).Body
	if strings.Contains(page, "Order it again") || !strings.Contains(page, `data-testid="waiting"`) {
		t.Fatalf("before its deadline a lost order is waiting, not missing: %s", problemsOf(page))
	}
	if r := b.PostForm(loc+"/again", url.Values{}); !strings.Contains(b.Get(loc).Body, "still waiting") && r.StatusCode != 303 {
		t.Errorf("again before the deadline: %d", r.StatusCode)
	}
	if n := len(atService(t, env, shipmentAt(t, env, loc).Reference)); n != 0 {
		t.Fatalf("again before the deadline ordered: the service holds %d", n)
	}
	waitSettled(t, env, loc)
	b.PostForm(loc+"/check", url.Values{})
	if page := b.Get(loc).Body; !strings.Contains(page, "not created") || !strings.Contains(page, "Order it again") {
		t.Fatalf("after its deadline a dropped order is missing: %s", problemsOf(page))
	}
	return loc
}

func TestDroppedBeforeServiceMeansOrderAgainAfterTheDeadline(t *testing.T) {
	t.Parallel()
	env, b := slowEnv(t)
	loc := missingOrder(t, env, b)
	if r := b.PostForm(loc+"/again", url.Values{}); r.StatusCode != 303 {
		t.Fatalf("order again: %d", r.StatusCode)
	}
	exactlyOne(t, env, loc)
	// A second "again" is refused: the order exists now.
	b.PostForm(loc+"/again", url.Values{})
	exactlyOne(t, env, loc)
}

// Duplicate 1: the service takes longer to create than shipdesk waits. The
// order it creates late is adopted; "not created" is never said before the
// deadline, so "again" cannot order twice.
func TestTimeoutRaceAdoptsTheLateOrder(t *testing.T) {
	t.Parallel()
	env, b := slowEnv(t)
	_, full := order(t, b, shipmentForm(t, env), "UPS")
	env.Sandbox.Fault("/api/v1/shipments/create", map[string]any{"latency_ms": slow.Milliseconds(), "count": 1})
	resp := b.PostForm("/shipping/new/order", full)
	loc := resp.Header.Get("Location")
	if resp.StatusCode != 303 {
		t.Fatalf("a timed-out order: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if page := b.Get(loc).Body; strings.Contains(page, "Order it again") {
		t.Fatal("a timed-out order is offered to be ordered again before its deadline")
	}
	b.PostForm(loc+"/again", url.Values{}) // refused: still waiting
	b.PostForm(loc+"/check", url.Values{})
	waitSettled(t, env, loc)
	if err := env.App.Desk.ReconcileAll(context.Background()); err != nil {
		t.Fatal(err)
	}
	exactlyOne(t, env, loc)
}

// Duplicate 2: "again" while the service is slow, "check" a moment later,
// "again" once more: one order.
func TestAgainRacingCheckOrdersOnce(t *testing.T) {
	t.Parallel()
	env, b := slowEnv(t)
	loc := missingOrder(t, env, b)
	env.Sandbox.Fault("/api/v1/shipments/create", map[string]any{"latency_ms": slow.Milliseconds(), "count": 1})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); b.PostForm(loc+"/again", url.Values{}) }()
	time.Sleep(callLimit / 5)
	b.PostForm(loc+"/check", url.Values{})
	time.Sleep(callLimit / 2)
	b.PostForm(loc+"/again", url.Values{})
	wg.Wait()
	waitSettled(t, env, loc)
	if err := env.App.Desk.ReconcileAll(context.Background()); err != nil {
		t.Fatal(err)
	}
	exactlyOne(t, env, loc)
}

// Duplicate 3: the background reconciler ticks during a slow "again": it must
// not call the order missing, and the late answer is recorded.
func TestReconcilerDuringAgainKeepsTheLateAnswer(t *testing.T) {
	t.Parallel()
	env, b := slowEnv(t)
	loc := missingOrder(t, env, b)
	env.Sandbox.Fault("/api/v1/shipments/create", map[string]any{"latency_ms": (callLimit / 2).Milliseconds(), "count": 1})
	done := make(chan struct{})
	go func() { defer close(done); b.PostForm(loc+"/again", url.Values{}) }()
	// The order is missing until "again" reopens it (the post may take a
	// while to arrive); from then on the reconciler must not call it missing.
	reopened := false
	for ticking := true; ticking; {
		select {
		case <-done:
			ticking = false
		case <-time.After(50 * time.Millisecond):
			if err := env.App.Desk.ReconcileAll(context.Background()); err != nil {
				t.Errorf("reconcile during the call: %v", err)
			}
			s := shipmentAt(t, env, loc)
			if reopened && s.State == storage.StateMissing {
				t.Fatal("the reconciler called a live order missing")
			}
			reopened = reopened || s.State != storage.StateMissing
		}
	}
	if !reopened {
		t.Log("the call ended before a tick saw it under way")
	}
	exactlyOne(t, env, loc)
}

// A second order under our reference (made before this version, or by hand)
// is found by discovery, shown as a duplicate, and cancelled with a confirmation.
func TestDuplicateAtTheServiceIsShownAndCancelled(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	loc := place(t, b, shipmentForm(t, env), "UPS")
	s := shipmentAt(t, env, loc)
	var req shipping.Order
	if err := jsonUnmarshal(s.Request, &req); err != nil {
		t.Fatal(err)
	}
	extra, err := env.App.Upstream.Shipping.Create(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	env.Sandbox.Advance(3 * time.Minute) // both exported: discovery lists them, storno still possible
	if _, err := env.App.Jobs.Discover(context.Background()); err != nil {
		t.Fatal(err)
	}
	tn := extra.Shipments[0].TrackingNumber
	if s := shipmentAt(t, env, loc); len(s.Duplicates) != 1 || s.Duplicates[0] != tn {
		t.Fatalf("duplicates %v, want [%s]", s.Duplicates, tn)
	}
	if home := b.Get("/").Body; !strings.Contains(home, "ordered twice") {
		t.Error("the home page does not say a shipment was ordered twice")
	}
	page := b.Get(loc).Body
	if !strings.Contains(page, `data-testid="duplicates"`) || !strings.Contains(page, tn) {
		t.Fatal("the shipment page does not show the duplicate")
	}
	b.PostForm(loc+"/duplicates/storno", url.Values{"tracking_number": {tn}}) // not confirmed
	if s := shipmentAt(t, env, loc); len(s.Duplicates) != 1 {
		t.Fatal("cancelled without a confirmation")
	}
	if r := b.PostForm(loc+"/duplicates/storno", url.Values{"tracking_number": {tn}, "confirm": {"yes"}}); r.StatusCode != 303 {
		t.Fatalf("storno of the duplicate: %d", r.StatusCode)
	}
	if s := shipmentAt(t, env, loc); len(s.Duplicates) != 0 {
		t.Errorf("duplicate still listed: %v", s.Duplicates)
	}
	d, err := env.App.Upstream.Shipping.Detail(context.Background(), shipping.DetailRequest{Shipments: []string{tn, s.Tracking()}}, false)
	if err != nil || d[tn].Status != shipping.StatusCancelled || d[s.Tracking()].Status == shipping.StatusCancelled {
		t.Errorf("at the service: extra %s, ours %s (%v)", d[tn].Status, d[s.Tracking()].Status, err)
	}
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// commissionsAtService are the service's commissions with a commission's reference.
func commissionsAtService(t *testing.T, env *apptest.Env, c storage.Commission) []returns.Commission {
	t.Helper()
	list, err := env.App.Upstream.Returns.List(context.Background(), returns.ListQuery{Customer: c.CustomerEmail, PerPage: 100})
	if err != nil {
		t.Fatal(err)
	}
	var out []returns.Commission
	for _, rc := range list.Commissions {
		if rc.Reference == c.Reference {
			out = append(out, rc)
		}
	}
	return out
}

func commissionAt(t *testing.T, env *apptest.Env, page string) storage.Commission {
	t.Helper()
	c, err := env.App.DB.CommissionByID(context.Background(), idOf(page))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Duplicate 4: on the returns desk, "create it again" while the service is
// slow, "check" a moment later, "again" once more: one commission.
func TestCommissionAgainRacingCheckCreatesOnce(t *testing.T) {
	t.Parallel()
	env, b := impatientBench(t, apptest.Options{UpstreamTimeout: callLimit, Settle: settle})
	env.Sandbox.Fault("/returns/api/v1/commissions/create", map[string]any{"drop_rate": 1, "count": 1})
	page := postMultipart(t, env, b, commissionForm(t, env), "receipt.pdf", pdfBytes).Header.Get("Location")
	waitCommissionSettled(t, env, page)
	b.PostForm(page+"/check", url.Values{})
	if c := commissionAt(t, env, page); c.State != storage.StateMissing {
		t.Fatalf("after its deadline: %s", c.State)
	}
	env.Sandbox.Fault("/returns/api/v1/commissions/create", map[string]any{"latency_ms": slow.Milliseconds(), "count": 1})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); b.PostForm(page+"/again", url.Values{}) }()
	time.Sleep(callLimit / 5)
	b.PostForm(page+"/check", url.Values{})
	time.Sleep(callLimit / 2)
	b.PostForm(page+"/again", url.Values{})
	wg.Wait()
	waitCommissionSettled(t, env, page)
	if err := env.App.Bench.ReconcileAll(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := commissionAt(t, env, page)
	at := commissionsAtService(t, env, c)
	if len(at) != 1 || c.State != storage.StateCreated || c.RemoteID == nil || *c.RemoteID != at[0].ID {
		t.Fatalf("the service holds %d commissions with reference %s; ours is %s bound to %v", len(at), c.Reference, c.State, c.RemoteID)
	}
}

// Two commissions at the service under our reference: the agent is told which
// to cancel, and cancels it with a confirmation.
func TestDuplicateCommissionIsShownAndCancelled(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	// The service creates it, but the answer is lost; meanwhile another tool
	// created one more with the same reference.
	env.Sandbox.Fault("/returns/api/v1/commissions/create", map[string]any{"drop_after_rate": 1, "count": 1})
	page := postMultipart(t, env, b, commissionForm(t, env), "receipt.pdf", pdfBytes).Header.Get("Location")
	c := commissionAt(t, env, page)
	var req returns.CreateRequest
	if err := json.Unmarshal(c.Request, &req); err != nil {
		t.Fatal(err)
	}
	file, err := env.App.Upstream.Returns.Upload(context.Background(), "copy.pdf", "application/pdf", pdfBytes)
	if err != nil {
		t.Fatal(err)
	}
	req.InvoiceFileToken = file.Token
	extra, err := env.App.Upstream.Returns.Create(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if c.State == storage.StateCreated { // adopted at once: the extra one came later
		env.App.DB.SQL().Exec(`UPDATE commissions SET state = 'unknown' WHERE id = $1`, c.ID)
	}
	if _, err := env.App.Bench.Reconcile(context.Background(), c.ID); err != nil {
		t.Fatal(err)
	}
	c = commissionAt(t, env, page)
	if len(c.Duplicates) != 1 || c.Duplicates[0] != extra.Number {
		t.Fatalf("duplicates %v, want [%s]", c.Duplicates, extra.Number)
	}
	if home := b.Get("/").Body; !strings.Contains(home, "created twice") {
		t.Error("the home page does not say a commission was created twice")
	}
	body := b.Get(page).Body
	if !strings.Contains(body, `data-testid="duplicates"`) || !strings.Contains(body, extra.Number) {
		t.Fatal("the commission page does not say what to cancel")
	}
	b.PostForm(page+"/duplicates/cancel", url.Values{"number": {extra.Number}})
	if c := commissionAt(t, env, page); len(c.Duplicates) != 1 {
		t.Fatal("cancelled without a confirmation")
	}
	if r := b.PostForm(page+"/duplicates/cancel", url.Values{"number": {extra.Number}, "confirm": {"yes"}}); r.StatusCode != 303 {
		t.Fatalf("cancel: %d", r.StatusCode)
	}
	if c := commissionAt(t, env, page); len(c.Duplicates) != 0 {
		t.Errorf("duplicate still listed: %v", c.Duplicates)
	}
	got, err := env.App.Upstream.Returns.Get(context.Background(), extra.ID)
	if err != nil || got.Status != "cancelled" {
		t.Errorf("the extra commission at the service: %+v %v", got, err)
	}
}
