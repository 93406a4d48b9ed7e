package web_test

import (
	"context"
	"encoding/csv"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// selectionPaths are the actions on the shipments list's selection.
var selectionPaths = []string{"/tracking/selection/labels", "/tracking/selection/storno", "/tracking/selection/protocol", "/tracking/selection/export"}

// chipIDs are the shipments a print step lists, in order.
func chipIDs(doc *goquery.Document) []string {
	var ids []string
	doc.Find(`[data-testid=bulk-print] input[name=ids]`).Each(func(_ int, s *goquery.Selection) {
		ids = append(ids, s.AttrOr("value", ""))
	})
	return ids
}

// csvIDs are the ids of a shipments export, in order.
func csvIDs(t *testing.T, body string) []string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil || len(rows) == 0 || rows[0][0] != "id" {
		t.Fatalf("csv: %v %.200q", err, body)
	}
	var ids []string
	for _, r := range rows[1:] {
		ids = append(ids, r[0])
	}
	return ids
}

func TestListOffersTheSelection(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	placed(t, env, b, 3)
	doc := page(t, b.Get("/tracking?size=25").Body)
	form := doc.Find(`form#selection[method=post]`)
	if form.Length() != 1 || form.Find(`[data-testid=shipment-list]`).Length() != 1 {
		t.Fatal("the list is not inside the selection's form")
	}
	if n := form.Find(`tbody td.pick input[type=checkbox][name=ids]`).Length(); n != 3 {
		t.Errorf("%d row checkboxes, want 3", n)
	}
	if all := form.Find(`thead label.pick-all [data-select-all]`); all.Length() != 1 || strings.TrimSpace(all.Parent().Text()) != "Select all on this page" {
		t.Error("no select-all-on-this-page in the header")
	}
	for _, p := range selectionPaths {
		if form.Find(`button[formaction="`+p+`"]`).Length() != 1 {
			t.Errorf("no button posting to %s", p)
		}
	}
	if v := form.Find(`input[type=hidden][name=size]`).AttrOr("value", ""); v != "25" {
		t.Errorf("the list's query is not sent with the selection: size %q", v)
	}
	// Every shipment is on the page: nothing more to select.
	if form.Find(`[data-testid=select-whole]`).Length() != 0 {
		t.Error("the whole filter is offered when the page holds it")
	}
}

