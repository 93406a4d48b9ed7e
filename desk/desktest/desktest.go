// Package desktest gives tests of the shipping desk and its pollers a
// database, the sandbox, a client of it and a clock the test moves, and
// orders shipments there the way the desk records them.
package desktest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/clock"
	"shipdesk/desk"
	"shipdesk/requestkey"
	"shipdesk/sandbox/sandboxtest"
	sbshipping "shipdesk/sandbox/shipping"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// Env is a fresh database and sandbox with a client and a clock.
type Env struct {
	T       testing.TB
	Sandbox *sandboxtest.Env
	DB      *storage.DB
	Ship    *shipping.Client
	Metrics *transport.Metrics
	// Clock is the desk's clock, which the test moves; it starts where the
	// sandbox's stands and stays still unless moved, apart from the sandbox's.
	Clock *clock.Clock

	many int // OrderMany's calls, which name their references
}

// Start makes an Env; its clock stands where the sandbox's starts.
func Start(t testing.TB) *Env {
	t.Helper()
	return On(t, sandboxtest.Start(t), pgtest.New(t))
}

// On makes an Env of a running sandbox and a migrated database.
func On(t testing.TB, sb *sandboxtest.Env, db *storage.DB) *Env {
	t.Helper()
	m := transport.NewMetrics(clock.Real())
	c, err := shipping.New(transport.Config{BaseURL: sb.URL, APIKey: sandboxtest.ShippingKey, Metrics: m,
		Retry: transport.Retry{Attempts: 2, Base: time.Millisecond, Max: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return &Env{T: t, Sandbox: sb, DB: db, Ship: c, Metrics: m, Clock: clock.Frozen(sandboxtest.Epoch)}
}

// order is the order of one shipment that tests make.
func order(ref string) shipping.Order {
	return shipping.Order{Currency: "CZK", PaymentType: shipping.PaymentCredit, Shipments: []shipping.Shipment{{
		Type: shipping.PickupOnDemand, Carrier: strings.ToLower(sandboxtest.ExpressCarrier), Reference: ref,
		From:     shipping.Address{Company: "Shop", Street: "A 1", City: "Praha", Zip: "110 00", Country: "CZ", Phone: "+420601000000"},
		To:       shipping.Address{Surname: "Malá", Street: "B 2", City: "Brno", Zip: "602 00", Country: "CZ", Phone: "+420602000000"},
		Packages: []shipping.Package{{Weight: 1}, {Weight: 2}}}}}
}

// Order creates n shipments at the service and records them as the desk does.
func (e *Env) Order(n int) []storage.Shipment {
	e.T.Helper()
	ctx := context.Background()
	var out []storage.Shipment
	for i := range n {
		ref := fmt.Sprintf("REF-%s-%d", e.T.Name(), i)
		created, err := e.Ship.Create(ctx, order(ref))
		if err != nil {
			e.T.Fatal(err)
		}
		s, _, _, err := e.DB.BeginShipment(ctx, storage.Shipment{RequestKey: requestkey.New(), Reference: ref, Request: []byte("{}"),
			Carrier: sandboxtest.ExpressCarrier, ServiceID: created.Shipments[0].ServiceID, RecipientName: "Malá"}, e.Clock.Now(), e.Clock.Now().Add(time.Minute))
		if err != nil {
			e.T.Fatal(err)
		}
		if _, err := e.DB.RecordShipment(ctx, s.ID, desk.ReplyOf(created.Shipments[0]), e.Clock.Now()); err != nil {
			e.T.Fatal(err)
		}
		if s, err = e.DB.ShipmentByID(ctx, s.ID); err != nil {
			e.T.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// OrderMany makes n shipments like Order's at the sandbox at once
// (sbshipping.Service.CreateMany, not n calls) and stores them in one INSERT as
// the desk knows created shipments once their labels are ready and printed:
// exported, due a tracking update. Their labels count as fetched at the
// sandbox (sbshipping.Service.LabelsFetched), so its courier takes them on
// time. It returns their ids. Tests and benchmarks of the pollers
// at scale start here.
func (e *Env) OrderMany(n int) []int64 {
	e.T.Helper()
	e.many++
	body, err := json.Marshal(order(fmt.Sprintf("MANY-%d-%s", e.many, e.T.Name())))
	if err != nil {
		e.T.Fatal(err)
	}
	made, err := e.Sandbox.Sandbox.Shipping.CreateMany(sandboxtest.ShippingKey, body, n)
	if err != nil {
		e.T.Fatal(err)
	}
	numbers := make([]string, len(made))
	for i, m := range made {
		numbers[i] = m.TrackingNumber
	}
	if err := e.Sandbox.Sandbox.Shipping.LabelsFetched(sandboxtest.ShippingKey, numbers); err != nil {
		e.T.Fatal(err)
	}
	type row struct {
		sbshipping.Made
		Packages storage.Packages
	}
	rows := make([]row, len(made))
	for i, m := range made {
		rows[i] = row{Made: m}
		for _, p := range m.Packages {
			rows[i].Packages = append(rows[i].Packages, storage.PackageInfo{Number: p, Status: "EXPORTED"})
		}
	}
	doc, err := json.Marshal(rows)
	if err != nil {
		e.T.Fatal(err)
	}
	res, err := e.DB.SQL().Query(`
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, recipient_name, recipient_city,
    tracking_number, order_id, order_number, order_token, status, label_mode, label_status, packages,
    created_at, ordered_at, last_checked_at, printed_at)
SELECT gen_random_uuid(), m->>'Reference', 'created', '{}', m->>'Carrier', (m->>'ServiceID')::int, 'Malá', 'Brno',
    m->>'TrackingNumber', (m->>'OrderID')::bigint, m->>'OrderNumber', m->>'OrderToken', 'EXPORTED', m->>'LabelMode', 'READY',
    m->'Packages', $2, $2, $2, $2
FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS a(m, i)
ORDER BY i
RETURNING id`, string(doc), e.Clock.Now())
	if err != nil {
		e.T.Fatal(err)
	}
	defer res.Close()
	ids := make([]int64, 0, n)
	for res.Next() {
		var id int64
		if err := res.Scan(&id); err != nil {
			e.T.Fatal(err)
		}
		ids = append(ids, id)
	}
	if err := res.Err(); err != nil {
		e.T.Fatal(err)
	}
	if _, err := e.DB.SQL().Exec(`ANALYZE shipments`); err != nil {
		e.T.Fatal(err)
	}
	return ids
}

// Shipment reads a shipment again.
func (e *Env) Shipment(id int64) storage.Shipment {
	e.T.Helper()
	s, err := e.DB.ShipmentByID(context.Background(), id)
	if err != nil {
		e.T.Fatal(err)
	}
	return s
}

// Calls counts the client's calls of an operation.
func (e *Env) Calls(op string) int64 {
	var n int64
	for _, c := range e.Metrics.Counters() {
		if c.Op == op {
			n += c.Calls
		}
	}
	return n
}

// SettledBatch waits until no row of the batch is being priced or ordered
// (that work runs in the background) and returns its rows.
func SettledBatch(t testing.TB, db *storage.DB, batch int64) []storage.BatchRow {
	t.Helper()
	for waited := clock.Start(); ; time.Sleep(20 * time.Millisecond) {
		rows, err := db.BatchRows(context.Background(), batch)
		if err != nil {
			t.Fatal(err)
		}
		busy := false
		for _, r := range rows {
			busy = busy || r.State == storage.RowPricing || r.State == storage.RowOrdering
		}
		if !busy {
			return rows
		}
		if waited.Elapsed() > 90*time.Second {
			t.Fatalf("batch %d still busy", batch)
		}
	}
}
