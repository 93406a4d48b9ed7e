// Package desktest gives tests of the shipping desk and its pollers a
// database, the sandbox, a client of it and a clock the test moves, and
// orders shipments there the way the desk records them.
package desktest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/desk"
	"shipdesk/requestkey"
	"shipdesk/sandbox/sandboxtest"
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
	Now     time.Time
}

// Start makes an Env; its clock stands where the sandbox's does.
func Start(t testing.TB) *Env {
	t.Helper()
	m := transport.NewMetrics()
	sb := sandboxtest.Start(t)
	c, err := shipping.New(transport.Config{BaseURL: sb.URL, APIKey: sandboxtest.ShippingKey, Metrics: m,
		Retry: transport.Retry{Attempts: 2, Base: time.Millisecond, Max: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return &Env{T: t, Sandbox: sb, DB: pgtest.New(t), Ship: c, Metrics: m, Now: sandboxtest.Epoch}
}

// Order creates n shipments at the service and records them as the desk does.
func (e *Env) Order(n int) []storage.Shipment {
	e.T.Helper()
	ctx := context.Background()
	var out []storage.Shipment
	for i := range n {
		ref := fmt.Sprintf("REF-%s-%d", e.T.Name(), i)
		o := shipping.Order{Currency: "CZK", PaymentType: shipping.PaymentCredit, Shipments: []shipping.Shipment{{
			Type: shipping.PickupOnDemand, Carrier: "g3a", Reference: ref,
			From:     shipping.Address{Company: "Shop", Street: "A 1", City: "Praha", Zip: "110 00", Country: "CZ", Phone: "+420601000000"},
			To:       shipping.Address{Surname: "Malá", Street: "B 2", City: "Brno", Zip: "602 00", Country: "CZ", Phone: "+420602000000"},
			Packages: []shipping.Package{{Weight: 1}, {Weight: 2}}}}}
		created, err := e.Ship.Create(ctx, o)
		if err != nil {
			e.T.Fatal(err)
		}
		s, _, _, err := e.DB.BeginShipment(ctx, storage.Shipment{RequestKey: requestkey.New(), Reference: ref, Request: []byte("{}"),
			Carrier: "G3A", ServiceID: created.Shipments[0].ServiceID, RecipientName: "Malá"}, e.Now, e.Now.Add(time.Minute))
		if err != nil {
			e.T.Fatal(err)
		}
		if _, err := e.DB.RecordShipment(ctx, s.ID, desk.ReplyOf(created.Shipments[0]), e.Now); err != nil {
			e.T.Fatal(err)
		}
		if s, err = e.DB.ShipmentByID(ctx, s.ID); err != nil {
			e.T.Fatal(err)
		}
		out = append(out, s)
	}
	return out
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
