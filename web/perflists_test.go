package web_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/storage"
)

// A filter of more shipments than the page counts says "more than 2 000"
// and where the page is among them; "Count them all" counts to the end, and
// the page links keep counting so. The last page counts in full: its place
// needs the exact total.
func TestListCountsOnlySoFarUnlessAsked(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	seedList(t, env, storage.CountCap+34)
	manager := env.SignedIn(identity.Manager)
	p := readList(t, manager, "/tracking?size=100")
	if p.status != 200 || p.total != "More than 2,000 shipments" || p.place != "1–100 of more than 2,000" || len(p.refs) != 100 {
		t.Fatalf("first page: %d %q %q, %d rows", p.status, p.total, p.place, len(p.refs))
	}
	if whole := strings.TrimSpace(p.doc.Find(`[data-testid=select-whole]`).Parent().Text()); !strings.Contains(whole, "(more than 2,000)") {
		t.Errorf("the whole filter's choice says %q", whole)
	}
	countAll := p.doc.Find(`[data-testid=count-all]`).AttrOr("href", "")
	if u, err := url.Parse(countAll); err != nil || u.Query().Get("count") != "all" || u.Query().Get("size") != "100" {
		t.Fatalf("count-all link %q", countAll)
	}
	// Paging on keeps the place, still counted only so far.
	next := readList(t, manager, p.next)
	if next.total != "More than 2,000 shipments" || next.place != "101–200 of more than 2,000" || !slices.Equal(next.refs, refRange(101, 200)) {
		t.Errorf("second page: %q %q", next.total, next.place)
	}
	// Counted to the end, and so on the next page.
	all := readList(t, manager, countAll)
	if all.status != 200 || all.total != "2,034 shipments" || all.place != "1–100 of 2,034" || all.doc.Find(`[data-testid=count-all]`).Length() != 0 {
		t.Errorf("counted all: %d %q %q", all.status, all.total, all.place)
	}
	if u, _ := url.Parse(all.next); u.Query().Get("count") != "all" {
		t.Errorf("the next page's link %q forgets to count all", all.next)
	}
	if n := readList(t, manager, all.next); n.total != "2,034 shipments" || n.place != "101–200 of 2,034" {
		t.Errorf("next page counted all: %q %q", n.total, n.place)
	}
	// The last page knows its place exactly, counted or not.
	last := readList(t, manager, p.last)
	if last.total != "2,034 shipments" || last.place != "1,935–2,034 of 2,034" || !slices.Equal(last.refs, refRange(1935, 2034)) {
		t.Errorf("last page: %q %q", last.total, last.place)
	}
	// In Czech.
	manager.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/tracking"}})
	if cz := readList(t, manager, "/tracking"); cz.total != "Více než 2\u00a0000 zásilek" || cz.place != "1–50 z více než 2\u00a0000" ||
		strings.TrimSpace(cz.doc.Find(`[data-testid=count-all]`).Text()) != "Spočítat všechny" {
		t.Errorf("Czech: %q %q", cz.total, cz.place)
	}
	// A filter below the cap is counted exactly, without the link.
	if few := readList(t, manager, "/tracking?q=recipient+00"); few.total != "9 zásilek" || few.doc.Find(`[data-testid=count-all]`).Length() != 0 {
		t.Errorf("a small filter: %q", few.total)
	}
	// The export takes the filter without the count.
	if csvURL := p.doc.Find(`[data-testid=csv]`).AttrOr("href", ""); strings.Contains(csvURL, "count") {
		t.Errorf("the export's link %q carries the count", csvURL)
	}
}

// A count link that was edited is said above the list (422), with the way
// back; the server stays up.
func TestListRefusesADamagedCountLink(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	seedList(t, env, 3)
	manager := env.SignedIn(identity.Manager)
	for _, v := range []string{"some", "ALL", "1", "all%00", strings.Repeat("a", 500), "%27%3B+DROP+TABLE+shipments"} {
		p := readList(t, manager, "/tracking?count="+v)
		if p.status != 422 || !strings.Contains(p.problem, "count") || len(p.refs) != 0 {
			t.Errorf("count=%q: %d %q", v, p.status, p.problem)
		}
	}
	if p := readList(t, manager, "/tracking?count=all"); p.status != 200 || len(p.refs) != 3 || p.total != "3 shipments" {
		t.Errorf("count=all: %d %q", p.status, p.total)
	}
}

