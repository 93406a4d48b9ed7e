package web_test

import (
	"context"
	"encoding/csv"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/requestkey"
)

// placed orders n shipments through the pages and returns their page paths.
func placed(t testing.TB, env *apptest.Env, b *apptest.Browser, n int, kv ...string) []string {
	t.Helper()
	var out []string
	for range n {
		out = append(out, place(t, b, with(shipmentForm(t, env), append([]string{"key", requestkey.New()}, kv...)...), "UPS"))
	}
	return out
}

var listRow = regexp.MustCompile(`<tr><td class="pick"><input type="checkbox" name="ids" value="\d+"[^>]*></td><td><a href="/shipping/shipments/(\d+)">`)

func listedIDs(body string) []string {
	var ids []string
	for _, m := range listRow.FindAllStringSubmatch(body, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

func TestShipmentListFiltersPagesAndExports(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	placed(t, env, b, 3, "to_surname", "Dvořák")
	placed(t, env, b, 2, "to_surname", "Malá", "to_city", "Ostrava", "to_zip", "702 00")
	manager := env.SignedIn(identity.Manager)
	all := manager.Get("/tracking")
	if all.StatusCode != 200 || len(listedIDs(all.Body)) != 5 {
		t.Fatalf("list: %d, %d rows", all.StatusCode, len(listedIDs(all.Body)))
	}
	// Text filter, in the URL.
	if ids := listedIDs(manager.Get("/tracking?q=ostrava").Body); len(ids) != 2 {
		t.Errorf("q=ostrava: %v", ids)
	}
	if ids := listedIDs(manager.Get("/tracking?q=dvo%C5%99%C3%A1k&status=OPEN&carrier=UPS").Body); len(ids) != 3 {
		t.Errorf("recipient, open, UPS: %v", ids)
	}
	if ids := listedIDs(manager.Get("/tracking?status=DELIVERED").Body); len(ids) != 0 {
		t.Errorf("delivered before anything moved: %v", ids)
	}
	// Paging itself is tested in storage; here the A–Z order reaches the page.
	byName := manager.Get("/tracking?sort=recipient").Body
	if len(listedIDs(byName)) != 5 || strings.LastIndex(byName, "Jana Dvořák") > strings.Index(byName, "Jana Malá") {
		t.Errorf("sort=recipient does not put Dvořák before Malá")
	}
	// CSV of the filtered list.
	resp := manager.Get("/tracking.csv?q=ostrava")
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	rows, err := csv.NewReader(strings.NewReader(resp.Body)).ReadAll()
	if err != nil || len(rows) != 3 || rows[0][0] != "id" || rows[1][4] != "Jana Malá" {
		t.Errorf("csv rows %v %v", rows, err)
	}
	// Hostile and malformed filters: a message and 422, never a failure.
	for _, q := range []string{"status=NOPE", "carrier=NOT%20A%20CODE", "carrier=%00", "from=yesterday", "sort=drop", "after=bm90LWEtY3Vyc29y",
		"ref=" + strings.Repeat("x", 500)} {
		resp := manager.Get("/tracking?" + q)
		if resp.StatusCode != 422 || !strings.Contains(resp.Body, `data-testid="filter-problem"`) {
			t.Errorf("%s: %d", q, resp.StatusCode)
		}
	}
	// Text that merely looks hostile is searched for, and found nowhere.
	for _, q := range []string{"after=%%%", "q=" + url.QueryEscape("'; DROP TABLE shipments; --"), "q=%25"} {
		resp := manager.Get("/tracking?" + q)
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d", q, resp.StatusCode)
		}
	}
	if resp := manager.Get("/tracking.csv?status=NOPE"); resp.StatusCode != 400 {
		t.Errorf("csv with a bad filter: %d", resp.StatusCode)
	}
	if ids := listedIDs(manager.Get("/tracking").Body); len(ids) != 5 {
		t.Error("hostile filters changed what is stored")
	}
}

func TestScanBoxOpensTheShipment(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	pages := placed(t, env, b, 2)
	env.Sandbox.Advance(20 * time.Minute)
	body := b.Get(pages[0]).Body
	tn := regexp.MustCompile(`data-testid="tracking-number">([A-Z0-9]+)<`).FindStringSubmatch(body)
	if tn == nil {
		t.Fatal("no tracking number")
	}
	if !strings.Contains(b.Get("/shipping").Body, `data-testid="scan"`) {
		t.Error("no scan box for clerks")
	}
	// Exact tracking number, as typed in lower case with spaces: opens it.
	resp := b.Get("/scan?q=" + url.QueryEscape(" "+strings.ToLower(tn[1])+" "))
	if resp.StatusCode != 303 || resp.Header.Get("Location") != pages[0] {
		t.Errorf("scan tracking number: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	// A package number (the barcode on the label) opens it too.
	s, _ := env.App.DB.ShipmentByID(context.Background(), idOf(pages[0]))
	resp = b.Get("/scan?q=" + s.Packages[0].Number)
	if resp.StatusCode != 303 || resp.Header.Get("Location") != pages[0] {
		t.Errorf("scan package number: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	// A prefix lists the near matches; nothing found says so.
	near := b.Get("/scan?q=" + tn[1][:3])
	if near.StatusCode != 200 || len(regexp.MustCompile(`/shipping/shipments/\d+"`).FindAllString(near.Body, -1)) < 2 {
		t.Errorf("prefix: %d", near.StatusCode)
	}
	if none := b.Get("/scan?q=%3Cscript%3E"); none.StatusCode != 200 || !strings.Contains(none.Body, "No shipment has") || strings.Contains(none.Body, "<script>") {
		t.Errorf("nothing found: %d", none.StatusCode)
	}
}

func idOf(page string) int64 {
	var id int64
	for _, c := range page[strings.LastIndex(page, "/")+1:] {
		id = id*10 + int64(c-'0')
	}
	return id
}

func TestTimelineAndRefreshNow(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	page := placed(t, env, b, 1)[0]
	env.Sandbox.Advance(2 * time.Hour)
	if resp := b.PostForm(page+"/refresh", url.Values{}); resp.StatusCode != 303 {
		t.Fatalf("refresh: %d", resp.StatusCode)
	}
	body := b.Get(page).Body
	if !strings.Contains(body, `data-testid="timeline"`) || !strings.Contains(body, "Asked the service just now") {
		t.Fatalf("timeline: %s", problemsOf(body))
	}
	when := regexp.MustCompile(`<time class="when" datetime="([0-9TZ:-]+)">`).FindAllStringSubmatch(body, -1)
	if len(when) < 2 {
		t.Fatalf("%d events shown", len(when))
	}
	for i := 1; i < len(when); i++ {
		if when[i][1] > when[i-1][1] && !strings.Contains(body[strings.Index(body, when[i-1][0]):strings.Index(body, when[i][0])], "Package 2") {
			t.Errorf("events not newest first: %s after %s", when[i][1], when[i-1][1])
		}
	}
	events, _ := env.App.DB.Events(context.Background(), idOf(page))
	b.PostForm(page+"/refresh", url.Values{})
	again, _ := env.App.DB.Events(context.Background(), idOf(page))
	if len(again) != len(events) {
		t.Errorf("refreshing twice stored %d events, then %d", len(events), len(again))
	}
}

func TestReportsForManagers(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	placed(t, env, b, 3)
	env.LabelsFetched() // printed: the sandbox's courier takes only labelled parcels
	env.Sandbox.Advance(48 * time.Hour)
	if _, err := env.App.Jobs.Tracking(context.Background()); err != nil {
		t.Fatal(err)
	}
	manager := env.SignedIn(identity.Manager)
	resp := manager.Get("/reports")
	if resp.StatusCode != 200 {
		t.Fatalf("reports: %d", resp.StatusCode)
	}
	for _, want := range []string{`data-testid="chart-per-day"`, `data-testid="chart-per-status"`, `data-testid="chart-per-carrier"`, "<rect", "Average days to delivery", "100 % (3)"} {
		if !strings.Contains(resp.Body, want) {
			t.Errorf("reports lack %q", want)
		}
	}
	if resp := manager.Get("/reports?from=2026-13-01&to=x"); resp.StatusCode != 200 || !strings.Contains(resp.Body, "YYYY-MM-DD") {
		t.Errorf("bad dates: %d", resp.StatusCode)
	}
	if resp := manager.Get("/reports?from=2020-01-01&to=2026-01-01"); !strings.Contains(resp.Body, "one day to one year") {
		t.Error("a period over a year is not refused")
	}
	if resp := b.Get("/reports"); resp.StatusCode != 403 {
		t.Errorf("clerk on reports: %d", resp.StatusCode)
	}
}

func TestTrackingRefusesOtherRoles(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	agent := env.SignedIn(identity.Agent)
	anon := env.NewBrowser()
	for _, p := range []string{"/tracking", "/tracking.csv", "/scan?q=X", "/reports"} {
		if r := agent.Get(p); r.StatusCode != 403 {
			t.Errorf("agent GET %s: %d", p, r.StatusCode)
		}
		if r := anon.Get(p); r.StatusCode != 303 {
			t.Errorf("anonymous GET %s: %d", p, r.StatusCode)
		}
	}
	if r := agent.PostForm("/shipping/shipments/1/refresh", url.Values{}); r.StatusCode != 403 {
		t.Errorf("agent refresh: %d", r.StatusCode)
	}
	if strings.Contains(agent.Get("/").Body, `data-testid="scan"`) {
		t.Error("agents see the scan box")
	}
}

func TestHomeSaysWhatNeedsAttention(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	placed(t, env, b, 2)
	env.Sandbox.Advance(10 * time.Minute) // exported, not yet picked up: the labels are to print
	if _, err := env.App.Jobs.Labels(context.Background()); err != nil {
		t.Fatal(err)
	}
	if body := b.Get("/").Body; !strings.Contains(body, "2 labels ready to print") || !strings.Contains(body, `href="/shipping/print"`) {
		t.Errorf("clerk's home: %s", problemsOf(body))
	}
	// Agents see no shipping counts; their quiet day says so.
	if body := env.SignedIn(identity.Agent).Get("/").Body; strings.Contains(body, "to print") || !strings.Contains(body, `data-testid="attention-none"`) {
		t.Error("an agent sees shipping counts")
	}
}
