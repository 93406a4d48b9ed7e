package web_test

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// seedList stores n created shipments straight in the database, a minute
// apart, the newest first: the list's pages are about reading them.
func seedList(t *testing.T, env *apptest.Env, n int) {
	t.Helper()
	_, err := env.App.DB.SQL().Exec(`
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, recipient_name, recipient_city,
    tracking_number, status, label_mode, label_status, created_at)
SELECT gen_random_uuid(), 'LIST-' || i, 'created', '{}', 'UPS', 301, 'Recipient ' || lpad(i::text, 3, '0'), 'Brno',
    'G3L' || lpad(i::text, 8, '0'), 'INTRANSIT', 'PRINT', 'READY', now() - i * interval '1 minute'
FROM generate_series(1, $1) AS i`, n)
	if err != nil {
		t.Fatal(err)
	}
}

// listPage is what a person reads of one page of the list.
type listPage struct {
	status         int
	refs           []string
	total, place   string
	next, prev     string
	first, last    string
	problem        string
	fromErr, toErr string
	sizeErr        string
	doc            *goquery.Document
}

func readList(t *testing.T, b *apptest.Browser, path string) listPage {
	t.Helper()
	resp := b.Get(path)
	if resp.StatusCode >= 500 {
		t.Fatalf("%s: %d", path, resp.StatusCode)
	}
	doc := page(t, resp.Body)
	p := listPage{status: resp.StatusCode, doc: doc,
		total:   strings.TrimSpace(doc.Find(`[data-testid=list-total]`).Text()),
		place:   strings.TrimSpace(doc.Find(`[data-testid=list-position]`).Text()),
		next:    doc.Find(`[data-testid=next-page]`).AttrOr("href", ""),
		prev:    doc.Find(`[data-testid=prev-page]`).AttrOr("href", ""),
		first:   doc.Find(`[data-testid=first-page]`).AttrOr("href", ""),
		last:    doc.Find(`[data-testid=last-page]`).AttrOr("href", ""),
		problem: strings.TrimSpace(doc.Find(`[data-testid=filter-problem]`).Text()),
		fromErr: strings.TrimSpace(doc.Find(`#from-error`).Text()),
		toErr:   strings.TrimSpace(doc.Find(`#to-error`).Text()),
		sizeErr: strings.TrimSpace(doc.Find(`#size-error`).Text()),
	}
	doc.Find(`[data-testid=shipment-list] tbody tr td:nth-child(4)`).Each(func(_ int, s *goquery.Selection) {
		p.refs = append(p.refs, strings.TrimSpace(s.Text()))
	})
	return p
}

func refRange(from, to int) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, "LIST-"+strconv.Itoa(i))
	}
	return out
}

