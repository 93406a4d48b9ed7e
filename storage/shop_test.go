package storage_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"shipdesk/apperr"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

var shopAt = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

// connectShop keeps a connection whose handed-over parcels move their
// orders to status 3, and orders code… made a minute apart.
func connectShop(t *testing.T, db *storage.DB, codes ...string) {
	t.Helper()
	ctx := context.Background()
	if err := db.SaveShopConnection(ctx, storage.ShopConnection{Platform: "shoptet", BaseURL: "http://shop", TokenSealed: []byte("x"),
		ShopID: 1, ShopName: "Shop", SyncFrom: shopAt, ConnectedAt: shopAt}); err != nil {
		t.Fatal(err)
	}
	handover := 3
	if err := db.SaveShopStatusRules(ctx, []int{-1, 2}, &handover, true); err != nil {
		t.Fatal(err)
	}
	var orders []storage.ShopOrder
	for i, c := range codes {
		orders = append(orders, shopOrder(c, shopAt.Add(time.Duration(i)*time.Minute), storage.ShopWaiting))
	}
	if err := db.StoreShopOrders(ctx, orders); err != nil {
		t.Fatal(err)
	}
}

func shopOrder(code string, at time.Time, state string) storage.ShopOrder {
	return storage.ShopOrder{Code: code, CreatedAt: at, ChangedAt: at, State: state, Problems: json.RawMessage(`[]`), StatusID: -1,
		ShippingGUID: "zasilkovna", Country: "CZ", Recipient: "Jana " + code, Doc: json.RawMessage(`{"Code":"` + code + `"}`), StoredAt: at}
}

