package storage_test

import (
	"context"
	"encoding/base64"
	"slices"
	"testing"

	"shipdesk/apperr"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

func idsOf(rows []storage.Shipment) []int64 {
	out := make([]int64, 0, len(rows))
	for _, s := range rows {
		out = append(out, s.ID)
	}
	return out
}

// Pages forward from the first, backward from the last, and back and forth
// in the middle are exactly the slices of the one-page answer, with the
// filter's total and the page's place; ties on the sort key (one creation
// time, one recipient's name for many rows) neither repeat nor lose a row.
func TestKeysetPagingBothWays(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	seedShipments(t, db, 57)
	if _, err := db.SQL().Exec(`UPDATE shipments SET created_at = timestamptz '2026-11-20 10:00:00+01', recipient_name = 'Jana Tie'
		WHERE id % 4 = 0`); err != nil {
		t.Fatal(err)
	}
	const limit = 10
	for _, sort := range []string{"new", "old", "recipient"} {
		t.Run(sort, func(t *testing.T) {
			whole, err := db.ListShipments(ctx, storage.ListFilter{Sort: sort, Limit: 200})
			if err != nil || len(whole.Shipments) != 57 || whole.Total != 57 || whole.Next != "" || whole.Prev != "" {
				t.Fatalf("one page: %d rows, total %d, next %q, prev %q, %v", len(whole.Shipments), whole.Total, whole.Next, whole.Prev, err)
			}
			all := idsOf(whole.Shipments)
			check := func(what string, p storage.ListPage, start int) {
				t.Helper()
				end := min(start+limit, 57)
				if p.Total != 57 || p.Start != start || !slices.Equal(idsOf(p.Shipments), all[start:end]) {
					t.Fatalf("%s: start %d total %d rows %v; want start %d rows %v", what, p.Start, p.Total, idsOf(p.Shipments), start, all[start:end])
				}
				if (p.Prev == "") != (start == 0) || (p.Next == "") != (end == 57) {
					t.Fatalf("%s (start %d): prev %q next %q", what, start, p.Prev, p.Next)
				}
			}
			f := storage.ListFilter{Sort: sort, Limit: limit}
			p, err := db.ListShipments(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			check("first", p, 0)
			// Forward to the end.
			var forward []storage.ListPage
			for start := 0; ; start += limit {
				forward = append(forward, p)
				if p.Next == "" {
					break
				}
				if p, err = db.ListShipments(ctx, storage.ListFilter{Sort: sort, Limit: limit, After: p.Next}); err != nil {
					t.Fatal(err)
				}
				check("next", p, start+limit)
			}
			if len(forward) != 6 {
				t.Fatalf("%d pages forward", len(forward))
			}
			// Back from the last page of the forward walk: each previous page
			// is the forward page before it.
			for i := len(forward) - 1; i > 0; i-- {
				prev, err := db.ListShipments(ctx, storage.ListFilter{Sort: sort, Limit: limit, Before: forward[i].Prev})
				if err != nil {
					t.Fatal(err)
				}
				check("previous", prev, (i-1)*limit)
				// and next from there is the page we came from
				again, err := db.ListShipments(ctx, storage.ListFilter{Sort: sort, Limit: limit, After: prev.Next})
				if err != nil {
					t.Fatal(err)
				}
				check("next after previous", again, i*limit)
			}
			// The last page is the last ten rows; back from it to the start,
			// where the short rest becomes the full first page.
			last, err := db.ListShipments(ctx, storage.ListFilter{Sort: sort, Limit: limit, Last: true})
			if err != nil {
				t.Fatal(err)
			}
			if last.Start != 47 || last.Next != "" || last.Prev == "" || !slices.Equal(idsOf(last.Shipments), all[47:]) {
				t.Fatalf("last: start %d rows %v next %q", last.Start, idsOf(last.Shipments), last.Next)
			}
			p = last
			for _, start := range []int{37, 27, 17, 7} {
				if p, err = db.ListShipments(ctx, storage.ListFilter{Sort: sort, Limit: limit, Before: p.Prev}); err != nil {
					t.Fatal(err)
				}
				check("back from the last", p, start)
			}
			if p, err = db.ListShipments(ctx, storage.ListFilter{Sort: sort, Limit: limit, Before: p.Prev}); err != nil {
				t.Fatal(err)
			}
			check("back to the start", p, 0)
		})
	}
}

func TestListTotalsAndPageSizes(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	seedShipments(t, db, 57)
	for _, c := range []struct {
		f     storage.ListFilter
		total int
	}{
		{storage.ListFilter{}, 57},
		{storage.ListFilter{Status: "DELIVERED"}, 14},
		{storage.ListFilter{Status: "DELIVERED", Text: "brno"}, 14},
		{storage.ListFilter{Carrier: "PPL"}, 19},
		{storage.ListFilter{Text: "nobody at all"}, 0},
	} {
		p, err := db.ListShipments(ctx, c.f)
		if err != nil || p.Total != c.total || len(p.Shipments) != min(c.total, storage.DefaultPageSize) {
			t.Errorf("%+v: total %d, %d rows, %v; want %d", c.f, p.Total, len(p.Shipments), err, c.total)
		}
		if c.total == 0 && (p.Next != "" || p.Prev != "" || p.Start != 0) {
			t.Errorf("an empty list has links: %+v", p)
		}
	}
	for _, size := range storage.PageSizes {
		var rows, pages int
		f := storage.ListFilter{Limit: size}
		for {
			p, err := db.ListShipments(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Shipments) > size || p.Start != rows {
				t.Fatalf("size %d: page of %d from %d, want from %d", size, len(p.Shipments), p.Start, rows)
			}
			rows, pages = rows+len(p.Shipments), pages+1
			if p.Next == "" {
				break
			}
			f.After = p.Next
		}
		if want := (57 + size - 1) / size; rows != 57 || pages != want {
			t.Errorf("size %d: %d rows in %d pages, want 57 in %d", size, rows, pages, want)
		}
	}
}

// A page link that was cut, edited or made for another order is refused as
// invalid input, before the database sees it.
func TestDamagedCursorsAreRefused(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	seedShipments(t, db, 12)
	first, err := db.ListShipments(ctx, storage.ListFilter{Limit: 5})
	if err != nil || first.Next == "" {
		t.Fatal(first, err)
	}
	byName, err := db.ListShipments(ctx, storage.ListFilter{Sort: "recipient", Limit: 5})
	if err != nil || byName.Next == "" {
		t.Fatal(byName, err)
	}
	enc := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	for name, f := range map[string]storage.ListFilter{
		"garbage":          {After: "%%%"},
		"other order":      {Sort: "recipient", After: first.Next},
		"other order back": {Sort: "old", Before: first.Next},
		"name for times":   {After: byName.Next},
		"NUL in a name":    {Sort: "recipient", After: enc("r:5:0:Jana\x00")},
		"broken UTF-8":     {Sort: "recipient", Before: enc("r:5:0:\xff\xfe")},
		"year 300000":      {After: enc("n:5:0:9999999999999999999")},
		"year 1":           {After: enc("n:5:0:-62135596800000000")},
		"id 0":             {After: enc("n:0:0:1700000000000000")},
		"negative place":   {After: enc("n:5:-3:1700000000000000")},
		"old format":       {After: enc("5:1700000000000000")},
		"both ways":        {After: first.Next, Before: first.Next},
		"after and last":   {After: first.Next, Last: true},
		"huge":             {After: string(make([]byte, 10000))},
		"SQL":              {After: enc("n:5:0:1; DROP TABLE shipments")},
		"SQL in a name":    {Sort: "recipient", After: enc("r:5:0:'); DROP TABLE shipments; --")},
	} {
		_, err := db.ListShipments(ctx, f)
		if name == "SQL in a name" {
			if err != nil { // a name is any text: it is only compared
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		if !apperr.Is(err, apperr.Invalid) {
			t.Errorf("%s: %v, want an invalid page link", name, err)
		}
	}
	if n := len(mustList(t, db, storage.ListFilter{Limit: 200}).Shipments); n != 12 {
		t.Errorf("%d shipments after the damaged links", n)
	}
}

func mustList(t *testing.T, db *storage.DB, f storage.ListFilter) storage.ListPage {
	t.Helper()
	p, err := db.ListShipments(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	return p
}
