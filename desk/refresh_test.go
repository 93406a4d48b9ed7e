package desk_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/desk"
	"shipdesk/desk/desktest"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage"
)

// refreshEnv is a shipping desk on a fresh database and the sandbox, with a
// clock the test moves.
type refreshEnv struct {
	*desktest.Env
	t    *testing.T
	sb   *sandboxtest.Env
	db   *storage.DB
	ship *shipping.Client
}

func start(t *testing.T) *refreshEnv {
	t.Helper()
	d := desktest.Start(t)
	return &refreshEnv{Env: d, t: t, sb: d.Sandbox, db: d.DB, ship: d.Ship}
}

// refresher refreshes through a desk on the env's client, on the env's clock.
func (e *refreshEnv) refresher() *desk.Refresher {
	d := desk.New(e.db, e.ship, nil, e.Clock, nil)
	return d.Refresher(desk.RefreshConfig{LabelEvery: 3 * time.Minute, TrackEvery: 30 * time.Minute})
}

// order creates n shipments at the service and records them as the desk does.
func (e *refreshEnv) order(n int) []storage.Shipment {
	return e.Order(n)
}

func (e *refreshEnv) shipment(id int64) storage.Shipment { return e.Shipment(id) }

func TestDiscoverFindsShipmentsMadeElsewhere(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	mine := e.order(1)[0]
	// Made in the provider's web manager, not through shipdesk.
	_, err := e.ship.Create(ctx, shipping.Order{Currency: "CZK", PaymentType: shipping.PaymentCredit, Shipments: []shipping.Shipment{{
		Type: shipping.PickupOnDemand, Carrier: "fedex", Reference: "WEB-1",
		From:     shipping.Address{Company: "Shop", Street: "A 1", City: "Praha", Zip: "110 00", Country: "CZ", Phone: "+420601000000"},
		To:       shipping.Address{Firstname: "Ota", Surname: "Kovář", Street: "C 3", City: "Olomouc", Zip: "779 00", Country: "CZ", Phone: "+420603000000"},
		Packages: []shipping.Package{{Weight: 3}}}}})
	if err != nil {
		t.Fatal(err)
	}
	e.sb.Advance(40 * time.Minute) // both active now
	f := e.refresher()
	st, err := f.Discover(ctx, 0)
	if err != nil || st.Imported != 1 || !st.Last {
		t.Fatalf("discover: %+v %v", st, err)
	}
	found, err := e.db.RecentShipments(ctx, 10)
	if err != nil || len(found) != 2 {
		t.Fatalf("local shipments %d %v", len(found), err)
	}
	var web storage.Shipment
	for _, s := range found {
		if s.ID != mine.ID {
			web = s
		}
	}
	if web.Origin != "service" || web.Reference != "WEB-1" || web.RecipientName != "Ota Kovář" || !strings.EqualFold(web.Carrier, "FEDEX") {
		t.Errorf("imported %+v", web)
	}
	if events, _ := e.db.Events(ctx, web.ID); len(events) == 0 {
		t.Error("the imported shipment came without its events")
	}
	if st, _ := f.Discover(ctx, 0); st.Imported != 0 {
		t.Errorf("imported twice: %+v", st)
	}
}

// nulProxy stands between the pollers and the sandbox and writes a NUL and a
// control character into every tracking event's name, as a faulty service might.
func nulProxy(t *testing.T, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := httputil.NewSingleHostReverseProxy(u)
	director := p.Director
	p.Director = func(r *http.Request) {
		director(r)
		r.Header.Del("Accept-Encoding")
	}
	p.ModifyResponse = func(resp *http.Response) error {
		if !strings.HasSuffix(resp.Request.URL.Path, "/shipments/tracking") {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		body = bytes.ReplaceAll(body, []byte(`"name":"`), []byte(`"name":"\u0000\u0007`))
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(p)
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestNULInTrackingEventsIsStoredCleaned(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	s := e.order(1)[0]
	c, err := shipping.New(transport.Config{BaseURL: nulProxy(t, e.sb.URL), APIKey: sandboxtest.ShippingKey,
		Retry: transport.Retry{Attempts: 1, Base: time.Millisecond, Max: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	e.ship = c
	f := e.refresher()
	e.sb.Advance(2 * time.Hour)
	e.Clock.Advance(time.Hour)
	if raw, _ := c.Tracking(ctx, []string{s.Tracking()}); len(raw[s.Tracking()].Packages) == 0 ||
		!strings.HasPrefix(raw[s.Tracking()].Packages[0][0].Name, "\x00") {
		t.Fatalf("the proxy did not inject a NUL: %+v", raw)
	}
	st, err := f.Tracking(ctx, []storage.Shipment{s})
	if err != nil || len(st.Failed) != 0 || st.Events == 0 {
		t.Fatalf("tracking: %+v %v", st, err)
	}
	events, err := e.db.Events(ctx, s.ID)
	if err != nil || len(events) == 0 {
		t.Fatalf("events: %v %v", events, err)
	}
	for _, ev := range events {
		if strings.ContainsAny(ev.Name, "\x00\x07") || ev.Name == "" {
			t.Errorf("stored event name %q", ev.Name)
		}
	}
	if got := e.shipment(s.ID); got.LastCheckedAt == nil {
		t.Error("the shipment was not marked as checked")
	}
}

// "Refresh now" records a shipment as the pollers do: the label once the
// carrier has it, and the events the service reports.
func TestRefreshNowRecordsLabelAndTracking(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	s := e.order(1)[0]
	e.sb.Advance(2 * time.Hour)
	if err := e.refresher().RefreshNow(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	got := e.shipment(s.ID)
	if got.LabelStatus != "READY" || got.LastCheckedAt == nil || !got.LastCheckedAt.Equal(e.Clock.Now()) {
		t.Errorf("after refresh now: label %s, checked %v", got.LabelStatus, got.LastCheckedAt)
	}
	tr, err := e.ship.Tracking(ctx, []string{s.Tracking()})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, p := range tr[s.Tracking()].Packages {
		want += len(p)
	}
	if events, _ := e.db.Events(ctx, s.ID); len(events) != want || want == 0 {
		t.Errorf("%d events stored, the service has %d", len(events), want)
	}
}

// A batch's answers are stored together; when that fails, one by one, so one
// answer that cannot be stored does not keep the others from being recorded.
func TestOneUnstorableAnswerLeavesTheBatchRecorded(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	batch := e.order(3)
	e.sb.Advance(2 * time.Minute)
	// Printed before the courier comes: the sandbox's courier takes only labelled parcels.
	if _, err := e.ship.Label(ctx, []string{batch[0].Tracking(), batch[1].Tracking(), batch[2].Tracking()}); err != nil {
		t.Fatal(err)
	}
	e.sb.Advance(18 * time.Minute)
	// The middle shipment goes from the database while its answer is on the way.
	if _, err := e.db.SQL().Exec(`DELETE FROM shipments WHERE id = $1`, batch[1].ID); err != nil {
		t.Fatal(err)
	}
	res, err := e.refresher().Tracking(ctx, batch)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failed) != 1 || res.Failed[0] != batch[1].ID {
		t.Errorf("failed %v, want only %d", res.Failed, batch[1].ID)
	}
	for _, s := range []storage.Shipment{batch[0], batch[2]} {
		got := e.shipment(s.ID)
		events, _ := e.db.Events(ctx, s.ID)
		if got.Status != "INTRANSIT" || len(events) == 0 || res.Events == 0 {
			t.Errorf("shipment %d: %s with %d events (%d received)", s.ID, got.Status, len(events), res.Events)
		}
	}
}
