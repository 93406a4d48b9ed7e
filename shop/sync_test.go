package shop_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	sbshop "shipdesk/sandbox/shoptet"
	"shipdesk/shop"
	"shipdesk/storage"
)

// quiet stops the demo shop's own arrivals: the test alone adds orders.
func (e *env) quiet() {
	st := e.shop.Settings()
	st.Arrivals = false
	e.shop.SetSettings(st)
}

// roomy gives the token a bucket no sync fills: a test counting requests
// counts those the paging needs, not a 429's repeats.
func (e *env) roomy() {
	st := e.shop.Settings()
	st.Bucket = 1e9
	e.shop.SetSettings(st)
}

func (e *env) addOrders(n int) []string {
	codes := make([]string, n)
	for i := range codes {
		codes[i] = e.orderWith(func(o *sbshop.Order) { o.Billing.FullName = fmt.Sprintf("Zákazník %d", i) })
	}
	return codes
}

// Two instances sync at once: one takes the lease and pulls each changed
// order once, the other pulls nothing; a sync with nothing new reads no
// order; the pages of changes are as many as they need, at most three
// requests are in flight.
func TestSyncOnceAcrossInstances(t *testing.T) {
	e := start(t)
	e.quiet()
	e.roomy()
	e.connect()
	codes := e.addOrders(120)
	e.calls.reset()
	other := e.service("other")
	var wg sync.WaitGroup
	stats := make([]shop.SyncStats, 2)
	errs := make([]error, 2)
	if _, err := e.app.App.DB.Exec(e.ctx, `UPDATE shop_connections SET next_sync_at = $1`, e.sb.Clock.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	for i, svc := range []*shop.Service{e.svc, other} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stats[i], errs[i] = svc.Sync(e.ctx)
		}()
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil || stats[0].Synced == stats[1].Synced || stats[0].Read+stats[1].Read != 120 {
		t.Fatalf("two instances: %+v %v", stats, errs)
	}
	if n := e.calls.count("order"); n != 120 {
		t.Errorf("orders read: %d", n)
	}
	changes := max(stats[0].Changes, stats[1].Changes)
	if n := e.calls.count("changes"); n != (changes+49)/50 {
		t.Errorf("%d pages of changes for %d changes", n, changes)
	}
	if n := e.calls.maxAtOne.Load(); n > 3 || n < 2 {
		t.Errorf("requests in flight at once: %d", n)
	}
	for _, c := range codes[:3] {
		if o := e.kept(c); o.State != storage.ShopWaiting || !o.Ready {
			t.Errorf("order %s kept as %s, problems %s", c, o.State, o.Problems)
		}
	}
	// The shop stamps changes to the second: an order read within the
	// second of its change is read once more, in case it changed again in
	// that second; after that, a sync with nothing new reads nothing.
	e.sb.Advance(time.Minute)
	if st, err := e.syncNow(e.svc); err != nil || !st.Synced || st.Read > 120 {
		t.Errorf("the moment read again: %+v %v", st, err)
	}
	e.calls.reset()
	e.sb.Advance(time.Minute)
	if st, err := e.syncNow(e.svc); err != nil || !st.Synced || st.Read != 0 || e.calls.count("order") != 0 {
		t.Errorf("nothing new: %+v %v, %d orders read", st, err, e.calls.count("order"))
	}
	// Only what changed since is read again.
	if err := e.shop.UpdateOrder(codes[5], func(o *sbshop.Order) { o.Phone = "+420 608 111 222" }); err != nil {
		t.Fatal(err)
	}
	e.sb.Advance(time.Minute)
	if st, err := e.syncNow(e.svc); err != nil || st.Read != 1 {
		t.Errorf("one order changed: %+v %v", st, err)
	}
	if o := e.kept(codes[5]); o.Revision != 2 {
		t.Errorf("its revision: %d", o.Revision)
	}
}

// A sync of 1,000 changed orders reads each once, pages the changes by 50
// and keeps at most three requests in flight.
func TestSyncThousandOrders(t *testing.T) {
	if testing.Short() {
		t.Skip("a thousand orders")
	}
	e := start(t)
	e.quiet()
	e.roomy()
	e.connect()
	e.addOrders(1000)
	e.calls.reset()
	st, err := e.syncNow(e.svc)
	if err != nil || st.Read != 1000 || st.Stored != 1000 {
		t.Fatalf("%+v %v", st, err)
	}
	if n := e.calls.count("order"); n != 1000 {
		t.Errorf("orders read: %d", n)
	}
	if n := e.calls.count("changes"); n != (st.Changes+49)/50 {
		t.Errorf("%d pages of changes for %d changes", n, st.Changes)
	}
	if n := e.calls.maxAtOne.Load(); n > 3 {
		t.Errorf("requests in flight at once: %d", n)
	}
	if in := e.inbox(shop.InboxQuery{}); len(in) < 1000 {
		t.Errorf("the inbox: %d", len(in))
	}
}

