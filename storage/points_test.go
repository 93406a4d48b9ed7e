package storage_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

var towns = []struct{ city, zip string }{
	{"Praha", "110 00"}, {"Brno", "602 00"}, {"Plzeň", "301 00"}, {"Ostrava", "702 00"}, {"České Budějovice", "370 01"},
	{"Hradec Králové", "500 02"}, {"Žilina", "010 01"}, {"Košice", "040 01"}, {"Bratislava", "811 01"}, {"Ústí nad Labem", "400 01"},
}

var streets = []string{"Masarykova", "Nádražní", "Husova", "Palackého", "Školní", "Lidická", "Tyršova", "Komenského"}

// fakePoints makes n points of a few carriers over the towns; every third is a
// small locker.
func fakePoints(n int) []storage.ParcelPoint {
	carriers := []string{"zasilkovna", "ppl", "sps", "balikovna"}
	out := make([]storage.ParcelPoint, 0, n)
	for i := range n {
		t := towns[i%len(towns)]
		p := storage.ParcelPoint{ID: int64(i + 1), Carrier: carriers[i%len(carriers)], Code: fmt.Sprintf("P%06d", i),
			Name: fmt.Sprintf("Point %s %d", t.city, i), Street: fmt.Sprintf("%s %d", streets[i%len(streets)], i%200+1),
			City: t.city, Zip: t.zip, Country: "CZ", MaxLength: 120, MaxWidth: 60, MaxHeight: 60, MaxWeight: 30}
		if i%3 == 0 {
			p.IsLocker, p.MaxLength, p.MaxWidth, p.MaxHeight, p.MaxWeight = true, 61, 41, 19, 15
		}
		out = append(out, p)
	}
	return out
}

func storePoints(t testing.TB, db *storage.DB, points []storage.ParcelPoint) {
	t.Helper()
	for i := 0; i < len(points); i += 2000 {
		if err := db.UpsertPoints(context.Background(), points[i:min(i+2000, len(points))], time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.SQL().Exec(`ANALYZE parcel_points`); err != nil {
		t.Fatal(err)
	}
}

func TestSearchPointsFoldsAndFits(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	storePoints(t, db, fakePoints(2000))
	search := func(q storage.PointQuery) []storage.ParcelPoint {
		t.Helper()
		got, err := db.SearchPoints(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	// Without diacritics, by part of the town, by postal code with or without space.
	for _, text := range []string{"plzen", "PLZEŇ", "plz", "301 00", "30100"} {
		got := search(storage.PointQuery{Carrier: "zasilkovna", Text: text})
		if len(got) == 0 {
			t.Errorf("%q finds nothing", text)
		}
		for _, p := range got {
			if p.City != "Plzeň" || p.Carrier != "zasilkovna" {
				t.Errorf("%q found %s of %s", text, p.City, p.Carrier)
			}
		}
	}
	// Every word must match: town and street.
	for _, p := range search(storage.PointQuery{Carrier: "ppl", Text: "brno masaryk"}) {
		if p.City != "Brno" || p.Street[:10] != "Masarykova" {
			t.Errorf("brno masaryk found %s, %s", p.Street, p.City)
		}
	}
	// A box of 70 cm does not fit the lockers: they are hidden; turned any way counts.
	fit := storage.FitOf([][3]float64{{20, 70, 30}}, []float64{5})
	for _, p := range search(storage.PointQuery{Carrier: "zasilkovna", Text: "praha", Fit: fit}) {
		if p.IsLocker {
			t.Errorf("a locker %s shown for a 70 cm box", p.Code)
		}
	}
	small := storage.FitOf([][3]float64{{40, 15, 60}}, []float64{2})
	lockers := 0
	for _, p := range search(storage.PointQuery{Carrier: "zasilkovna", Text: "praha", Fit: small, Limit: 100}) {
		if p.IsLocker {
			lockers++
		}
	}
	if lockers == 0 {
		t.Error("a 60×40×15 box, turned, fits a 61×41×19 locker, but none was shown")
	}
	// Hostile text is literal: LIKE wildcards and SQL match nothing special.
	for _, text := range []string{"%", "_", `\`, "'; DROP TABLE parcel_points; --"} {
		if got := search(storage.PointQuery{Carrier: "zasilkovna", Text: text}); len(got) != 0 {
			t.Errorf("%q matched %d points", text, len(got))
		}
	}
	if s, err := db.PointStats(ctx); err != nil || s.Count != 2000 {
		t.Errorf("stats %+v %v", s, err)
	}
}

func TestRefreshDropsPointsNoLongerListed(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	old := time.Now().Add(-time.Hour)
	if err := db.UpsertPoints(ctx, fakePoints(10), old); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := db.UpsertPoints(ctx, fakePoints(10)[:6], now); err != nil {
		t.Fatal(err)
	}
	if n, err := db.DeletePointsBefore(ctx, now); err != nil || n != 4 {
		t.Errorf("deleted %d, %v", n, err)
	}
}

// BenchmarkPointSearch searches 50,000 points as a clerk types, with the
// trigram index and, in the same run, with index use switched off; the ratio
// is what the index buys.
func BenchmarkPointSearch(b *testing.B) {
	db := pgtest.New(b)
	storePoints(b, db, fakePoints(50000))
	ctx := context.Background()
	fit := storage.FitOf([][3]float64{{30, 20, 10}}, []float64{2})
	queries := []string{"brno masar", "plzen", "370 01", "hradec palack", "kosice 12"}
	run := func(db *storage.DB, n int) time.Duration {
		start := time.Now()
		for i := range n {
			if _, err := db.SearchPoints(ctx, storage.PointQuery{Carrier: "zasilkovna", Text: queries[i%len(queries)], Fit: fit}); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start)
	}
	b.ResetTimer()
	indexed := run(db, b.N)
	b.StopTimer()
	var scanned time.Duration
	err := db.InTx(ctx, func(tx *storage.DB) error {
		if _, err := tx.Exec(ctx, `SET LOCAL enable_bitmapscan = off`); err != nil {
			return err
		}
		scanned = run(tx, min(b.N, 200))
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	perIndexed := indexed / time.Duration(b.N)
	perScanned := scanned / time.Duration(min(b.N, 200))
	b.ReportMetric(float64(perScanned)/float64(perIndexed), "scan/index")
	b.ReportMetric(float64(perScanned.Microseconds()), "scan-µs/op")
}

// FindPoints counts every match beside the page it returns, so the picker
// can say how many it does not show.
func TestFindPointsCountsEveryMatch(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	storePoints(t, db, fakePoints(2000))
	all, err := db.SearchPoints(ctx, storage.PointQuery{Carrier: "zasilkovna", Text: "plzen", Limit: 100})
	if err != nil || len(all) < 3 {
		t.Fatalf("points of Plzeň: %d %v", len(all), err)
	}
	found, err := db.FindPoints(ctx, storage.PointQuery{Carrier: "zasilkovna", Text: "plzen", Limit: 2})
	if err != nil || len(found.Points) != 2 || found.Total != len(all) {
		t.Errorf("a page of 2: %d points of %d, want 2 of %d (%v)", len(found.Points), found.Total, len(all), err)
	}
	none, err := db.FindPoints(ctx, storage.PointQuery{Carrier: "zasilkovna", Text: "xqzwyv", Limit: 2})
	if err != nil || len(none.Points) != 0 || none.Total != 0 {
		t.Errorf("nonsense: %d points of %d (%v)", len(none.Points), none.Total, err)
	}
}
