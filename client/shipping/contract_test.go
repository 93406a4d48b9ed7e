package shipping_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/clock"
	"shipdesk/sandbox/sandboxtest"
)

var ctx = context.Background()

func client(t *testing.T, env *sandboxtest.Env, key string) (*shipping.Client, *transport.Metrics) {
	t.Helper()
	m := transport.NewMetrics(clock.Real())
	c, err := shipping.New(transport.Config{BaseURL: env.URL, APIKey: key, Metrics: m, Timeout: 5 * time.Second,
		Retry: transport.Retry{Base: 5 * time.Millisecond, Max: 20 * time.Millisecond}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}

func addr(city, zip string) shipping.Address {
	return shipping.Address{Firstname: "Jan", Surname: "Novák", Street: "Dlouhá 5", City: city, Zip: zip, Country: "CZ", Phone: "+420777111222"}
}

func shipment(carrier, ref string) shipping.Shipment {
	return shipping.Shipment{Type: shipping.PickupOnDemand, Carrier: carrier, From: addr("Praha", "110 00"), To: addr("Brno", "602 00"),
		Packages: []shipping.Package{{Weight: 2, Width: 20, Height: 10, Length: 30}}, Reference: ref}
}

func order(s ...shipping.Shipment) shipping.Order {
	return shipping.Order{Currency: "CZK", PaymentType: shipping.PaymentCredit, Shipments: s}
}

func calls(m *transport.Metrics, op string) int64 {
	var n int64
	for _, c := range m.Counters() {
		if c.Op == op {
			n += c.Calls
		}
	}
	return n
}

func TestRatesCreateDetailLabel(t *testing.T) {
	env := sandboxtest.Start(t)
	c, _ := client(t, env, sandboxtest.ShippingKey)
	rates, err := c.Rates(ctx, shipping.RateRequest{Currency: "CZK", Shipment: shipment("", "")})
	if err != nil || len(rates) == 0 {
		t.Fatalf("rates: %v %v", rates, err)
	}
	for _, r := range rates {
		if r.LabelMode == "" || r.Price.Currency != "CZK" || r.ServiceID == 0 {
			t.Errorf("offer not decoded: %+v", r)
		}
	}
	created, err := c.Create(ctx, order(shipment("ups", "C-1")))
	if err != nil {
		t.Fatal(err)
	}
	tn := created.Shipments[0].TrackingNumber
	if created.OrderToken == "" || created.OrderNumber == "" || created.Shipments[0].LabelStatus != shipping.LabelPending {
		t.Errorf("created %+v", created)
	}
	if _, err := c.Label(ctx, []string{tn}); !transport.IsNotFound(err) {
		t.Errorf("label before export: %v", err)
	}
	env.Advance(2 * time.Minute)
	d, err := c.Detail(ctx, shipping.DetailRequest{Shipments: []string{tn}}, true)
	if err != nil || d[tn].LabelStatus != shipping.LabelReady || d[tn].TrackingInformation == nil || d[tn].OrderDate == "" {
		t.Fatalf("detail %+v %v", d[tn], err)
	}
	pdf, err := c.Label(ctx, []string{tn})
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Errorf("label: %v", err)
	}
	if _, err := c.Detail(ctx, shipping.DetailRequest{Shipments: []string{"NOPE"}}, false); !transport.IsNotFound(err) {
		t.Errorf("detail of nothing: %v", err)
	}
	m, err := c.Manifest(ctx, []string{tn})
	if err != nil || !bytes.HasPrefix(m, []byte("%PDF-")) {
		t.Errorf("manifest: %v", err)
	}
}

func TestFieldErrorsAreKept(t *testing.T) {
	env := sandboxtest.Start(t)
	c, _ := client(t, env, sandboxtest.ShippingKey)
	s := shipment("sps", "")
	s.Type, s.LabelLess, s.PickupBranch = shipping.PickupRegular, true, "1"
	err := c.Validate(ctx, order(s))
	if !transport.IsInvalid(err) || !transport.HasFieldErrors(err) {
		t.Fatalf("validate: %v", err)
	}
	found := false
	for _, fe := range transport.FieldErrors(err) {
		if fe.Field == "shipments[0].label_less" && fe.Message != "" {
			found = true
		}
	}
	if !found {
		t.Errorf("no shipments[0].label_less in %+v", transport.FieldErrors(err))
	}
	if _, err := c.Rates(ctx, shipping.RateRequest{Shipment: shipping.Shipment{Type: "SOMETIMES"}}); !transport.HasFieldErrors(err) {
		t.Errorf("rates with a bad type: %v", err)
	}
}

func TestLoginOperationsNeedAValidKey(t *testing.T) {
	env := sandboxtest.Start(t)
	c, _ := client(t, env, "not-a-key")
	if _, err := c.List(ctx, shipping.ListQuery{}); !transport.IsUnauthorized(err) {
		t.Errorf("list: %v", err)
	}
	if _, err := c.Label(ctx, []string{"X"}); !transport.IsUnauthorized(err) {
		t.Errorf("label: %v", err)
	}
	if _, err := c.Contacts(ctx); !transport.IsUnauthorized(err) {
		t.Errorf("contacts: %v", err)
	}
	if err := c.Storno(ctx, []string{"X"}); !transport.IsUnauthorized(err) {
		t.Errorf("storno: %v", err)
	}
	// Public operations work and are processed as unauthenticated.
	if _, err := c.Rates(ctx, shipping.RateRequest{Currency: "CZK", Shipment: shipment("", "")}); err != nil {
		t.Errorf("rates without a valid key: %v", err)
	}
}

func TestReadsAreRetriedThroughFaults(t *testing.T) {
	env := sandboxtest.Start(t)
	c, m := client(t, env, sandboxtest.ShippingKey)
	created, err := c.Create(ctx, order(shipment("ups", "R-1")))
	if err != nil {
		t.Fatal(err)
	}
	tn := created.Shipments[0].TrackingNumber
	env.Fault("/api/v1/shipments/tracking", map[string]any{"error_rate": 1, "count": 2})
	if tr, err := c.Tracking(ctx, []string{tn}); err != nil || tr[tn].Status == "" {
		t.Errorf("tracking after two 503s: %v", err)
	}
	if n := calls(m, "shipments/tracking"); n != 3 {
		t.Errorf("%d tracking calls, want 3", n)
	}
	env.Fault("/api/v1/shipments/list", map[string]any{"drop_rate": 1, "count": 1})
	if page, err := c.List(ctx, shipping.ListQuery{Reference: "R-1"}); err != nil || len(page.Shipments) != 1 {
		t.Errorf("list after a dropped connection: %v", err)
	}
}

// A create whose answer is lost is not repeated; the order exists once and is
// found by reference.
func TestCreateIsNotRepeated(t *testing.T) {
	env := sandboxtest.Start(t)
	c, m := client(t, env, sandboxtest.ShippingKey)
	env.Fault("/api/v1/shipments/create", map[string]any{"drop_after_rate": 1, "count": 1})
	_, err := c.Create(ctx, order(shipment("ups", "LOST-1")))
	if !transport.IsOutcomeUnknown(err) {
		t.Fatalf("lost answer: %v, want outcome unknown", err)
	}
	if n := calls(m, "shipments/create"); n != 1 {
		t.Errorf("%d create attempts", n)
	}
	page, err := c.List(ctx, shipping.ListQuery{Reference: "LOST-1"})
	if err != nil || len(page.Shipments) != 1 {
		t.Errorf("reconcile by reference: %+v %v", page, err)
	}
	env.Fault("/api/v1/shipments/create", map[string]any{"error_rate": 1, "count": 1})
	if _, err := c.Create(ctx, order(shipment("ups", "BUSY-1"))); !transport.IsTemporary(err) || transport.IsOutcomeUnknown(err) {
		t.Errorf("503 on create: %v", err)
	}
	if n := calls(m, "shipments/create"); n != 2 {
		t.Errorf("503 create was repeated: %d attempts", n)
	}
}

func TestTrackAllUsesCeilNOverBatchCalls(t *testing.T) {
	env := sandboxtest.Start(t)
	c, m := client(t, env, sandboxtest.ShippingKey)
	var tns []string
	for i := 0; i < 7; i++ {
		cr, err := c.Create(ctx, order(shipment("ups", fmt.Sprintf("T-%d", i))))
		if err != nil {
			t.Fatal(err)
		}
		tns = append(tns, cr.Shipments[0].TrackingNumber)
	}
	env.Advance(20 * time.Minute)
	got, err := c.TrackAll(ctx, tns, 3)
	if err != nil || len(got) != 7 {
		t.Fatalf("track all: %d, %v", len(got), err)
	}
	if n := calls(m, "shipments/tracking"); n != 3 {
		t.Errorf("%d tracking calls for 7 shipments in batches of 3, want 3", n)
	}
	for _, tn := range tns {
		if len(got[tn].Packages) != 1 || len(got[tn].Packages[0]) == 0 {
			t.Errorf("%s: no events", tn)
		}
	}
	if b := shipping.Batches(make([]string, 10), 4); len(b) != 3 || len(b[2]) != 2 {
		t.Errorf("batches %v", b)
	}
}

func TestPointsContactsStornoList(t *testing.T) {
	env := sandboxtest.Start(t)
	c, _ := client(t, env, sandboxtest.ShippingKey)
	p1, err := c.ParcelPoints(ctx, shipping.PointQuery{Carrier: "sps", Country: "CZ", PerPage: 50})
	if err != nil || len(p1.Points) != 50 || p1.Total < 100 || p1.Points[0].Code == "" || p1.Points[0].LocationID == 0 {
		t.Fatalf("points: %+v %v", p1, err)
	}
	p2, _ := c.ParcelPoints(ctx, shipping.PointQuery{Carrier: "sps", Country: "CZ", PerPage: 50, Page: 2})
	if p2.Points[0].ID <= p1.Points[49].ID {
		t.Errorf("page 2 does not follow page 1")
	}
	if _, err := c.ParcelPoints(ctx, shipping.PointQuery{Carrier: "nope"}); !transport.HasFieldErrors(err) {
		t.Errorf("unknown carrier: %v", err)
	}
	contacts, err := c.Contacts(ctx)
	if err != nil || len(contacts) == 0 || contacts[0].ID == 0 || contacts[0].City == "" {
		t.Fatalf("contacts %+v %v", contacts, err)
	}
	s := shipment("ups", "S-1")
	s.From = shipping.Address{ID: contacts[0].ID}
	cr, err := c.Create(ctx, order(s))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Storno(ctx, []string{cr.Shipments[0].TrackingNumber}); err != nil {
		t.Errorf("storno: %v", err)
	}
	page, err := c.List(ctx, shipping.ListQuery{Status: shipping.ListStorno})
	if err != nil || len(page.Shipments) != 1 || page.Shipments[0].Status != shipping.StatusCancelled {
		t.Errorf("storno list %+v %v", page, err)
	}
}
