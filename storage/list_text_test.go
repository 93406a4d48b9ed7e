package storage_test

import (
	"context"
	"testing"
	"time"

	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// A text filter's first and last pages count its matches after their rows:
// in the rows' second statement when the matches are few among the newest
// (it reads them all), else in a count of their own. Either way the page says
// what a count of the filter says: the number up to CountCap, "more" past it,
// and the whole number when asked for it or on the last page.
func TestTextFilterCountsWhereItsRowsAreRead(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	// 6 000 shipments, the newest first by id: Brno every other one; Zuzana
	// 70 times among the newest 3 010; Olga 2 500 times, all among the oldest.
	shipmentsSeries(t, db, 6000,
		`CASE WHEN i <= 3010 AND i % 43 = 0 THEN 'Zuzana ' WHEN i > 3500 THEN 'Olga ' ELSE 'Anna ' END || lpad(i::text, 4, '0')`,
		`CASE WHEN i % 2 = 0 THEN 'Brno' ELSE 'Praha' END`, `CASE WHEN i % 3 = 0 THEN 'DELIVERED' ELSE 'INTRANSIT' END`)
	for _, c := range []struct {
		name  string
		f     storage.ListFilter
		total int
		more  bool
	}{
		{"few, spread over the newest: the rows' second statement counts", storage.ListFilter{Text: "zuzana", Limit: 25}, 70, false},
		{"few, by name", storage.ListFilter{Text: "zuzana", Sort: "recipient", Limit: 25}, 70, false},
		{"past the cap, all among the oldest", storage.ListFilter{Text: "olga", Limit: 25}, storage.CountCap, true},
		{"past the cap, counted in full", storage.ListFilter{Text: "olga", Limit: 25, Exact: true}, 2500, false},
		{"past the cap, the last page", storage.ListFilter{Text: "olga", Limit: 25, Last: true}, 2500, false},
		{"many among the newest: a count of its own", storage.ListFilter{Text: "brno", Limit: 25}, storage.CountCap, true},
		{"many, counted in full", storage.ListFilter{Text: "brno", Limit: 25, Exact: true}, 3000, false},
		{"with another condition", storage.ListFilter{Text: "zuzana", Status: "DELIVERED", Limit: 25}, 23, false},
		{"none", storage.ListFilter{Text: "nobody", Limit: 25}, 0, false},
	} {
		p, err := db.ListShipments(ctx, c.f)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.Total != c.total || p.More != c.more {
			t.Errorf("%s: total %d, more %v; want %d, %v", c.name, p.Total, p.More, c.total, c.more)
		}
		if want := min(c.total, c.f.Limit); len(p.Shipments) != want {
			t.Errorf("%s: %d rows, want %d", c.name, len(p.Shipments), want)
		}
		if c.f.Last && p.Start != c.total-len(p.Shipments) {
			t.Errorf("%s: starts at %d, want %d", c.name, p.Start, c.total-len(p.Shipments))
		}
	}
}

// The text filter reads the stored column PostgreSQL keeps (search_text): a
// recipient written in capitals with Czech letters is found by the same
// words in small letters, and a note added later is found at once.
func TestTextFilterFindsWhatTheStoredColumnHolds(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	shipmentsSeries(t, db, 1, `'ŽANETA ŘÍHOVÁ'`, `'ČESKÉ BUDĚJOVICE'`, `'INTRANSIT'`)
	var id int64
	if err := db.SQL().QueryRow(`SELECT id FROM shipments`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	found := func(text string) bool {
		t.Helper()
		p, err := db.ListShipments(ctx, storage.ListFilter{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		return len(p.Shipments) == 1 && p.Shipments[0].ID == id && p.Total == 1
	}
	for _, text := range []string{"říhová", "Žaneta Ř", "české budějovice", "BUDĚJ"} {
		if !found(text) {
			t.Errorf("%q does not find ŽANETA ŘÍHOVÁ of ČESKÉ BUDĚJOVICE", text)
		}
	}
	if found("sousedů") {
		t.Fatal("found by a note it does not have yet")
	}
	if _, _, err := db.AddShipmentNote(ctx, storage.ShipmentNote{RequestKey: requestkey.New(), ShipmentID: id, Text: "Zvonit u SOUSEDŮ", CreatedAt: time.Now()}, 0); err != nil {
		t.Fatal(err)
	}
	if !found("sousedů") {
		t.Error("a note added later is not found")
	}
}

// shipmentsSeries stores n shipments of UPS, the i-th (from 1, each a minute
// older than the one before) with the recipient, town and status that the
// SQL expressions of i give.
func shipmentsSeries(t *testing.T, db *storage.DB, n int, recipient, town, status string) {
	t.Helper()
	_, err := db.SQL().Exec(`
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, recipient_name, recipient_city,
    tracking_number, status, label_mode, label_status, created_at)
SELECT gen_random_uuid(), 'SER-' || i, 'created', '{}', 'UPS', 301, `+recipient+`, `+town+`,
    'G3S' || lpad(i::text, 8, '0'), `+status+`, 'PRINT', 'READY', now() - i * interval '1 minute'
FROM generate_series(1, $1) AS i`, n)
	if err != nil {
		t.Fatal(err)
	}
}
