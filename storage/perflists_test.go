package storage_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lib/pq"

	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// A search that matches more points than PointsCountCap counts only so far
// and says so; one below it counts exactly. Either way the page is the first
// points in the picker's order.
func TestFindPointsCountsOnlySoFar(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	storePoints(t, db, fakePoints(4*storage.PointsCountCap+400)) // 1 100 points of zasilkovna
	many, err := db.FindPoints(ctx, storage.PointQuery{Carrier: "zasilkovna", Text: "point", Limit: 15})
	if err != nil || !many.More || many.Total != storage.PointsCountCap || len(many.Points) != 15 {
		t.Fatalf("a broad search: %d points, total %d, more %v, %v", len(many.Points), many.Total, many.More, err)
	}
	all, err := db.SearchPoints(ctx, storage.PointQuery{Carrier: "zasilkovna", Text: "point", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range many.Points {
		if p.ID != all[i].ID {
			t.Fatalf("point %d is %d, want %d: a page of 15 is not the first 15 of 100", i, p.ID, all[i].ID)
		}
	}
	// No words: the page walks the picker's order, the count beside it stops at the cap.
	none, err := db.FindPoints(ctx, storage.PointQuery{Carrier: "zasilkovna", Limit: 15})
	if err != nil || !none.More || none.Total != storage.PointsCountCap || len(none.Points) != 15 {
		t.Fatalf("no words: %d points, total %d, more %v, %v", len(none.Points), none.Total, none.More, err)
	}
	few, err := db.FindPoints(ctx, storage.PointQuery{Carrier: "zasilkovna", Text: "plzen", Limit: 15})
	if err != nil || few.More || few.Total != 220 || len(few.Points) != 15 {
		t.Errorf("Plzeň: %d points, total %d, more %v, %v; want 15 of 220", len(few.Points), few.Total, few.More, err)
	}
	// In a transaction (one connection) the count runs first; the answer is the same.
	err = db.InTx(ctx, func(tx *storage.DB) error {
		in, err := tx.FindPoints(ctx, storage.PointQuery{Carrier: "zasilkovna", Text: "plzen", Limit: 15})
		if err == nil && (in.Total != few.Total || in.More || len(in.Points) != 15) {
			t.Errorf("in a transaction: %d of %d", len(in.Points), in.Total)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A text filter's page is read in the list's order whether its matches are
// many and spread (the first rows in order hold them) or few and gathered far
// down the order (the matches are read first, then sorted): every page, both
// ways, is what the export of the same filter lists in the same order.
func TestTextFilterPagesWhereverItsMatchesLie(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	// 3 000 shipments in Praha and Brno; 70 of them for Zuzana, last by name.
	shipmentsSeries(t, db, 3000, `CASE WHEN i % 43 = 0 THEN 'Zuzana ' ELSE 'Anna ' END || lpad(i::text, 4, '0')`,
		`CASE WHEN i % 2 = 0 THEN 'Brno' ELSE 'Praha' END`, `'INTRANSIT'`)
	for _, f := range []storage.ListFilter{
		{Text: "zuzana", Sort: "recipient", Limit: 25}, // few, gathered at the end of the order
		{Text: "zuzana", Limit: 25},                    // few, spread over time
		{Text: "brno", Sort: "recipient", Limit: 25},   // many, spread
		{Text: "brno", Sort: "old", Limit: 100},
		{Text: "nobody", Limit: 25},
	} {
		var want []int64
		if err := db.EachShipment(ctx, f, func(s storage.Shipment) error { want = append(want, s.ID); return nil }); err != nil {
			t.Fatal(err)
		}
		var got []int64
		page := f
		for range 200 {
			p, err := db.ListShipments(ctx, page)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, idsOf(p.Shipments)...)
			if p.Next == "" {
				break
			}
			page.After = p.Next
		}
		if !slices.Equal(got, want) {
			t.Errorf("%+v: pages give %d shipments, the export %d; first %v, want %v", f, len(got), len(want), got[:min(5, len(got))], want[:min(5, len(want))])
		}
		// Backwards from the last page, each page the rows at its place.
		last := f
		last.Last = true
		p, err := db.ListShipments(ctx, last)
		for pages := 0; err == nil && pages < 200; pages++ {
			if p.Start+len(p.Shipments) > len(want) || !slices.Equal(idsOf(p.Shipments), want[p.Start:p.Start+len(p.Shipments)]) {
				t.Fatalf("%+v backwards: the page at %d has %v", f, p.Start, idsOf(p.Shipments))
			}
			if p.Prev == "" {
				break
			}
			prev := f
			prev.Before = p.Prev
			p, err = db.ListShipments(ctx, prev)
		}
		if err != nil {
			t.Fatal(err)
		}
		if p.Start != 0 {
			t.Errorf("%+v backwards: stopped at %d", f, p.Start)
		}
	}
}

// A search of words shorter than three letters walks the index in the
// picker's order instead of sorting every match: its page is the same as the
// sorted one, points with a word that starts with the first word first.
func TestFindPointsOfShortWordsAsSorted(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	storePoints(t, db, fakePoints(3000))
	// Longer words are sorted, and counted in the same pass: the same page.
	for _, text := range []string{"a", "p", "B", "ž", "h k", "%", "_", "1", "q", "br", "pl", "ov", "po 1", "rn", "a%", "zz",
		"plzen", "point 12", "brno hus", "zzz", "ova 1"} {
		words := strings.Fields(storage.Fold(text))
		where, args := `carrier = 'zasilkovna'`, []any{}
		for _, w := range words {
			args = append(args, "%"+strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(w)+"%")
			where += fmt.Sprintf(` AND search LIKE $%d`, len(args))
		}
		args = append(args, "% "+strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(words[0])+"%")
		var want []int64
		if err := db.SQL().QueryRowContext(ctx, `SELECT coalesce(array_agg(id), '{}') FROM (SELECT id FROM parcel_points WHERE `+where+
			fmt.Sprintf(` ORDER BY (' ' || search) LIKE $%d DESC, city, name, id LIMIT 15) AS page`, len(args)), args...).Scan(pq.Array(&want)); err != nil {
			t.Fatal(err)
		}
		found, err := db.FindPoints(ctx, storage.PointQuery{Carrier: "zasilkovna", Text: text, Limit: 15})
		if err != nil {
			t.Fatal(err)
		}
		var got []int64
		for _, p := range found.Points {
			got = append(got, p.ID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}
