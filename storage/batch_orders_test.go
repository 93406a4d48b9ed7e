package storage_test

import (
	"context"
	"testing"
	"time"

	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// A batch's rows record their intents together: each with its first
// attempt before any is sent, as BeginShipment records one; an intent
// recorded before under its key is left to BeginShipment, and a taken
// reference refuses the whole statement, recording none.
func TestBatchIntentsRecordedTogether(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	sent := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	deadline := sent.Add(2 * time.Minute)
	cod, currency, price := 350.5, "CZK", 89.0
	intent := func(ref string) storage.Shipment {
		return storage.Shipment{RequestKey: requestkey.New(), Reference: ref, Request: []byte(`{"currency":"CZK"}`), Carrier: "X",
			ServiceID: 7, ServiceName: "Express", RecipientName: "Jana Nováková", RecipientCity: "Brno"}
	}
	before, _, _, err := db.BeginShipment(ctx, intent("B-0"), sent, deadline)
	if err != nil {
		t.Fatal(err)
	}
	withCOD := intent("B-2")
	withCOD.CODValue, withCOD.CODCurrency, withCOD.PriceVAT, withCOD.PriceCurrency = &cod, &currency, &price, &currency
	list := []storage.Shipment{intent("B-1"), withCOD, {RequestKey: before.RequestKey, Reference: "B-0", Request: []byte("{}")}}
	got, err := db.BeginShipments(ctx, list, sent, deadline)
	if err != nil || len(got) != 2 {
		t.Fatalf("recorded %d of 3 (one was recorded before): %v", len(got), err)
	}
	for _, in := range list[:2] {
		b, ok := got[in.RequestKey]
		if !ok || b.Shipment.Reference != in.Reference || b.Shipment.State != storage.StateOrdering || b.Attempt == 0 ||
			b.Shipment.SettlesAt == nil || !b.Shipment.SettlesAt.Equal(deadline) || !b.Shipment.CreatedAt.Equal(sent) {
			t.Fatalf("%s: %+v", in.Reference, b)
		}
		attempts, err := db.ShipmentAttempts(ctx, b.Shipment.ID)
		if err != nil || len(attempts) != 1 || attempts[0].ID != b.Attempt || !attempts[0].Deadline.Equal(deadline) {
			t.Errorf("%s: attempts %+v %v", in.Reference, attempts, err)
		}
	}
	stored, err := db.ShipmentByID(ctx, got[withCOD.RequestKey].Shipment.ID)
	if err != nil || stored.CODValue == nil || *stored.CODValue != cod || *stored.PriceVAT != price || stored.ServiceID != 7 ||
		string(stored.Request) != `{"currency": "CZK"}` || stored.RecipientCity != "Brno" {
		t.Errorf("stored as given: %+v %v", stored, err)
	}
	fresh := intent("B-3")
	if got, err := db.BeginShipments(ctx, []storage.Shipment{fresh, intent("B-1")}, sent, deadline); err == nil || len(got) != 0 {
		t.Errorf("a taken reference: %v %v", got, err)
	}
	if _, err := db.ShipmentByKey(ctx, fresh.RequestKey); err == nil {
		t.Error("the statement refused still recorded an intent")
	}
}

// Created orders are recorded with their rows' outcomes as RecordCreated
// records one; an order bound to another meanwhile keeps the answer as a
// duplicate. Matches asked together answer as RowMatches asks one.
func TestBatchCreatedAndMatchesTogether(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	var ids []int64
	var attempts []int64
	for _, ref := range []string{"C-1", "C-2"} {
		s, attempt, _, err := db.BeginShipment(ctx, storage.Shipment{RequestKey: requestkey.New(), Reference: ref, Request: []byte("{}")}, at, at.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		ids, attempts = append(ids, s.ID), append(attempts, attempt)
	}
	if _, err := db.RecordShipment(ctx, ids[1], storage.Reply{TrackingNumber: "T-OTHER", Status: "NEW"}, at); err != nil {
		t.Fatal(err)
	}
	reply := func(n string) storage.Reply {
		return storage.Reply{TrackingNumber: n, OrderID: 5, OrderNumber: "O-" + n, Status: "NEW", LabelStatus: "PENDING",
			Packages: storage.Packages{{Number: n}}}
	}
	duplicates, err := db.RecordRows(ctx, []storage.RowOutcome{
		{Ordered: -1, Shipment: &ids[0], Created: &storage.Created{Attempt: attempts[0], Reply: reply("T-1"), At: at}},
		{Ordered: -2, Shipment: &ids[1], Created: &storage.Created{Attempt: attempts[1], Reply: reply("T-2"), At: at}},
	})
	if err != nil || len(duplicates) != 1 || duplicates[0] != ids[1] {
		t.Fatalf("duplicates %v %v", duplicates, err)
	}
	s, err := db.ShipmentByID(ctx, ids[0])
	if err != nil || s.State != storage.StateCreated || s.Tracking() != "T-1" || s.OrderNumber == nil || *s.OrderNumber != "O-T-1" ||
		len(s.Packages) != 1 || s.OrderedAt == nil || !s.OrderedAt.Equal(at) {
		t.Errorf("created: %+v %v", s, err)
	}
	if a, err := db.ShipmentAttempts(ctx, ids[0]); err != nil || len(a) != 1 || a[0].Outcome != storage.AttemptCreated {
		t.Errorf("attempt: %+v %v", a, err)
	}
	if s, err := db.ShipmentByID(ctx, ids[1]); err != nil || s.Tracking() != "T-OTHER" || len(s.Duplicates) != 1 || s.Duplicates[0] != "T-2" {
		t.Errorf("bound to another: %+v %v", s, err)
	}
	asks := []storage.RowMatch{{Key: s.RequestKey, Reference: "C-1", Row: 10}, {Reference: "C-2", Row: 11}, {Reference: "NONE", Fingerprint: "f", Row: 12}}
	together, err := db.RowMatchesOf(ctx, asks)
	if err != nil || len(together) != len(asks) {
		t.Fatalf("matches: %v %v", together, err)
	}
	for i, a := range asks {
		var refs []string
		if a.Reference != "" {
			refs = []string{a.Reference}
		}
		keyed, alone, err := db.RowMatches(ctx, a.Key, refs, []string{a.Fingerprint}, a.Row)
		if err != nil || keyed != together[i].Keyed || len(alone) != len(together[i].Matches) {
			t.Errorf("ask %d: together %+v, alone %v %+v %v", i, together[i], keyed, alone, err)
		}
	}
	if !together[0].Keyed || len(together[1].Matches) != 1 || len(together[2].Matches) != 0 {
		t.Errorf("matches: %+v", together)
	}
}