// The manager pages forward and back with a chosen page size, and always
// sees the total of the filter and where the page is in it.
func TestListPagesBothWaysWithTotalAndSize(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	seedList(t, env, 60)
	manager := env.SignedIn(identity.Manager)

	p := readList(t, manager, "/tracking?size=25")
	if p.status != 200 || !slices.Equal(p.refs, refRange(1, 25)) || p.total != "60 shipments" || p.place != "1–25 of 60" {
		t.Fatalf("first page: %d %q %q %v", p.status, p.total, p.place, p.refs)
	}
	if p.prev != "" || p.first != "" || p.next == "" || p.last == "" {
		t.Errorf("first page links: prev %q first %q next %q last %q", p.prev, p.first, p.next, p.last)
	}
	if got := p.doc.Find(`#size option[selected]`).AttrOr("value", ""); got != "25" {
		t.Errorf("the size shown is %q", got)
	}
	p = readList(t, manager, p.next)
	if !slices.Equal(p.refs, refRange(26, 50)) || p.place != "26–50 of 60" || p.prev == "" || p.first == "" {
		t.Fatalf("second page: %q %v prev %q", p.place, p.refs, p.prev)
	}
	second := p
	p = readList(t, manager, p.next)
	if !slices.Equal(p.refs, refRange(51, 60)) || p.place != "51–60 of 60" || p.next != "" || p.last != "" {
		t.Fatalf("third page: %q %v next %q", p.place, p.refs, p.next)
	}
	p = readList(t, manager, p.prev)
	if !slices.Equal(p.refs, second.refs) || p.place != "26–50 of 60" {
		t.Fatalf("back to the second page: %q %v", p.place, p.refs)
	}
	p = readList(t, manager, p.prev)
	if !slices.Equal(p.refs, refRange(1, 25)) || p.place != "1–25 of 60" || p.prev != "" {
		t.Fatalf("back to the first page: %q %v", p.place, p.refs)
	}
	// The last page is the last 25; back from it, the short rest is the
	// first page again, full.
	p = readList(t, manager, second.last)
	if !slices.Equal(p.refs, refRange(36, 60)) || p.place != "36–60 of 60" || p.next != "" {
		t.Fatalf("last page: %q %v", p.place, p.refs)
	}
	p = readList(t, manager, p.prev)
	if !slices.Equal(p.refs, refRange(11, 35)) || p.place != "11–35 of 60" {
		t.Fatalf("before the last page: %q %v", p.place, p.refs)
	}
	p = readList(t, manager, p.prev)
	if !slices.Equal(p.refs, refRange(1, 25)) || p.place != "1–25 of 60" {
		t.Fatalf("back at the start: %q %v", p.place, p.refs)
	}
	// Links keep the filter and the size; the default size is 50.
	if !strings.Contains(second.next, "size=25") || !strings.Contains(second.prev, "size=25") {
		t.Errorf("links lose the size: %s %s", second.next, second.prev)
	}
	if p := readList(t, manager, "/tracking"); len(p.refs) != 50 || p.place != "1–50 of 60" {
		t.Errorf("default size: %d rows, %q", len(p.refs), p.place)
	}
	for _, size := range []string{"100", "200"} {
		if p := readList(t, manager, "/tracking?size="+size); len(p.refs) != 60 || p.place != "1–60 of 60" || p.next != "" {
			t.Errorf("size %s: %d rows, %q", size, len(p.refs), p.place)
		}
	}
	// Other sizes are refused on the size field.
	for _, size := range []string{"10", "7", "1000", "-25", "25.0", "abc", "0"} {
		p := readList(t, manager, "/tracking?size="+url.QueryEscape(size))
		if p.status != 422 || !strings.Contains(p.sizeErr, "25, 50, 100 or 200") || len(p.refs) != 0 {
			t.Errorf("size %s: %d %q", size, p.status, p.sizeErr)
		}
	}
	// A filter's total, in the plural it needs.
	if p := readList(t, manager, "/tracking?q=recipient+001"); p.total != "1 shipment" || p.place != "1–1 of 1" {
		t.Errorf("one: %q %q", p.total, p.place)
	}
	if p := readList(t, manager, "/tracking?q=nobody"); p.total != "0 shipments" || p.place != "" || len(p.refs) != 0 {
		t.Errorf("none: %q %q", p.total, p.place)
	}
	// In Czech: Czech plurals.
	if r := manager.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/tracking"}}); r.StatusCode != 303 {
		t.Fatalf("switch to Czech: %d", r.StatusCode)
	}
	if p := readList(t, manager, "/tracking?size=25"); p.total != "60 zásilek" || p.place != "1–25 z 60" {
		t.Errorf("Czech: %q %q", p.total, p.place)
	}
	if p := readList(t, manager, "/tracking?q=recipient+00"); p.total != "9 zásilek" {
		t.Errorf("Czech 9: %q", p.total)
	}
	if p := readList(t, manager, "/tracking?q=recipient+01"); p.total != "10 zásilek" {
		t.Errorf("Czech 10: %q", p.total)
	}
	if p := readList(t, manager, "/tracking?q=recipient+06"); p.total != "1 zásilka" {
		t.Errorf("Czech 1: %q", p.total)
	}
}

// Thousands are grouped as the language groups them.
func TestListTotalIsGrouped(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	seedList(t, env, 1234)
	manager := env.SignedIn(identity.Manager)
	if p := readList(t, manager, "/tracking?size=200"); p.total != "1,234 shipments" || p.place != "1–200 of 1,234" {
		t.Errorf("English: %q %q", p.total, p.place)
	}
	manager.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/tracking"}})
	if p := readList(t, manager, "/tracking"); p.total != "1\u00a0234 zásilek" || p.place != "1–50 z 1\u00a0234" {
		t.Errorf("Czech: %q %q", p.total, p.place)
	}
}

