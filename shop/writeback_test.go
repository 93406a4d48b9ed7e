package shop_test

import (
	"strings"
	"testing"
	"time"

	"shipdesk/apperr"
	sbshop "shipdesk/sandbox/shoptet"
	"shipdesk/shop"
	"shipdesk/storage"
)

// shipOne ships a new order to a Zásilkovna point and returns its code and
// shipment.
func (e *env) shipOne() (string, storage.Shipment) {
	e.t.Helper()
	code := e.orderWith(nil)
	if err := e.svc.Touch(e.ctx, code); err != nil {
		e.t.Fatal(err)
	}
	s, err := e.svc.Ship(e.ctx, 0, code, 0)
	if err != nil || s.Shipment == nil || s.Shipment.Tracking() == "" {
		e.t.Fatalf("ship %s: %+v %v", code, s, err)
	}
	return code, *s.Shipment
}

// trackingLines counts the lines of the order's history that say its
// tracking number changed: what the shop took.
func (e *env) trackingLines(code string) int {
	e.t.Helper()
	o, ok := e.shop.Order(code)
	if !ok {
		e.t.Fatalf("the shop has no order %s", code)
	}
	n := 0
	for _, h := range o.History {
		if strings.HasPrefix(h.Text, "Číslo zásilky") {
			n++
		}
	}
	return n
}

// The tracking number goes to the order once the shipment has it: a write
// answered 503 (the client's own retries too) waits and is sent again, and
// the shop takes it once; when the carrier has the parcel the order moves
// to the chosen status without a mail to the customer; the order's page
// shows what was written and when.
func TestWriteBackTrackingThenStatus(t *testing.T) {
	e := start(t)
	e.quiet()
	e.connect()
	code, sh := e.shipOne()
	e.sb.Fault("/shoptet/api/orders/"+code+"/notes", map[string]any{"error_rate": 1, "count": 3})
	st, err := e.svc.SendWrites(e.ctx)
	if err != nil || st.Retried != 1 || st.Sent != 0 {
		t.Fatalf("answered 503: %+v %v", st, err)
	}
	if st, _ := e.svc.SendWrites(e.ctx); st != (shop.WriteStats{}) {
		t.Fatalf("before its retry is due: %+v", st)
	}
	e.sb.Advance(2 * time.Minute)
	if st, err := e.svc.SendWrites(e.ctx); err != nil || st.Sent != 1 {
		t.Fatalf("then 200: %+v %v", st, err)
	}
	if st, _ := e.svc.SendWrites(e.ctx); st != (shop.WriteStats{}) {
		t.Fatalf("nothing more: %+v", st)
	}
	o, _ := e.shop.Order(code)
	if o.TrackingNumber != sh.Tracking() || e.trackingLines(code) != 1 {
		t.Fatalf("the shop's order: %q, %d writes", o.TrackingNumber, e.trackingLines(code))
	}
	// The carrier takes the parcel.
	e.app.LabelsFetched()
	e.sb.Advance(2 * time.Hour)
	e.app.App.Jobs.Cycle(e.ctx)
	if s, _ := e.app.App.DB.ShipmentByID(e.ctx, sh.ID); s.Status != "INTRANSIT" && s.Status != "ONDELIVERY" && s.Status != "DELIVERED" {
		t.Fatalf("not handed over: %s", s.Status)
	}
	// The pollers' cycle sends the writes too: the status went in it or goes
	// now; either way it is one write, sent (the order's page below).
	if st, err := e.svc.SendWrites(e.ctx); err != nil || st.Sent > 1 || st.Failed != 0 {
		t.Fatalf("the status: %+v %v", st, err)
	}
	o, _ = e.shop.Order(code)
	if o.Status != sbshop.StatusSent {
		t.Fatalf("the order's status: %d", o.Status)
	}
	for _, h := range o.History {
		if strings.Contains(h.Text, "odeslán e-mail") || strings.Contains(h.Text, "odeslána SMS") {
			t.Errorf("the customer was told: %s", h.Text)
		}
	}
	page, err := e.svc.Order(e.ctx, code)
	if err != nil || len(page.Writes) != 2 || page.Writes[0].State != storage.QueueSent || page.Writes[0].SentAt == nil ||
		page.Writes[1].Kind != storage.ShopWriteStatus || page.Writes[1].State != storage.QueueSent || len(page.Shipments) != 1 {
		t.Fatalf("the order's page: %+v %v", page.Writes, err)
	}
	// The tracking poller seeing the parcel again writes nothing more.
	e.sb.Advance(2 * time.Hour)
	e.app.App.Jobs.Cycle(e.ctx)
	if st, _ := e.svc.SendWrites(e.ctx); st != (shop.WriteStats{}) || e.trackingLines(code) != 1 {
		t.Fatalf("again: %+v, %d", st, e.trackingLines(code))
	}
}

// A storno clears the order's tracking number.
func TestStornoClearsTracking(t *testing.T) {
	e := start(t)
	e.quiet()
	e.connect()
	code, sh := e.shipOne()
	if _, err := e.svc.SendWrites(e.ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.App.Desk.Storno(e.ctx, sh.ID); err != nil {
		t.Fatal(err)
	}
	if st, err := e.svc.SendWrites(e.ctx); err != nil || st.Sent != 1 {
		t.Fatalf("%+v %v", st, err)
	}
	if o, _ := e.shop.Order(code); o.TrackingNumber != "" || e.trackingLines(code) != 2 {
		t.Fatalf("after the storno: %q", o.TrackingNumber)
	}
	if in := e.inboxOrder(code); !in.Ready {
		t.Errorf("back in the inbox, ready: %+v", in)
	}
}

// A write the shop refuses for good (the order deleted there) is kept as
// failed with the shop's answer and is on the clerks' attention queue.
func TestWriteFailingForGoodNeedsAttention(t *testing.T) {
	e := start(t)
	e.quiet()
	e.connect()
	code, sh := e.shipOne()
	if err := e.shop.DeleteOrder(code); err != nil {
		t.Fatal(err)
	}
	if st, err := e.svc.SendWrites(e.ctx); err != nil || st.Failed != 1 {
		t.Fatalf("%+v %v", st, err)
	}
	w, _ := e.svc.Writes(e.ctx, code)
	if len(w) != 1 || w[0].State != storage.QueueFailed || w[0].LastError.IsZero() {
		t.Fatalf("%+v", w)
	}
	items, err := e.app.App.DB.AttentionItems(e.ctx, storage.AttentionQuery{Now: e.sb.Clock.Now(), Kinds: []string{storage.AttnShopWriteFailed},
		Show: storage.AttnOpen})
	if err != nil || len(items) != 1 || items[0].RecordID != sh.ID || items[0].Label != code ||
		apperr.Stored(items[0].Detail).String() != w[0].LastError.String() {
		t.Fatalf("on the queue: %+v %v", items, err)
	}
	if err := e.svc.WriteAgain(e.ctx, w[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.WriteAgain(e.ctx, w[0].ID); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("a write that has not failed: %v", err)
	}
}