// The shop answering 503 for an hour of simulated time loses nothing: the
// cursor stays where it was, the syncs wait longer after each failure, and
// once the shop is back one sync keeps every order made meanwhile. An order
// that cannot be read when the others can stops the cursor before it: the
// next sync reads it, and only it.
func TestSyncLosesNothingWhileShopIsDown(t *testing.T) {
	e := start(t)
	e.quiet()
	e.connect()
	before, err := e.app.App.DB.ShopConnection(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	e.sb.Fault("/shoptet/api/", map[string]any{"error_rate": 1})
	var made []string
	var last time.Time
	for minute := 0; minute < 60; minute += 5 {
		made = append(made, e.addOrders(2)...)
		last = e.sb.Clock.Now()
		st, err := e.syncNow(e.svc)
		if err == nil || st.Synced || st.Stored != 0 {
			t.Fatalf("minute %d: the shop is down, yet %+v %v", minute, st, err)
		}
		e.sb.Advance(5 * time.Minute)
	}
	down, err := e.app.App.DB.ShopConnection(e.ctx)
	if err != nil || !down.SyncFrom.Equal(before.SyncFrom) || down.SyncFailures != 12 || down.SyncError.IsZero() ||
		down.NextSyncAt.Sub(last) < 10*time.Minute {
		t.Fatalf("while down: %+v %v", down, err)
	}
	e.sb.Release()
	st, err := e.syncNow(e.svc)
	if err != nil || !st.Synced {
		t.Fatalf("back: %+v %v", st, err)
	}
	for _, c := range made {
		if o := e.kept(c); o.State != storage.ShopWaiting {
			t.Errorf("order %s: %s", c, o.State)
		}
	}
	up, _ := e.app.App.DB.ShopConnection(e.ctx)
	if up.SyncFailures != 0 || !up.SyncError.IsZero() || !up.SyncFrom.After(before.SyncFrom) {
		t.Errorf("after: %+v", up)
	}
	// One order that cannot be read holds the cursor before its change.
	e.sb.Advance(time.Minute)
	next := e.addOrders(5)
	e.sb.Fault("/shoptet/api/orders/"+next[2], map[string]any{"error_rate": 1})
	st, err = e.syncNow(e.svc)
	if err == nil || st.Stored >= 5 {
		t.Fatalf("one order down: %+v %v", st, err)
	}
	held, _ := e.app.App.DB.ShopConnection(e.ctx)
	if down, _ := e.shop.Order(next[2]); held.SyncFrom.After(down.Changed) {
		t.Fatalf("the cursor passed the order it could not read: %s after %s", held.SyncFrom, down.Changed)
	}
	e.sb.Release()
	e.calls.reset()
	if second, err := e.syncNow(e.svc); err != nil || !second.Synced || e.calls.count("order") > 5 {
		t.Fatalf("the next sync reads on from the order it could not read: %+v %v %d", second, err, e.calls.count("order"))
	}
	for _, c := range next {
		if o := e.kept(c); o.State != storage.ShopWaiting {
			t.Errorf("order %s kept as %s", c, o.State)
		}
	}
}

// A webhook's order is read at once: cancelled in the shop, it leaves the
// inbox; deleted, it is gone.
func TestTouchReadsOneOrder(t *testing.T) {
	e := start(t)
	e.quiet()
	e.connect()
	codes := e.addOrders(2)
	for _, c := range codes {
		if err := e.svc.Touch(e.ctx, c); err != nil {
			t.Fatal(err)
		}
		if o := e.kept(c); o.State != storage.ShopWaiting {
			t.Fatalf("read at once: %s", o.State)
		}
	}
	if err := e.shop.CancelOrder(codes[0]); err != nil {
		t.Fatal(err)
	}
	if err := e.shop.DeleteOrder(codes[1]); err != nil {
		t.Fatal(err)
	}
	for _, c := range codes {
		if err := e.svc.Touch(e.ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	if a, b := e.kept(codes[0]), e.kept(codes[1]); a.State != storage.ShopCancelled || b.State != storage.ShopGone && b.State != storage.ShopCancelled {
		t.Errorf("cancelled %s, deleted %s", a.State, b.State)
	}
	for _, o := range e.inbox(shop.InboxQuery{}) {
		if o.Code == codes[0] || o.Code == codes[1] {
			t.Errorf("%s still in the inbox", o.Code)
		}
	}
}