// seedExport stores shipments whose texts a spreadsheet could misread:
// separators, quotes, line breaks, Czech letters and cells that start as a
// formula would.
func seedExport(t *testing.T, env *apptest.Env) {
	t.Helper()
	_, err := env.App.DB.SQL().Exec(`
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, service_name, recipient_name, recipient_city,
    tracking_number, status, label_mode, label_status, returned, cod_value, cod_currency, created_at, delivered_at, last_checked_at, origin)
VALUES
 (gen_random_uuid(), 'EXP-1', 'created', '{}', 'UPS', 301, 'Balík; "domů"', 'Žofie Nováková, ml.', 'Ústí nad Labem',
  'G3X00000001', 'DELIVERED', 'PRINT', 'READY', false, 1234.5, 'CZK', '2026-11-20 09:05:00+01', '2026-11-21 14:30:00+01', '2026-11-21 15:00:00+01', 'shipdesk'),
 (gen_random_uuid(), '=HYPERLINK("http://x")', 'created', '{}', 'UPS', 301, '+Express', '@Petr "Pepa" Svoboda', '-Brno',
  'G3X00000002', 'INTRANSIT', 'PRINT', 'READY', true, 12, 'EUR', '2026-11-20 10:00:00+01', NULL, NULL, 'service'),
 (gen_random_uuid(), 'EXP-3', 'ordering', '{}', 'UPS', 301, 'Service', E'Řádek\nDruhý', E'\tPraha',
  NULL, 'CREATED', 'PRINT', 'PENDING', false, NULL, NULL, '2026-11-20 11:00:00+01', NULL, NULL, 'shipdesk')`)
	if err != nil {
		t.Fatal(err)
	}
}

