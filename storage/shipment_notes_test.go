package storage_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"shipdesk/apperr"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// A note is kept once per request key; the shipment keeps its count and
// latest text for the lists, whose text filter finds it by a note's word
// through the same trigram index as by the recipient.
func TestShipmentNotesKeptOnceAndSearched(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	seedShipments(t, db, 40)
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	key := requestkey.New()
	first, fresh, err := db.AddShipmentNote(ctx, storage.ShipmentNote{RequestKey: key, ShipmentID: 7, Text: "Zvonek Kopřiva", CreatedAt: at}, 0)
	if err != nil || !fresh || first.ShipmentID != 7 || !first.CreatedAt.Equal(at) {
		t.Fatalf("first note: %+v %v %v", first, fresh, err)
	}
	again, fresh, err := db.AddShipmentNote(ctx, storage.ShipmentNote{RequestKey: key, ShipmentID: 7, Text: "Zvonek Kopřiva", CreatedAt: at}, 0)
	if err != nil || fresh || again.ID != first.ID {
		t.Errorf("the same key again: %+v %v %v", again, fresh, err)
	}
	if _, _, err := db.AddShipmentNote(ctx, storage.ShipmentNote{RequestKey: requestkey.New(), ShipmentID: 7, Text: "Druhá", CreatedAt: at.Add(time.Minute)}, 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.AddShipmentNote(ctx, storage.ShipmentNote{RequestKey: requestkey.New(), ShipmentID: 99999, Text: "x", CreatedAt: at}, 0); apperr.CodeOf(err) != apperr.NotFound {
		t.Errorf("a note on no shipment: %v", err)
	}
	notes, err := db.ShipmentNotes(ctx, 7)
	if err != nil || len(notes) != 2 || notes[0].Text != "Druhá" {
		t.Fatalf("notes, newest first: %+v %v", notes, err)
	}
	s, err := db.ShipmentByID(ctx, 7)
	if err != nil || s.NoteCount != 2 || s.LastNote != "Druhá" {
		t.Errorf("the shipment's count and latest note: %d %q %v", s.NoteCount, s.LastNote, err)
	}
	for _, f := range []storage.ListFilter{{Text: "kopřiva"}, {Text: "KOPŘIVA", Sort: "recipient"}, {Text: "zvonek", Sort: "old"}} {
		page, err := db.ListShipments(ctx, f)
		if err != nil || len(page.Shipments) != 1 || page.Shipments[0].ID != 7 || page.Shipments[0].NoteCount != 2 {
			t.Errorf("search %+v: %d rows %v", f, len(page.Shipments), err)
		}
	}
	// The recipient is still found as before.
	if page, err := db.ListShipments(ctx, storage.ListFilter{Text: "brno"}); err != nil || len(page.Shipments) != 20 {
		t.Errorf("search by town: %d %v", len(page.Shipments), err)
	}
	plan := explain(t, db, storage.ListFilter{Text: "kopřiva"})
	if !strings.Contains(plan, "shipments_search_text_idx") {
		t.Errorf("the search by a note does not use the trigram index:\n%s", plan)
	}
}
