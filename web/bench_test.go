package web_test

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/desk"
	"shipdesk/handlers"
	"shipdesk/i18n"
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
		`VACUUM ANALYZE shipments`, `VACUUM ANALYZE tracking_events`,
		// Once more, as autovacuum would have over the year: the first pass
		// may find the rows too new to mark their pages all-visible, and
		// counts then read the table instead of an index only.
		`VACUUM shipments`}
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

// benchPoints stores n parcel points of four carriers over Czech and Slovak
// towns (the sandbox lists some 2 400; a real carrier several thousand, and
// the cache holds every carrier's).
func benchPoints(b *testing.B, db *storage.DB, n int) {
	b.Helper()
	towns := []struct{ city, zip string }{
		{"Praha", "110 00"}, {"Brno", "602 00"}, {"Plzeň", "301 00"}, {"Ostrava", "702 00"}, {"České Budějovice", "370 01"},
		{"Hradec Králové", "500 02"}, {"Žilina", "010 01"}, {"Košice", "040 01"}, {"Bratislava", "811 01"}, {"Ústí nad Labem", "400 01"},
		{"Olomouc", "779 00"}, {"Liberec", "460 01"}, {"Pardubice", "530 02"}, {"Zlín", "760 01"}, {"Kolín", "280 02"}}
	streets := []string{"Masarykova", "Nádražní", "Husova", "Palackého", "Školní", "Lidická", "Tyršova", "Komenského"}
	venues := []string{"Trafika", "Potraviny", "Papírnictví", "Lékárna", "Drogerie", "Květinářství"}
	carriers := []string{"ZASILKOVNA", "PPL", "SPS", "BALIKOVNA"}
	batch := make([]storage.ParcelPoint, 0, 2000)
	for i := range n {
		t := towns[i%len(towns)]
		p := storage.ParcelPoint{ID: int64(i + 1), Carrier: carriers[i%len(carriers)], Code: fmt.Sprintf("%s%06d", carriers[i%len(carriers)], i),
			Name: fmt.Sprintf("%s %s %d", venues[i%len(venues)], t.city, i), Street: fmt.Sprintf("%s %d", streets[i%len(streets)], i%200+1),
			City: t.city, Zip: t.zip, Country: "CZ", MaxLength: 120, MaxWidth: 60, MaxHeight: 60, MaxWeight: 20}
		if t.city == "Žilina" || t.city == "Košice" || t.city == "Bratislava" {
			p.Country = "SK"
		}
		if i%3 == 0 {
			p.IsLocker, p.MaxLength, p.MaxWidth, p.MaxHeight, p.MaxWeight = true, 61, 41, 19, 15
		}
		if batch = append(batch, p); len(batch) == cap(batch) || i == n-1 {
			if err := db.UpsertPoints(context.Background(), batch, time.Now()); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
	// Twice, as for the shipments: the second pass marks the pages all-visible.
	for _, q := range []string{`VACUUM ANALYZE parcel_points`, `VACUUM parcel_points`} {
		if _, err := db.SQL().Exec(q); err != nil {
			b.Fatal(err)
		}
	}
}

// logByText logs each typed text's (or list filter's) median and slowest
// page (request i asked for typed[i%len(typed)]): a tail that one text holds
// is that search, a tail spread over every text is the load beside it.
func logByText(b *testing.B, what string, typed []string, page latencies) {
	b.Helper()
	for k, text := range typed {
		var own latencies
		for i := k; i < len(page); i += len(typed) {
			own = append(own, page[i])
		}
		b.Logf("%s %s: median %s, slowest %s", what, strconv.Quote(text), own.pct(0.5), own.pct(1))
	}
}

// BenchmarkBigDatabase measures the shipments list, the scan box, the point
// picker and the CSV export on a database of a million shipments, ten million
// tracking events and 50 000 parcel points, each next to its bare SQL (or
// PostgreSQL's COPY of the export's query) measured in the same run.
func BenchmarkBigDatabase(b *testing.B) {
	dsn := pgtest.URL(b)
	db, err := storage.Open(context.Background(), dsn)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if err := db.MigrateUp(context.Background(), slog.New(slog.NewTextHandler(io.Discard, nil))); err != nil {
		b.Fatal(err)
	}
	n := benchScale()
	fillBig(b, db, n)
	const points = 50_000
	benchPoints(b, db, points)
	env := apptest.StartWith(b, db)
	br := env.SignedIn(identity.Manager)
	ctx := context.Background()
	lists := []string{"", "status=ACTIVE", "status=DELIVERED&carrier=UPS", "q=brno", "q=nov%C3%A1kov%C3%A1+12&sort=recipient", "status=LABEL_FAILED", "from=2026-06-01&to=2026-06-30"}

	// Each page is measured next to its bare SQL, one right after the other,
	// so both meet the same load of this machine.
	b.Run("list", func(b *testing.B) {
		// The page runs three queries: its rows and, beside them, the
		// filter's count (up to storage.CountCap) and the carriers of the
		// filter's choice; a text filter whose matches are few among the
		// newest reads its rows in two, the second counting them, and no
		// count. Its bare SQL is the same, one after the other.
		// Before any of them the session is checked, which is not the list's
		// (it is timed alone: an empty scan, answered with a redirect).
		var rows, count, plumbing latencies
		page, bare := measure(b, 50*len(lists), func(i int) {
			if resp := br.Get(drawnList(lists, i)); resp.StatusCode != http.StatusOK {
				b.Fatalf("%s: %d", lists[i%len(lists)], resp.StatusCode)
			}
		}, func(i int) time.Duration {
			v, _ := url.ParseQuery(lists[i%len(lists)])
			f, _, _ := handlers.ParseListQuery(v)
			first, fallback, args, err := f.ListSQL()
			if err != nil {
				b.Fatal(err)
			}
			r, got := timeQuery(b, db, first, args)
			var c time.Duration
			if got < f.Limit+1 && fallback != "" { // as the page does: the fallback counts too
				again, _ := timeQuery(b, db, fallback, args)
				r += again
			} else {
				countSQL, countArgs, err := f.CountSQL()
				if err != nil {
					b.Fatal(err)
				}
				c, _ = timeQuery(b, db, countSQL, countArgs)
				count = append(count, c)
			}
			start := time.Now()
			if _, err := db.Carriers(ctx); err != nil {
				b.Fatal(err)
			}
			carriers := time.Since(start)
			rows = append(rows, r)
			start = time.Now()
			if resp := br.Get("/scan?q="); resp.StatusCode != http.StatusSeeOther {
				b.Fatalf("empty scan: %d", resp.StatusCode)
			}
			plumbing = append(plumbing, time.Since(start))
			return r + c + carriers
		})
		report(b, "list", page, bare, "its SQL (rows + count + carriers)", 50*time.Millisecond)
		logByText(b, "list page", lists, page)
		logByText(b, "list SQL", lists, bare)
		b.Logf("the session check and redirect alone: median %s", plumbing.pct(0.5))
		b.ReportMetric(float64(count.pct(0.5).Microseconds()), "count-p50-µs")
		b.Logf("list: rows alone median %s p99 %s; the filter's count alone median %s p99 %s", rows.pct(0.5), rows.pct(0.99), count.pct(0.5), count.pct(0.99))
	})

	b.Run("scan", func(b *testing.B) {
		code := func(i int) string { return fmt.Sprintf("T%010d", 1+(i*7919)%n) }
		page, bare := measure(b, 350, func(i int) {
			if resp := br.Get("/scan?q=" + code(i)); resp.StatusCode != http.StatusSeeOther {
				b.Fatalf("scan %s: %d", code(i), resp.StatusCode)
			}
		}, func(i int) time.Duration {
			start := time.Now()
			if _, exact, err := db.Scan(ctx, code(i), 10); err != nil || !exact {
				b.Fatalf("bare scan %s: %v", code(i), err)
			}
			return time.Since(start)
		})
		report(b, "scan", page, bare, "its SQL", 20*time.Millisecond)
	})

	b.Run("points", func(b *testing.B) {
		// A clerk types into the delivery point picker of an order to Brno,
		// while a manager reads the lists as the list benchmark does, beside.
		clerk := env.SignedIn(identity.Clerk)
		beside := listsBeside(b, br, lists)
		typed := []string{"", "b", "br", "brn", "brno", "brno mas", "p", "pl", "plz", "plzen", "370 01", "hradec palack", "kosice 12", "a"}
		form := url.Values{"offer_service_id": {"102"}, "offer_carrier": {"ZASILKOVNA"}, "offer_delivery": {"true"},
			"to_country": {"CZ"}, "to_city": {"Brno"}, "pkg_weight": {"2"}, "pkg_length": {"30"}, "pkg_width": {"20"}, "pkg_height": {"10"}}
		fit := storage.FitOf([][3]float64{{30, 20, 10}}, []float64{2})
		page, bare := measure(b, 25*len(typed), func(i int) {
			form.Set("delivery_q", typed[i%len(typed)])
			resp := clerk.PostForm("/shipping/points?for=delivery", form)
			if resp.StatusCode != http.StatusOK || !strings.Contains(resp.Body, `data-testid="delivery-points"`) {
				b.Fatalf("points %q: %d", typed[i%len(typed)], resp.StatusCode)
			}
		}, func(i int) time.Duration {
			// Its storage call: the page's points and, beside them, their count.
			start := time.Now()
			q := storage.PointQuery{Carrier: "ZASILKOVNA", Country: "CZ", Text: cmp.Or(typed[i%len(typed)], "Brno"), Fit: fit, Limit: desk.PointsShown}
			if _, err := db.FindPoints(ctx, q); err != nil {
				b.Fatal(err)
			}
			return time.Since(start)
		})
		listed := beside()
		logByText(b, "point picker", typed, page)
		report(b, fmt.Sprintf("point picker (%d points, the lists read beside)", points), page, bare, "its SQL (points + count)", 20*time.Millisecond)
		b.ReportMetric(float64(listed), "lists-beside")
		b.Logf("point picker: %d list pages read beside it, load average %.2f", listed, loadAverage())
	})

	b.Run("export", func(b *testing.B) {
		// The whole list as CSV (in Czech, with local times), next to
		// PostgreSQL's COPY of the export's query; and the peak heap of the
		// export of all n shipments next to that of a tenth of them.
		psql := psqlPath(b)
		all, _, _ := handlers.ParseListQuery(url.Values{})
		query, _, err := all.ExportSQL()
		if err != nil {
			b.Fatal(err)
		}
		var export, copied latencies
		var size, copySize int64
		for b.Loop() {
			start := time.Now()
			size = download(b, br, env.URL+"/tracking.csv")
			export = append(export, time.Since(start))
			start = time.Now()
			copySize = copyOut(b, psql, dsn, query)
			copied = append(copied, time.Since(start))
		}
		b.StopTimer()
		// The goal: the export within twice the COPY of its query (medians).
		b.ReportMetric(float64(export.pct(0.5))/float64(copied.pct(0.5)), "export/copy")
		// A tenth: the newest shipments, created over the last tenth of the span.
		span := min(n, 525600) / 10 // minutes (fillBig spreads shipments one a minute, over a year at most)
		from := time.Now().Add(-time.Duration(span)*time.Minute).In(i18n.Prague).AddDate(0, 0, 1).Format("2006-01-02")
		tenth, _, _ := handlers.ParseListQuery(url.Values{"from": {from}})
		tenth.Exact = true
		countSQL, args, _ := tenth.CountSQL()
		var rows int
		if err := db.SQL().QueryRow(countSQL, args...).Scan(&rows); err != nil {
			b.Fatal(err)
		}
		heapAll := peakHeap(func() { download(b, br, env.URL+"/tracking.csv") })
		heapTenth := peakHeap(func() { download(b, br, env.URL+"/tracking.csv?from="+from) })
		b.Logf("CSV export peak heap: %d rows %.1f MiB, %d rows %.1f MiB (goal: about the same)", n, mib(heapAll), rows, mib(heapTenth))
		b.ReportMetric(float64(heapAll)/float64(heapTenth), "heap-all/tenth")
		b.ReportMetric(float64(export.pct(0.5).Milliseconds()), "export-ms")
		b.ReportMetric(float64(copied.pct(0.5).Milliseconds()), "copy-ms")
		b.Logf("export: %d bytes in %s (median of %d); COPY %d bytes in %s; peak heap %d MiB all, %d MiB for %d rows",
			size, export.pct(0.5), len(export), copySize, copied.pct(0.5), heapAll>>20, heapTenth>>20, rows)
	})
}

// listsBeside reads the list pages one after another until the returned
// function is called, which says how many it read.
// drawnList is the i-th list of lists, each address new (a parameter the
// list ignores), as a manager changing filters asks for them.
func drawnList(lists []string, i int) string {
	return "/tracking?" + lists[i%len(lists)] + "&drawn=" + strconv.Itoa(i)
}

func listsBeside(b *testing.B, br *apptest.Browser, lists []string) (stop func() int) {
	var done atomic.Bool
	n := make(chan int)
	go func() {
		i := 0
		for ; !done.Load(); i++ {
			if resp := br.Get(drawnList(lists, i)); resp.StatusCode != http.StatusOK {
				b.Errorf("list beside: %s: %d", lists[i%len(lists)], resp.StatusCode)
			}
		}
		n <- i
	}()
	return func() int {
		done.Store(true)
		return <-n
	}
}

// measure times request(i) and then its bare SQL for i = 0, 1, … while
// b.Loop runs and then, the timer stopped, until there are least of each: a
// p99 of a few dozen requests would only be their slowest.
func measure(b *testing.B, least int, request func(i int), bare func(i int) time.Duration) (page, sql latencies) {
	one := func() {
		i := len(page)
		start := time.Now()
		request(i)
		page = append(page, time.Since(start))
		sql = append(sql, bare(i))
	}
	for b.Loop() {
		one()
	}
	b.StopTimer()
	for len(page) < least {
		one()
	}
	return page, sql
}

// timeQuery runs one of the list's bare queries and reads its rows.
func timeQuery(b *testing.B, db *storage.DB, q string, args []any) (time.Duration, int) {
	b.Helper()
	start := time.Now()
	rows, err := db.SQL().QueryContext(context.Background(), q, args...)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	if err := rows.Close(); err != nil {
		b.Fatal(err)
	}
	return time.Since(start), n
}

// download reads a CSV export to the end, as a client saving it would, and
// returns its size.
func download(b *testing.B, br *apptest.Browser, path string) int64 {
	b.Helper()
	resp, err := br.Client.Get(path)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		b.Fatalf("%s: %d after %d bytes: %v", path, resp.StatusCode, n, err)
	}
	return n
}

// copyOut runs PostgreSQL's own COPY of query to standard output, as CSV,
// through psql, reads it to the end and returns its size.
func copyOut(b *testing.B, psql, dsn, query string) int64 {
	b.Helper()
	cmd := exec.Command(psql, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", dsn, "-c", "COPY ("+query+") TO STDOUT WITH (FORMAT csv, HEADER)")
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		b.Fatalf("psql COPY: %v: %s", err, stderr.String())
	}
	return n
}

// psqlPath finds psql as scripts/pg.sh finds the server: on PATH, or the
// newest of Debian's PostgreSQL installations.
func psqlPath(b *testing.B) string {
	if p, err := exec.LookPath("psql"); err == nil {
		return p
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/psql")
	if len(found) == 0 {
		b.Fatal("no psql to run COPY with")
	}
	version := func(p string) int { v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(p)))); return v }
	slices.SortFunc(found, func(x, y string) int { return cmp.Compare(version(x), version(y)) })
	return found[len(found)-1]
}

// report records a page's median against its bare SQL's (the goal: page/sql
// ≤ 2) and its p99 against the goal (p99/goal ≤ 1); sqlIs says what the SQL
// side is.
func report(b *testing.B, name string, page, bare latencies, sqlIs string, p99Goal time.Duration) {
	b.ReportMetric(float64(page.pct(0.5).Microseconds()), "page-p50-µs")
	b.ReportMetric(float64(page.pct(0.99).Microseconds()), "page-p99-µs")
	b.ReportMetric(float64(bare.pct(0.5).Microseconds()), "sql-p50-µs")
	b.ReportMetric(float64(page.pct(0.5))/float64(bare.pct(0.5)), "page/sql")
	b.ReportMetric(float64(page.pct(0.99))/float64(p99Goal), "p99/goal")
	b.Logf("%s: page median %s p99 %s (goal %s); %s median %s p99 %s; ratio of medians %.2f (%d requests)", name,
		page.pct(0.5), page.pct(0.99), p99Goal, sqlIs, bare.pct(0.5), bare.pct(0.99), float64(page.pct(0.5))/float64(bare.pct(0.5)), len(page))
}