// A reversed date range says so next to both date fields; a date that is no
// date says that on its field.
func TestListSaysWhatIsWrongWithTheDates(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	seedList(t, env, 3)
	manager := env.SignedIn(identity.Manager)
	p := readList(t, manager, "/tracking?from=2026-11-20&to=2026-11-10")
	if p.status != 422 || !strings.Contains(p.fromErr, "after") || !strings.Contains(p.fromErr, "10 Nov 2026") ||
		!strings.Contains(p.toErr, "before") || !strings.Contains(p.toErr, "20 Nov 2026") || len(p.refs) != 0 {
		t.Errorf("reversed: %d from %q to %q", p.status, p.fromErr, p.toErr)
	}
	if strings.Contains(p.doc.Text(), "No shipments match") {
		t.Error("a reversed range still says only that nothing matches")
	}
	if v := p.doc.Find(`#from`).AttrOr("value", ""); v != "2026-11-20" {
		t.Errorf("the typed day is not kept: %q", v)
	}
	// One day (from = to) is a range, not reversed.
	if p := readList(t, manager, "/tracking?from=2026-11-20&to=20.+11.+2026"); p.status != 200 || p.fromErr != "" {
		t.Errorf("one day: %d %q", p.status, p.fromErr)
	}
	for _, bad := range []string{"31. 2. 2026", "2026-13-01", "yesterday", "0001-01-01", "9999-12-31"} {
		p := readList(t, manager, "/tracking?from="+url.QueryEscape(bad))
		if p.status != 422 || !strings.Contains(p.fromErr, "2026-11-22") {
			t.Errorf("from=%s: %d %q", bad, p.status, p.fromErr)
		}
	}
	manager.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/tracking"}})
	p = readList(t, manager, "/tracking?from=20.+11.+2026&to=10.+11.+2026")
	if p.status != 422 || !strings.Contains(p.fromErr, "obrácený") || !strings.Contains(p.toErr, "20. 11. 2026") {
		t.Errorf("reversed in Czech: from %q to %q", p.fromErr, p.toErr)
	}
	if resp := manager.Get("/tracking.csv?from=2026-11-20&to=2026-11-10"); resp.StatusCode != 400 {
		t.Errorf("csv of a reversed range: %d", resp.StatusCode)
	}
}

// Hostile query parameters get a clear message and 422, never a failure;
// nothing stored changes.
func TestListRefusesHostileParameters(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	seedList(t, env, 30)
	manager := env.SignedIn(identity.Manager)
	next := readList(t, manager, "/tracking?size=25").next
	cursor, _ := url.Parse(next)
	after := cursor.Query().Get("after")
	for name, q := range map[string]string{
		"NUL in the text":       "q=a%00b",
		"NUL in a status":       "status=OPEN%00",
		"invalid UTF-8":         "ref=%FF%FE",
		"huge text":             "q=" + strings.Repeat("x", 100<<10),
		"huge cursor":           "after=" + strings.Repeat("A", 100<<10),
		"SQL as a status":       "status=" + url.QueryEscape("OPEN' OR 1=1 --"),
		"SQL as a sort":         "sort=" + url.QueryEscape("created_at; DROP TABLE shipments"),
		"SQL as a size":         "size=" + url.QueryEscape("25; DROP TABLE shipments"),
		"tampered cursor":       "after=" + after[:len(after)-3] + "xyz",
		"cursor of a name sort": "sort=recipient&after=" + after,
		"cursor with a NUL":     "sort=recipient&after=cjo1OjA6SmFuYQBa",
		"two directions":        "after=" + after + "&before=" + after,
		"last with a cursor":    "last=1&after=" + after,
		"last as text":          "last=yes",
		"control characters":    "carrier=" + url.QueryEscape("UPS\x1b[2J"),
	} {
		p := readList(t, manager, "/tracking?"+q)
		if p.status != 422 || p.problem == "" || len(p.refs) != 0 {
			t.Errorf("%s: %d %q", name, p.status, p.problem)
		}
		if strings.Contains(name, "cursor") || strings.Contains(name, "direction") || strings.Contains(name, "last") {
			if !strings.Contains(p.problem, "page link is damaged") || p.first == "" {
				t.Errorf("%s: %q, first page %q", name, p.problem, p.first)
			}
		}
	}
	if resp := manager.Get("/tracking.csv?after=%00"); resp.StatusCode != 400 {
		t.Errorf("csv with a damaged cursor: %d", resp.StatusCode)
	}
	if p := readList(t, manager, "/tracking?size=200"); len(p.refs) != 30 {
		t.Errorf("%d shipments after the hostile parameters", len(p.refs))
	}
}

// Only managers see the reports and download their tables; clerks and
// agents are refused, anonymous visitors sent to sign in.
func TestReportExportsAreForManagers(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	path := "/reports/export?table=cod&format=csv&from=2026-11-01&to=2026-11-20"
	for _, role := range []identity.Role{identity.Clerk, identity.Agent} {
		b := env.SignedIn(role)
		for _, p := range []string{"/reports", path, strings.Replace(path, "csv", "xlsx", 1)} {
			if r := b.Get(p); r.StatusCode != 403 {
				t.Errorf("%s GET %s: %d", role, p, r.StatusCode)
			}
		}
	}
	if r := env.NewBrowser().Get(path); r.StatusCode != 303 {
		t.Errorf("anonymous: %d", r.StatusCode)
	}
	if r := env.SignedIn(identity.Manager).Get(path); r.StatusCode != 200 {
		t.Errorf("manager: %d", r.StatusCode)
	}
}