// The export's cells read back as they were stored, in both languages: quoted
// where a separator, quote or line break needs it, Czech letters intact, a
// cell that would start a formula prefixed with an apostrophe, local times
// and decimal commas in Czech. The ticked rows' export writes the same lines
// as the filter's.
func TestCSVExportCellsReadBackSafely(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	seedExport(t, env)
	manager := env.SignedIn(identity.Manager)
	resp := manager.Get("/tracking.csv?carrier=UPS&sort=old")
	rows, err := csv.NewReader(strings.NewReader(resp.Body)).ReadAll()
	if resp.StatusCode != 200 || err != nil || len(rows) != 4 {
		t.Fatalf("English export: %d, %d rows, %v\n%s", resp.StatusCode, len(rows), err, resp.Body)
	}
	head := rows[0]
	cell := func(row []string, name string) string {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("no column %q in %q", name, head)
		}
		return row[i]
	}
	want := []map[string]string{
		{"reference": "EXP-1", "service": `Balík; "domů"`, "recipient": "Žofie Nováková, ml.", "town": "Ústí nad Labem",
			"tracking_number": "G3X00000001", "returned": "false", "cod": "1234.5", "cod_currency": "CZK", "origin": "shipdesk"},
		{"reference": `'=HYPERLINK("http://x")`, "service": "'+Express", "recipient": `'@Petr "Pepa" Svoboda`, "town": "'-Brno",
			"returned": "true", "cod": "12", "cod_currency": "EUR", "delivered": "", "last_checked": "", "origin": "service"},
		{"reference": "EXP-3", "recipient": "Řádek\nDruhý", "town": "'\tPraha", "tracking_number": "", "state": "being ordered",
			"label_status": "label being made", "cod": "", "cod_currency": ""},
	}
	for i, w := range want {
		for k, v := range w {
			if got := cell(rows[i+1], k); got != v {
				t.Errorf("row %d, %s: %q, want %q", i+1, k, got, v)
			}
		}
	}
	// Times as RFC 3339, each the instant stored.
	for k, v := range map[string]string{"created": "2026-11-20T09:05:00+01:00", "delivered": "2026-11-21T14:30:00+01:00", "last_checked": "2026-11-21T15:00:00+01:00"} {
		got, err := time.Parse(time.RFC3339, cell(rows[1], k))
		if want, _ := time.Parse(time.RFC3339, v); err != nil || !got.Equal(want) {
			t.Errorf("%s: %q, want %s", k, cell(rows[1], k), v)
		}
	}
	// The ticked rows, in the order ticked, give the same lines.
	ids := []string{rows[3][0], rows[1][0]}
	sel := manager.PostForm("/tracking/selection/export", url.Values{"ids": ids})
	picked, err := csv.NewReader(strings.NewReader(sel.Body)).ReadAll()
	if sel.StatusCode != 200 || err != nil || len(picked) != 3 || !slices.Equal(picked[0], head) ||
		!slices.Equal(picked[1], rows[3]) || !slices.Equal(picked[2], rows[1]) {
		t.Errorf("selection export: %d %v\n%q\nwant\n%q", sel.StatusCode, err, picked, [][]string{head, rows[3], rows[1]})
	}

	// In Czech: ";" and the same texts, local times, decimal commas.
	if r := manager.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/tracking"}}); r.StatusCode != 303 {
		t.Fatalf("switch to Czech: %d", r.StatusCode)
	}
	body := manager.Get("/tracking.csv?carrier=UPS&sort=old").Body
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\ufeff")))
	r.Comma = ';'
	cz, err := r.ReadAll()
	if err != nil || len(cz) != 4 {
		t.Fatalf("Czech export: %d rows, %v\n%s", len(cz), err, body)
	}
	for i, w := range []map[int]string{
		{2: "EXP-1", 4: "Žofie Nováková, ml.", 7: `Balík; "domů"`, 11: "ne", 12: "1234,5", 1: "20. 11. 2026 09:05", 14: "21. 11. 2026 14:30"},
		{2: `'=HYPERLINK("http://x")`, 4: `'@Petr "Pepa" Svoboda`, 11: "ano", 12: "12", 13: "EUR", 14: ""},
		{4: "Řádek\nDruhý", 5: "'\tPraha", 12: ""},
	} {
		for col, v := range w {
			if got := cz[i+1][col]; got != v {
				t.Errorf("Czech row %d, column %d (%s): %q, want %q", i+1, col, cz[0][col], got, v)
			}
		}
	}
}

// gatedWriter is a client that takes the export's first bytes and then
// stops reading until released, as a slow network would.
type gatedWriter struct {
	header  http.Header
	status  int
	mu      sync.Mutex
	body    bytes.Buffer
	first   chan struct{}
	release chan struct{}
	once    sync.Once
}

func (g *gatedWriter) Header() http.Header { return g.header }
func (g *gatedWriter) WriteHeader(code int) {
	if g.status == 0 {
		g.status = code
	}
}
func (g *gatedWriter) Flush() {}
func (g *gatedWriter) Write(p []byte) (int, error) {
	g.WriteHeader(http.StatusOK)
	g.mu.Lock()
	g.body.Write(p)
	g.mu.Unlock()
	g.once.Do(func() {
		close(g.first)
		<-g.release
	})
	return len(p), nil
}

