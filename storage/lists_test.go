package storage_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// seedShipments stores n created shipments with distinct times and names.
func seedShipments(t *testing.T, db *storage.DB, n int) {
	t.Helper()
	_, err := db.SQL().Exec(`
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, recipient_name, recipient_city,
    tracking_number, status, label_mode, label_status, packages, created_at)
SELECT gen_random_uuid(), 'REF-' || i, 'created', '{}', (ARRAY['ZASILKOVNA', 'PPL', 'UPS'])[1 + i % 3], 301, 'Name ' || chr(65 + (i * 7) % 26) || i,
    CASE WHEN i % 2 = 0 THEN 'Brno' ELSE 'Praha' END, 'G3' || lpad(i::text, 8, '0'),
    CASE WHEN i % 4 = 0 THEN 'DELIVERED' ELSE 'INTRANSIT' END, 'PRINT', 'READY',
    jsonb_build_array(jsonb_build_object('number', 'PK' || i)), now() - i * interval '1 minute'
FROM generate_series(1, $1) AS i`, n)
	if err != nil {
		t.Fatal(err)
	}
}

func TestKeysetPagingVisitsEveryRowOnce(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	seedShipments(t, db, 57)
	for _, sort := range []string{"new", "old", "recipient"} {
		f := storage.ListFilter{Sort: sort, Limit: 10}
		var seen []int64
		var keys []string
		for pages := 0; pages < 10; pages++ {
			page, err := db.ListShipments(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range page.Shipments {
				seen = append(seen, s.ID)
				keys = append(keys, s.CreatedAt.UTC().Format(time.RFC3339Nano))
			}
			if page.Next == "" {
				break
			}
			f.After = page.Next
		}
		if len(seen) != 57 || len(slicesCompact(seen)) != 57 {
			t.Errorf("%s: %d rows, %d distinct", sort, len(seen), len(slicesCompact(seen)))
		}
		// The pages together are the one-page answer, in the database's order.
		whole, err := db.ListShipments(ctx, storage.ListFilter{Sort: sort, Limit: 200})
		if err != nil {
			t.Fatal(err)
		}
		var want []int64
		for _, s := range whole.Shipments {
			want = append(want, s.ID)
		}
		if !slices.Equal(seen, want) {
			t.Errorf("%s: pages give %v, one page %v", sort, seen, want)
		}
		if sort != "recipient" && !slices.IsSorted(keys) == (sort == "old") {
			t.Errorf("%s: not in time order", sort)
		}
	}
	// Filters combine: delivered in Brno.
	page, err := db.ListShipments(ctx, storage.ListFilter{Status: "DELIVERED", Text: "brno", Limit: 100})
	if err != nil || len(page.Shipments) != 14 {
		t.Errorf("delivered in Brno: %d %v", len(page.Shipments), err)
	}
	if _, err := db.ListShipments(ctx, storage.ListFilter{After: "garbage!"}); err == nil {
		t.Error("a damaged cursor is accepted")
	}
	n := 0
	if err := db.EachShipment(ctx, storage.ListFilter{Carrier: "PPL"}, func(storage.Shipment) error { n++; return nil }); err != nil || n != 19 {
		t.Errorf("export of PPL: %d %v", n, err)
	}
}

func slicesCompact(ids []int64) []int64 {
	c := slices.Clone(ids)
	slices.Sort(c)
	return slices.Compact(c)
}

func TestScanByTrackingPackageAndReference(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	seedShipments(t, db, 30)
	for code, wantExact := range map[string]bool{"G300000007": true, "g300000007": true, "PK7": true, "REF-7": true, "G30000001": false, "REF-1": true} {
		found, exact, err := db.Scan(ctx, code, 10)
		if err != nil || exact != wantExact || len(found) == 0 {
			t.Errorf("%s: exact %v, %d found, %v", code, exact, len(found), err)
		}
	}
	if found, _, _ := db.Scan(ctx, "%", 10); len(found) != 0 {
		t.Errorf("%% matched %d", len(found))
	}
	// A number typed in groups or with dashes is the number.
	for _, typed := range []string{"G3 000 000 07", "G3-000-000-07", "g3 00000007"} {
		found, exact, err := db.Scan(ctx, typed, 10)
		if err != nil || !exact || len(found) != 1 || found[0].Tracking() != "G300000007" {
			t.Errorf("%q: exact %v, %d found, %v", typed, exact, len(found), err)
		}
	}
}
