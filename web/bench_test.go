package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/benchtab"
	"shipdesk/handlers"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// benchScale is the number of shipments of the big-database benchmark (ten
// tracking events each); SHIPDESK_BENCH_SHIPMENTS lowers it for a quick look.
func benchScale() int {
	if n, err := strconv.Atoi(os.Getenv("SHIPDESK_BENCH_SHIPMENTS")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

// fillBig stores n shipments over a year and ten tracking events for each.
func fillBig(b *testing.B, db *storage.DB, n int) {
	b.Helper()
	start := time.Now()
	steps := []string{`
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, service_name, recipient_name,
    recipient_city, tracking_number, status, label_mode, label_status, packages, created_at, last_checked_at)
SELECT gen_random_uuid(), 'OBJ-' || i, 'created', '{}', 'G' || (1 + i % 7) || 'A', 100 + i % 7, 'Service',
    (array['Jana','Petr','Eva','Ota','Lenka','Karel'])[1 + i % 6] || ' ' || (array['Nováková','Svoboda','Malá','Kovář','Dvořák'])[1 + i % 5] || ' ' || (i % 997),
    (array['Praha','Brno','Ostrava','Plzeň','Olomouc','Liberec','Zlín','Kolín'])[1 + i % 8], 'T' || lpad(i::text, 10, '0'),
    (array['CREATED','EXPORTED','ONPICKUP','INTRANSIT','ONDELIVERY','DELIVERED','DELIVERED','DELIVERED','CANCELLED'])[1 + i % 9],
    'PRINT', CASE WHEN i % 50 = 0 THEN 'FAILED' ELSE 'READY' END,
    jsonb_build_array(jsonb_build_object('number', 'P' || lpad(i::text, 12, '0'))),
    now() - (i % 525600) * interval '1 minute', now()
FROM generate_series(1, $1) AS i`,
		`ALTER TABLE tracking_events DROP CONSTRAINT tracking_events_pkey`, `
INSERT INTO tracking_events (shipment_id, package_index, occurred, status, name, location)
SELECT s, 0, timestamp '2026-01-01' + s * interval '1 second' + e * interval '3 hours',
    (array['EXPORTED','ONPICKUP','INTRANSIT','INTRANSIT','INTRANSIT','INTRANSIT','INTRANSIT','INTRANSIT','ONDELIVERY','DELIVERED'])[e],
    'Event ' || e, 'Depot ' || (s % 40)
FROM generate_series(1, $1) AS s, generate_series(1, 10) AS e`,
		`ALTER TABLE tracking_events ADD PRIMARY KEY (shipment_id, package_index, occurred, status, name)`,
		`VACUUM ANALYZE shipments`, `VACUUM ANALYZE tracking_events`}
	for _, q := range steps {
		var err error
		if slices.Contains([]byte(q), '$') {
			_, err = db.SQL().Exec(q, n)
		} else {
			_, err = db.SQL().Exec(q)
		}
		if err != nil {
			b.Fatalf("fill: %v\n%s", err, q)
		}
	}
	b.Logf("filled %d shipments and %d events in %s", n, n*10, time.Since(start).Round(time.Second))
}

// latencies summarises measured durations.
type latencies []time.Duration

func (l latencies) pct(p float64) time.Duration {
	s := slices.Clone(l)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// BenchmarkBigDatabase measures the shipments list and the scan box on a
// database of a million shipments and ten million tracking events, each next
// to its bare SQL query measured in the same run.
func BenchmarkBigDatabase(b *testing.B) {
	db := pgtest.New(b)
	n := benchScale()
	fillBig(b, db, n)
	env := apptest.StartWith(b, db)
	br := env.SignedIn(identity.Manager)
	ctx := context.Background()
	lists := []string{"", "status=ACTIVE", "status=DELIVERED&carrier=G3A", "q=brno", "q=nov%C3%A1kov%C3%A1+12&sort=recipient", "status=LABEL_FAILED", "from=2026-06-01&to=2026-06-30"}

	b.Run("list", func(b *testing.B) {
		var page, bare, count latencies
		for i := 0; b.Loop(); i++ {
			q := lists[i%len(lists)]
			start := time.Now()
			resp := br.Get("/tracking?" + q)
			page = append(page, time.Since(start))
			if resp.StatusCode != http.StatusOK {
				b.Fatalf("%s: %d", q, resp.StatusCode)
			}
		}
		b.StopTimer()
		for i := range len(page) {
			v, _ := url.ParseQuery(lists[i%len(lists)])
			f, _, _ := handlers.ParseListQuery(v)
			sql, args, err := f.ListSQL()
			if err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			rows, err := db.SQL().QueryContext(ctx, sql, args...)
			if err != nil {
				b.Fatal(err)
			}
			for rows.Next() {
			}
			rows.Close()
			bare = append(bare, time.Since(start))
			// The page also counts the filter, beside the rows.
			countSQL, countArgs, err := f.CountSQL()
			if err != nil {
				b.Fatal(err)
			}
			start = time.Now()
			var n int
			if err := db.SQL().QueryRowContext(ctx, countSQL, countArgs...).Scan(&n); err != nil {
				b.Fatal(err)
			}
			count = append(count, time.Since(start))
		}
		report(b, "list", page, bare)
		b.ReportMetric(float64(count.pct(0.5).Microseconds()), "count-p50-µs")
		b.Logf("list: the filter's count alone: median %s p99 %s", count.pct(0.5), count.pct(0.99))
	})

	b.Run("scan", func(b *testing.B) {
		var page, bare latencies
		for i := 0; b.Loop(); i++ {
			code := fmt.Sprintf("T%010d", 1+(i*7919)%n)
			start := time.Now()
			resp := br.Get("/scan?q=" + code)
			page = append(page, time.Since(start))
			if resp.StatusCode != http.StatusSeeOther {
				b.Fatalf("scan %s: %d", code, resp.StatusCode)
			}
		}
		b.StopTimer()
		for i := range len(page) {
			code := fmt.Sprintf("T%010d", 1+(i*7919)%n)
			start := time.Now()
			if _, exact, err := db.Scan(ctx, code, 10); err != nil || !exact {
				b.Fatalf("bare scan %s: %v", code, err)
			}
			bare = append(bare, time.Since(start))
		}
		report(b, "scan", page, bare)
	})
}

func report(b *testing.B, name string, page, bare latencies) {
	b.ReportMetric(float64(page.pct(0.5).Microseconds()), "page-p50-µs")
	b.ReportMetric(float64(page.pct(0.99).Microseconds()), "page-p99-µs")
	b.ReportMetric(float64(bare.pct(0.5).Microseconds()), "sql-p50-µs")
	b.ReportMetric(float64(page.pct(0.5))/float64(bare.pct(0.5)), "page/sql")
	benchtab.Ratio(b, name+" page / bare SQL, median", benchtab.Duration("page", page.pct(0.5)), benchtab.Duration("SQL", bare.pct(0.5)), "≤ 2")
	benchtab.Note(b, name+" page p99", benchtab.Duration("page p99", page.pct(0.99)), benchtab.Duration("SQL p99", bare.pct(0.99)))
	b.Logf("%s: page median %s p99 %s; bare SQL median %s p99 %s; ratio of medians %.2f (%d requests)", name,
		page.pct(0.5), page.pct(0.99), bare.pct(0.5), bare.pct(0.99), float64(page.pct(0.5))/float64(bare.pct(0.5)), len(page))
}