// shipmentOf records a created shipment with the reference, as the desk does.
func shipmentOf(t *testing.T, db *storage.DB, reference, tracking string) storage.Shipment {
	t.Helper()
	ctx := context.Background()
	s, attempt, _, err := db.BeginShipment(ctx, storage.Shipment{RequestKey: requestkey.New(), Reference: reference, Request: []byte("{}"),
		Carrier: "ZASILKOVNA", ServiceID: 1, RecipientName: "Jana"}, shopAt, shopAt.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err = db.RecordCreated(ctx, s.ID, attempt, storage.Reply{TrackingNumber: tracking, Status: "CREATED", LabelStatus: "PENDING"}, shopAt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func writesOf(t *testing.T, db *storage.DB, code string) []storage.ShopWrite {
	t.Helper()
	w, err := db.ShopWrites(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// A parcel of a shop's order records its writes back in the statement that
// stores the change: its tracking number once created, the status move once
// handed over, the number cleared (or another live parcel's put back) after
// a storno; each event once, however often the change is stored again; a
// shipment of no shop order records none.
func TestShopWritesRecordedWithTheirChange(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	connectShop(t, db, "2026000101", "2026000102")
	first := shipmentOf(t, db, "2026000101", "Z100")
	shipmentOf(t, db, "OTHER-1", "Z999")
	w := writesOf(t, db, "2026000101")
	if len(w) != 1 || w[0].Kind != storage.ShopWriteTracking || w[0].TrackingNumber != "Z100" || w[0].State != storage.QueueQueued ||
		!w[0].NextAttemptAt.Equal(shopAt) {
		t.Fatalf("after create: %+v", w)
	}
	for range 2 {
		if err := db.RecordState(ctx, first.ID, storage.Reply{Status: "EXPORTED", LabelStatus: "READY"}, shopAt.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if w := writesOf(t, db, "2026000101"); len(w) != 1 {
		t.Fatalf("before the hand-over, nothing more: %+v", w)
	}
	if err := db.RecordTrackings(ctx, []storage.Tracked{{ID: first.ID, Status: "INTRANSIT"}, {ID: first.ID + 1, Status: "INTRANSIT"}}, shopAt.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordTracking(ctx, first.ID, "ONDELIVERY", false, nil, shopAt.Add(3*time.Hour), nil); err != nil {
		t.Fatal(err)
	}
	w = writesOf(t, db, "2026000101")
	if len(w) != 2 || w[1].Kind != storage.ShopWriteStatus || w[1].StatusID == nil || *w[1].StatusID != 3 || !w[1].Quiet {
		t.Fatalf("after the hand-over: %+v", w)
	}
	// A second parcel of the order, then the first cancelled: the order
	// gets the second's number back instead of none.
	second := shipmentOf(t, db, "2026000101-2", "Z200")
	if _, err := db.Exec(ctx, `INSERT INTO shop_parcels (reference, order_code, parcel, request_key, created_at) VALUES ('2026000101-2', '2026000101', 2, $1, $2)`,
		requestkey.New(), shopAt); err != nil {
		t.Fatal(err)
	}
	if _, err := db.RecordShipment(ctx, second.ID, storage.Reply{TrackingNumber: "Z200", Status: "CREATED"}, shopAt.Add(4*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkCancelled(ctx, first.ID, shopAt.Add(5*time.Hour)); err != nil {
		t.Fatal(err)
	}
	w = writesOf(t, db, "2026000101")
	if len(w) != 4 || w[2].TrackingNumber != "Z200" || w[3].EventKey != fmt.Sprintf("storno:%d", first.ID) || w[3].TrackingNumber != "Z200" {
		t.Fatalf("after the second parcel and the storno: %+v", w)
	}
	lone := shipmentOf(t, db, "2026000102", "Z300")
	if err := db.MarkCancelled(ctx, lone.ID, shopAt.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if w := writesOf(t, db, "2026000102"); len(w) != 2 || w[1].TrackingNumber != "" || w[1].Kind != storage.ShopWriteTracking {
		t.Fatalf("a storno clears the number: %+v", w)
	}
	var all int
	if err := db.SQL().QueryRow(`SELECT count(*) FROM shop_writes`).Scan(&all); err != nil || all != 6 {
		t.Fatalf("writes in all: %d %v", all, err)
	}
}

// Writes are leased as mail is: two workers at once never take the same
// write, an order's writes go one after the other, a retry waits for its
// time, and a write that fails for good is on the attention queue with the
// shop's answer until it is sent again.
func TestShopWritesLeasedInOrder(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	connectShop(t, db, "A1", "B1")
	a := shipmentOf(t, db, "A1", "ZA")
	shipmentOf(t, db, "B1", "ZB")
	if err := db.MarkCancelled(ctx, a.ID, shopAt); err != nil { // A1: tracking, then its clearing
		t.Fatal(err)
	}
	lease := func(who string, at time.Time) []storage.ShopWrite {
		got, err := db.LeaseShopWrites(ctx, storage.Lease{Who: who, Now: at, Limit: 10, For: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	var mu sync.Mutex
	taken := map[int64]string{}
	var wg sync.WaitGroup
	for _, who := range []string{"one", "two"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, w := range lease(who, shopAt) {
				mu.Lock()
				if by, twice := taken[w.ID]; twice {
					t.Errorf("write %d leased by %s and %s", w.ID, by, who)
				}
				taken[w.ID] = who
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(taken) != 2 {
		t.Fatalf("the first write of each order, once: %v", taken)
	}
	wa := writesOf(t, db, "A1")
	if taken[wa[1].ID] != "" {
		t.Fatal("an order's second write went before its first")
	}
	if ok, err := db.ShopWriteRetry(ctx, wa[0].ID, taken[wa[0].ID], shopAt.Add(10*time.Minute), apperr.Msg("shop.err.unreachable")); err != nil || !ok {
		t.Fatal(ok, err)
	}
	wb := writesOf(t, db, "B1")
	if ok, err := db.ShopWriteSent(ctx, wb[0].ID, taken[wb[0].ID], shopAt); err != nil || !ok {
		t.Fatal(ok, err)
	}
	if got := lease("one", shopAt.Add(2*time.Minute)); len(got) != 0 {
		t.Fatalf("before its retry is due, nothing of A1: %+v", got)
	}
	got := lease("one", shopAt.Add(11*time.Minute))
	if len(got) != 1 || got[0].ID != wa[0].ID || got[0].Attempts != 2 {
		t.Fatalf("the retry when due: %+v", got)
	}
	if ok, _ := db.ShopWriteSent(ctx, wa[0].ID, "two", shopAt); ok {
		t.Fatal("a worker without the lease recorded it sent")
	}
	if ok, err := db.ShopWriteGaveUp(ctx, wa[0].ID, "one", apperr.Msg("shop.why.field", "Order", "locked")); err != nil || !ok {
		t.Fatal(ok, err)
	}
	items, err := db.AttentionItems(ctx, storage.AttentionQuery{Now: shopAt.Add(time.Hour), Kinds: []string{storage.AttnShopWriteFailed}, Show: storage.AttnOpen})
	if err != nil || len(items) != 1 || items[0].RecordID != a.ID || items[0].Label != "A1" ||
		apperr.Stored(items[0].Detail).String() != "Order: locked" {
		t.Fatalf("on the attention queue: %+v %v", items, err)
	}
	if got := lease("one", shopAt.Add(12*time.Minute)); len(got) != 1 || got[0].ID != wa[1].ID {
		t.Fatalf("after a failure for good, the order's next write: %+v", got)
	}
	if err := db.RequeueShopWrite(ctx, wa[0].ID, shopAt.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if items, _ := db.AttentionItems(ctx, storage.AttentionQuery{Now: shopAt.Add(time.Hour), Kinds: []string{storage.AttnShopWriteFailed}, Show: storage.AttnOpen}); len(items) != 0 {
		t.Fatalf("written again, off the queue: %+v", items)
	}
}

// The inbox lists the orders waiting, newest first, by keyset pages that
// visit each once, by each filter; an order shipped by us, cancelled or in
// a status not shipped leaves it; a kept order is never replaced by an
// older read of it, and its revision counts only changes of its content.
func TestShopInboxPagesAndFilters(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	connectShop(t, db)
	var orders []storage.ShopOrder
	for i := range 130 {
		o := shopOrder(fmt.Sprintf("C%03d", i), shopAt.Add(time.Duration(i/2)*time.Minute), storage.ShopWaiting)
		if i%3 == 0 {
			o.ShippingGUID, o.Country, o.StatusID = "ppl", "SK", 2
		}
		switch i % 10 {
		case 7:
			o.State = storage.ShopCancelled
		case 8:
			o.State = storage.ShopOther
		case 9:
			o.State, o.TrackingElsewhere = storage.ShopElsewhere, "ELSE"
		}
		orders = append(orders, o)
	}
	if err := db.StoreShopOrders(ctx, orders); err != nil {
		t.Fatal(err)
	}
	shipmentOf(t, db, "C129", "Z129")
	walk := func(q storage.ShopInboxQuery) []string {
		var codes []string
		q.Limit = 17
		for range 20 {
			page, err := db.ShopInbox(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range page.Orders {
				codes = append(codes, o.Code)
			}
			if page.Next == nil {
				return codes
			}
			q.After = page.Next
		}
		t.Fatal("the pages never end")
		return nil
	}
	want := func(keep func(i int) bool) []string {
		var out []string
		for i := 129; i >= 0; i-- {
			if i%10 != 7 && i%10 != 8 && i != 129 && keep(i) {
				out = append(out, fmt.Sprintf("C%03d", i))
			}
		}
		return out
	}
	for name, c := range map[string]struct {
		q    storage.ShopInboxQuery
		keep func(int) bool
	}{
		"all":      {storage.ShopInboxQuery{}, func(int) bool { return true }},
		"shipping": {storage.ShopInboxQuery{Shipping: "ppl"}, func(i int) bool { return i%3 == 0 }},
		"status":   {storage.ShopInboxQuery{Status: 2}, func(i int) bool { return i%3 == 0 }},
		"country":  {storage.ShopInboxQuery{Country: "CZ"}, func(i int) bool { return i%3 != 0 }},
		"day":      {storage.ShopInboxQuery{From: shopAt.Add(10 * time.Minute), To: shopAt.Add(20 * time.Minute)}, func(i int) bool { return i/2 >= 10 && i/2 < 20 }},
	} {
		if got, w := walk(c.q), want(c.keep); fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s:\n got %v\nwant %v", name, got, w)
		}
	}
	older := shopOrder("C000", shopAt.Add(-time.Hour), storage.ShopCancelled)
	if err := db.StoreShopOrders(ctx, []storage.ShopOrder{older}); err != nil {
		t.Fatal(err)
	}
	kept, err := db.ShopOrderByCode(ctx, "C000")
	if err != nil || kept.State != storage.ShopWaiting || kept.Revision != 1 {
		t.Fatalf("an older read replaced the order: %+v %v", kept, err)
	}
	same := orders[0]
	same.ChangedAt = shopAt.Add(time.Hour)
	changed := same
	changed.Doc = json.RawMessage(`{"Code":"C000","Phone":"+420"}`)
	for _, o := range []storage.ShopOrder{same, changed, changed} {
		if err := db.StoreShopOrders(ctx, []storage.ShopOrder{o}); err != nil {
			t.Fatal(err)
		}
	}
	if kept, _ := db.ShopOrderByCode(ctx, "C000"); kept.Revision != 2 {
		t.Fatalf("one change of content, revision %d", kept.Revision)
	}
	parcels, err := db.ShopParcels(ctx, "C000")
	if err != nil || len(parcels) != 1 || parcels[0].Reference != "C000" || !requestkey.Valid(parcels[0].RequestKey) {
		t.Fatalf("the order's first parcel: %+v %v", parcels, err)
	}
}