// Two ticked shipments with their labels ready and one still being made:
// the print step says which is left out and why, and the print is one PDF
// of the two labels.
func TestSelectionPrintsTheLabelsOfTheTicked(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	ready := placeN(t, b, shipmentForm(t, env), "UPS", 2)
	labelsMade(t, env)
	pending := placeN(t, b, shipmentForm(t, env), "UPS", 1)[0]
	resp := b.PostForm("/tracking/selection/labels", url.Values{"ids": {ready[0], pending, ready[1]}, "size": {"25"}})
	if resp.StatusCode != 200 {
		t.Fatalf("print step: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	doc := page(t, resp.Body)
	if got := chipIDs(doc); !slices.Equal(got, ready) {
		t.Errorf("labels to print %v, want %v", got, ready)
	}
	if got := doc.Find(`[data-testid=bulk-print-count]`).Text(); got != "2 labels to print" {
		t.Errorf("count: %q", got)
	}
	skipped := doc.Find(`[data-testid=bulk-skipped]`).Text()
	if !strings.Contains(skipped, "1 skipped: the label is still being made (no. "+pending+")") {
		t.Errorf("skipped: %q", skipped)
	}
	if doc.Find(`[data-testid=bulk-print] [data-testid=paper] input[name=format][value=A4]`).Length() != 1 ||
		doc.Find(`[data-testid=bulk-print] input[name=start]`).Length() != 4 {
		t.Error("the print step does not ask for the paper")
	}
	if got := doc.Find(`[data-testid=back-to-list]`).AttrOr("href", ""); got != "/tracking?size=25" {
		t.Errorf("the way back: %q", got)
	}
	form := doc.Find(`[data-testid=bulk-print]`)
	if form.AttrOr("action", "") != "/shipping/print" {
		t.Fatalf("the print step posts to %q", form.AttrOr("action", ""))
	}
	pdf := b.PostForm("/shipping/print", url.Values{"ids": chipIDs(doc), "format": {"A6"}, "start": {"1"}})
	if pdf.StatusCode != 200 || pdf.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("print: %d %s", pdf.StatusCode, problemsOf(pdf.Body))
	}
	if pages := sheetPages(t, pdf.Body); len(pages) != 2 || pages[0].size != a6Size {
		t.Errorf("pages: %+v", pages)
	}
	// Nothing to print: said, with no print button.
	resp = b.PostForm("/tracking/selection/labels", url.Values{"ids": {pending}})
	doc = page(t, resp.Body)
	if resp.StatusCode != 409 || !strings.Contains(doc.Find(`[data-testid=bulk-problem]`).Text(), "None of the selected shipments has a label") ||
		doc.Find(`[data-testid=bulk-print]`).Length() != 0 {
		t.Errorf("nothing to print: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
}

// Three shipments to cancel, one of them with the carrier already: the
// confirm step lists the two, names the third, and the storno reports it.
func TestSelectionStornoReportsWhatCannotBeCancelled(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	away := placeN(t, b, form, "UPS", 1)[0]
	env.LabelsFetched() // printed: the sandbox's courier takes only labelled parcels
	env.Sandbox.Advance(3 * time.Hour)
	if _, err := env.App.Jobs.Tracking(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s, _ := env.App.DB.ShipmentByID(context.Background(), atoi(away)); s.Status != "INTRANSIT" && s.Status != "ONDELIVERY" && s.Status != "DELIVERED" {
		t.Fatalf("the first shipment is %s, not with the carrier", s.Status)
	}
	fresh := placeN(t, b, form, "UPS", 2)
	all := url.Values{"ids": {fresh[0], away, fresh[1]}, "q": {"Dvořák"}}
	calls := countCalls(env, "shipments/storno")

	resp := b.PostForm("/tracking/selection/storno", all)
	if resp.StatusCode != 200 {
		t.Fatalf("confirm step: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	doc := page(t, resp.Body)
	step := doc.Find(`[data-testid=confirm]`)
	if got := step.Find(`h1`).Text(); got != "Cancel 2 shipments?" {
		t.Errorf("heading %q", got)
	}
	text := step.Text()
	for _, want := range []string{fresh[0] + " · ", fresh[1] + " · ", "1 cannot be cancelled: already with the carrier (no. " + away + ")"} {
		if !strings.Contains(text, want) {
			t.Errorf("the confirm step lacks %q", want)
		}
	}
	var posted []string
	step.Find(`form input[name=ids]`).Each(func(_ int, s *goquery.Selection) { posted = append(posted, s.AttrOr("value", "")) })
	if !slices.Equal(posted, fresh) || step.Find(`form`).AttrOr("action", "") != "/tracking/selection/storno" {
		t.Errorf("the confirm step posts %v to %q", posted, step.Find(`form`).AttrOr("action", ""))
	}
	if got := step.Find(`[data-testid=confirm-cancel]`).AttrOr("href", ""); got != "/tracking?q="+url.QueryEscape("Dvořák") {
		t.Errorf("the way back: %q", got)
	}
	if n := countCalls(env, "shipments/storno") - calls; n != 0 {
		t.Fatalf("the confirm step cancelled %d shipments", n)
	}

	// Confirmed with all three (as a stale or edited form might): the third is reported.
	resp = b.PostForm("/tracking/selection/storno", with(all, "confirm", "yes"))
	if resp.StatusCode != 200 {
		t.Fatalf("storno: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	doc = page(t, resp.Body)
	if got := doc.Find(`[data-testid=bulk-lead]`).Text(); got != "2 shipments cancelled." {
		t.Errorf("lead %q", got)
	}
	if got := doc.Find(`[data-testid=bulk-problem]`).Text(); got != "1 shipment was not cancelled:" {
		t.Errorf("problem %q", got)
	}
	if got := doc.Find(`[data-testid=bulk-skipped]`).Text(); !strings.Contains(got, "already with the carrier (no. "+away+")") {
		t.Errorf("not reported: %q", got)
	}
	for _, id := range fresh {
		if s, _ := env.App.DB.ShipmentByID(context.Background(), atoi(id)); s.CancelledAt == nil {
			t.Errorf("shipment %s not cancelled", id)
		}
	}
	if s, _ := env.App.DB.ShipmentByID(context.Background(), atoi(away)); s.CancelledAt != nil {
		t.Error("the shipment with the carrier was cancelled")
	}
	if n := countCalls(env, "shipments/storno") - calls; n != 2 {
		t.Errorf("%d storno calls for 2 shipments", n)
	}
	// Again: nothing left to cancel, each said why.
	resp = b.PostForm("/tracking/selection/storno", with(all, "confirm", "yes"))
	if body := page(t, resp.Body).Find(`[data-testid=bulk-skipped]`).Text(); resp.StatusCode != 409 || !strings.Contains(body, "2 are cancelled already") {
		t.Errorf("again: %d %q", resp.StatusCode, body)
	}
}

// A selection across two carriers: one protocol each, in one PDF.
func TestSelectionProtocolPerCarrier(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	ids := append(placeN(t, b, form, "UPS", 2), placeN(t, b, form, "PPL", 1)...)
	other := placeN(t, b, form, "UPS", 1) // not selected
	resp := b.PostForm("/tracking/selection/protocol", url.Values{"ids": ids})
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/pdf" {
		t.Fatalf("protocol: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if n := drawn(resp.Body, "Taken over by (courier): name and signature"); n != 2 {
		t.Errorf("%d protocols, want one per carrier", n)
	}
	if drawn(resp.Body, "2 parcels, 2 packages") < 1 || drawn(resp.Body, "1 parcel, 1 package") < 1 || drawn(resp.Body, "3 parcels") != 0 {
		t.Error("the protocols do not count the selection's parcels")
	}
	// A cancelled shipment is no one's to hand over.
	if r := b.PostForm("/shipping/shipments/"+other[0]+"/storno", url.Values{"confirm": {"yes"}}); r.StatusCode != 303 {
		t.Fatalf("storno: %d", r.StatusCode)
	}
	resp = b.PostForm("/tracking/selection/protocol", url.Values{"ids": other})
	if resp.StatusCode != 409 || !strings.Contains(resp.Body, "None of the selected shipments is to be handed over") {
		t.Errorf("protocol of a cancelled shipment: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
}

// "All of the filter" is the filter's rows, every one of them and no other,
// whatever is ticked on the page.
func TestSelectionOfTheWholeFilter(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	placed(t, env, b, 3, "to_city", "Ostrava", "to_zip", "702 00")
	placed(t, env, b, 2)
	labelsMade(t, env)
	want := listedIDs(b.Get("/tracking?q=ostrava").Body)
	if len(want) != 3 {
		t.Fatalf("the filter lists %v", want)
	}
	filter := url.Values{"q": {"ostrava"}, "scope": {"filter"}, "ids": {"1"}}
	resp := b.PostForm("/tracking/selection/export", filter)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("export: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if got := csvIDs(t, resp.Body); !slices.Equal(got, want) {
		t.Errorf("export of the filter %v, want %v", got, want)
	}
	resp = b.PostForm("/tracking/selection/labels", filter)
	if got := chipIDs(page(t, resp.Body)); resp.StatusCode != 200 || !slices.Equal(got, want) {
		t.Errorf("labels of the filter: %d %v, want %v", resp.StatusCode, got, want)
	}
	// Ticked rows only: the export of two, in the page's order.
	resp = b.PostForm("/tracking/selection/export", url.Values{"ids": {want[2], want[0]}})
	if got := csvIDs(t, resp.Body); !slices.Equal(got, []string{want[2], want[0]}) {
		t.Errorf("export of the ticked: %v", got)
	}
	// In Czech: the request's conventions (";" between cells).
	b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/tracking"}})
	resp = b.PostForm("/tracking/selection/export", url.Values{"ids": {want[0]}})
	if !strings.HasPrefix(resp.Body, "\ufeffČíslo;Vytvořeno;") || len(strings.Split(strings.TrimSpace(resp.Body), "\n")) != 2 {
		t.Errorf("the Czech export is not the Czech CSV: %.80q", resp.Body)
	}
	b.PostForm("/language", url.Values{"lang": {"en"}, "back": {"/tracking"}})
}

// More than the limit of one action: the filter is refused with a message,
// the export takes it.
func TestSelectionOfTooLargeAFilter(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	placeN(t, b, shipmentForm(t, env), "UPS", 1)
	if _, err := env.App.DB.SQL().Exec(`
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, recipient_name, recipient_city,
    tracking_number, status, label_mode, label_status, created_at)
SELECT gen_random_uuid(), 'BULK-' || i, 'created', '{}', 'UPS', 301, 'Zákazník ' || i, 'Olomouc',
    'G3B' || lpad(i::text, 8, '0'), 'EXPORTED', 'PRINT', 'READY', now() - interval '1 day' - i * interval '1 minute'
FROM generate_series(1, 500) AS i`); err != nil {
		t.Fatal(err)
	}
	resp := b.PostForm("/tracking/selection/labels", url.Values{"scope": {"filter"}})
	if resp.StatusCode != 422 || !strings.Contains(resp.Body, "more than 500 shipments") {
		t.Errorf("labels of 501: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	resp = b.PostForm("/tracking/selection/export", url.Values{"scope": {"filter"}})
	if got := csvIDs(t, resp.Body); resp.StatusCode != 200 || len(got) != 501 {
		t.Errorf("export of 501: %d, %d rows", resp.StatusCode, len(got))
	}
	doc := page(t, b.Get("/tracking").Body)
	if got := strings.TrimSpace(doc.Find(`[data-testid=select-whole]`).Parent().Text()); got != "Select all 501 shipments of this filter, not only this page" {
		t.Errorf("the whole filter is offered as %q", got)
	}
}

func TestSelectionRefusesHostileInput(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	id := placeN(t, b, shipmentForm(t, env), "UPS", 1)[0]
	huge := make([]string, 100_000)
	for i := range huge {
		huge[i] = strconv.Itoa(i + 1)
	}
	cases := []struct {
		name   string
		form   url.Values
		status int
		want   string
	}{
		{"no selection", url.Values{}, 422, "Tick the shipments first"},
		{"not a number", url.Values{"ids": {"abc"}}, 422, "could not be read"},
		{"negative", url.Values{"ids": {"-3"}}, 422, "could not be read"},
		{"NUL", url.Values{"ids": {id + "\x00"}}, 422, "could not be read"},
		{"too big a number", url.Values{"ids": {strings.Repeat("9", 40)}}, 422, "could not be read"},
		{"501 ids", url.Values{"ids": slices.Repeat([]string{id}, 501)}, 422, "at most 500"},
		{"100,000 ids", url.Values{"ids": huge}, 413, ""},
		{"unknown scope", url.Values{"scope": {"everything"}}, 422, "could not be read"},
		{"two scopes", url.Values{"scope": {"filter", "filter"}}, 422, "could not be read"},
		{"tampered status", url.Values{"scope": {"filter"}, "status": {"'; DROP TABLE shipments; --"}}, 422, "filter sent with the selection"},
		{"tampered cursor", url.Values{"ids": {id}, "after": {"bm90LWEtY3Vyc29y"}}, 422, "filter sent with the selection"},
		{"NUL in the filter", url.Values{"scope": {"filter"}, "q": {"a\x00b"}}, 422, "filter sent with the selection"},
		{"bad date in the filter", url.Values{"scope": {"filter"}, "from": {"9999-99-99"}}, 422, "filter sent with the selection"},
	}
	for _, c := range cases {
		for _, p := range selectionPaths {
			t.Run(c.name+p, func(t *testing.T) {
				resp := b.PostForm(p, c.form)
				if resp.StatusCode != c.status || !strings.Contains(resp.Body, c.want) {
					t.Errorf("%d %s", resp.StatusCode, problemsOf(resp.Body))
				}
			})
		}
	}
	// Shipments that do not exist: said, nothing done.
	calls := countCalls(env, "shipments/storno") + countCalls(env, "shipments/label")
	for p, status := range map[string]int{"/tracking/selection/labels": 409, "/tracking/selection/storno": 409,
		"/tracking/selection/protocol": 409, "/tracking/selection/export": 422} {
		resp := b.PostForm(p, url.Values{"ids": {"987654", "987655"}, "confirm": {"yes"}})
		if resp.StatusCode != status || !strings.Contains(resp.Body, "do not exist") && status != 409 {
			t.Errorf("%s of missing shipments: %d %s", p, resp.StatusCode, problemsOf(resp.Body))
		}
	}
	resp := b.PostForm("/tracking/selection/labels", url.Values{"ids": {"987654", id}})
	if body := page(t, resp.Body).Find(`[data-testid=bulk-skipped]`).Text(); !strings.Contains(body, "1 selected shipment does not exist (any more).") {
		t.Errorf("a missing shipment among others: %d %q", resp.StatusCode, body)
	}
	if n := countCalls(env, "shipments/storno") + countCalls(env, "shipments/label") - calls; n != 0 {
		t.Errorf("hostile selections made %d calls to the service", n)
	}
	if s, _ := env.App.DB.ShipmentByID(context.Background(), atoi(id)); s.CancelledAt != nil {
		t.Error("a hostile selection cancelled a shipment")
	}
	if r := b.Get("/tracking"); r.StatusCode != 200 || len(listedIDs(r.Body)) != 1 {
		t.Errorf("the list after hostile selections: %d", r.StatusCode)
	}
}

func TestSelectionRefusesOtherRolesAndAnonymous(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	agent := env.SignedIn(identity.Agent)
	anon := env.NewBrowser()
	form := url.Values{"ids": {"1"}, "confirm": {"yes"}}
	for _, p := range selectionPaths {
		if r := agent.PostForm(p, form); r.StatusCode != 403 {
			t.Errorf("agent POST %s: %d", p, r.StatusCode)
		}
		if r := anon.PostForm(p, form); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous POST %s: %d %s", p, r.StatusCode, r.Header.Get("Location"))
		}
	}
	// Managers may: the storno's confirm step, as clerks.
	if r := env.SignedIn(identity.Manager).PostForm("/tracking/selection/storno", url.Values{"ids": {"1"}}); r.StatusCode == 403 {
		t.Error("a manager is refused the selection's storno")
	}
}