// The export streams: its first rows reach the client while the database is
// still sending the rest (its query is active, waiting on us), so the export
// of any size holds a buffer of rows, never all of them. Then the whole file
// arrives, every row once, in the list's order.
func TestCSVExportStreamsRowsAsTheyCome(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	const n = 30000 // some 4 MB from the database: far more than the sockets between hold
	seedList(t, env, n)
	manager := env.SignedIn(identity.Manager)
	req := httptest.NewRequest(http.MethodGet, env.URL+"/tracking.csv", nil)
	u, _ := url.Parse(env.URL)
	for _, c := range manager.Client.Jar.Cookies(u) {
		req.AddCookie(c)
	}
	w := &gatedWriter{header: http.Header{}, first: make(chan struct{}), release: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		env.App.Handler.ServeHTTP(w, req)
	}()
	select {
	case <-w.first:
	case <-done:
		t.Fatalf("the export ended before writing: %d %s", w.status, w.body.String())
	case <-time.After(2 * time.Minute): // only so that a broken export fails instead of hanging
		t.Fatal("no bytes of the export")
	}
	var state string
	err := env.App.DB.SQL().QueryRowContext(context.Background(), `SELECT coalesce(max(state), 'gone') FROM pg_stat_activity
WHERE datname = current_database() AND query LIKE '%/* shipments export */%' AND pid <> pg_backend_pid()`).Scan(&state)
	close(w.release)
	<-done
	if err != nil || state != "active" {
		t.Errorf("when the first bytes reached the client the export's query was %q (%v): the rows were not streamed", state, err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.status != http.StatusOK || !strings.HasPrefix(w.header.Get("Content-Type"), "text/csv") {
		t.Fatalf("export: %d %s", w.status, w.header.Get("Content-Type"))
	}
	body := w.body.String()
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\ufeff")))
	if strings.HasPrefix(body, "\ufeff") {
		r.Comma = ';' // in Czech
	}
	rows, err := r.ReadAll()
	if err != nil || len(rows) != n+1 {
		t.Fatalf("%d rows, %v; want %d and a header", len(rows), err, n)
	}
	for i, row := range rows[1:] {
		if want := "LIST-" + strconv.Itoa(i+1); row[2] != want { // newest first: LIST-1 was created last
			t.Fatalf("row %d is %q, want %q", i+1, row[2], want)
		}
	}
}

// A picker search that matches more points than are counted says "more
// than 1000", in both languages; a narrower one gives the exact number.
func TestPointPickerCountsOnlySoFar(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	var points []storage.ParcelPoint
	for i := range storage.PointsCountCap + 100 {
		points = append(points, storage.ParcelPoint{ID: int64(500000 + i), Carrier: "ZASILKOVNA", Code: "GX" + strconv.Itoa(i),
			Name: "Trafika Brno " + strconv.Itoa(i), Street: "Masarykova " + strconv.Itoa(i%90+1), City: "Brno", Zip: "602 00", Country: "CZ"})
	}
	if err := env.App.DB.UpsertPoints(context.Background(), points, env.App.Upstream.Now()); err != nil {
		t.Fatal(err)
	}
	form := with(shipmentForm(t, env), "offer_service_id", "102", "offer_carrier", "ZASILKOVNA", "offer_delivery", "true")
	ask := func(q string) (string, int) {
		resp := b.PostForm("/shipping/points?for=delivery", with(form, "delivery_q", q))
		if resp.StatusCode != 200 {
			t.Fatalf("picker %q: %d", q, resp.StatusCode)
		}
		d := page(t, resp.Body)
		return strings.TrimSpace(d.Find(`[data-testid=delivery-points-status]`).Text()), d.Find(`input[name=delivery_branch]`).Length()
	}
	if status, n := ask("brno"); n != 15 || status != "Showing 15 of more than 1000 points: type more to narrow the list." {
		t.Errorf("brno: %d points, %q", n, status)
	}
	if status, n := ask(""); n != 15 || status != "Showing 15 of more than 1000 points in Brno: type more to narrow the list." {
		t.Errorf("nothing typed: %d points, %q", n, status)
	}
	if status, n := ask("trafika brno 105"); n != 11 || status != "" { // 105 and 1050–1059: all shown
		t.Errorf("trafika brno 105: %d points, %q", n, status)
	}
	b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/shipping/new"}})
	if status, _ := ask("brno"); status != "Zobrazeno 15 z více než 1000 míst: hledání upřesníte dalšími písmeny." {
		t.Errorf("Czech: %q", status)
	}
}
