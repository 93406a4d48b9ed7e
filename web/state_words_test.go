package web_test

import (
	"encoding/csv"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/xuri/excelize/v2"

	"shipdesk/app/apptest"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/views"
)

// statesDesk is a desk whose shipments stand, after each was asked about,
// in every state the service moves a parcel through, by every way a label
// comes (printed, brought by the courier, a hand-over code), one of them
// cancelled. It returns the pages of the shipments by their state.
func statesDesk(t *testing.T) (*apptest.Env, map[string]string) {
	t.Helper()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	var pages []string
	placeAs := func(carrier string) string {
		p := place(t, b, with(form, "key", requestkey.New()), carrier)
		var tn string
		if err := env.App.DB.SQL().QueryRow(`SELECT tracking_number FROM shipments WHERE id = $1`, p[strings.LastIndex(p, "/")+1:]).Scan(&tn); err != nil {
			t.Fatal(err)
		}
		env.Sandbox.LabelsFetched(tn) // its printed label was fetched: the courier takes the parcel
		pages = append(pages, p)
		return p
	}
	// The sandbox moves a parcel by its age: exported after a minute, out for
	// pickup after 6, in transit after 16, out for delivery after 46,
	// delivered after 56, a second package two minutes behind the first.
	byState := map[string]string{}
	placeAs("UPS")
	byState["DELIVERED"] = placeAs("PPL") // the courier brings the label
	pages = append(pages, shipmentPath(placeLabelFree(t, b, env)))
	env.Sandbox.Advance(12 * time.Minute)
	byState["ONDELIVERY"] = placeAs("PPL")
	env.Sandbox.Advance(20 * time.Minute)
	byState["INTRANSIT"] = placeAs("UPS")
	env.Sandbox.Advance(20 * time.Minute)
	byState["ONPICKUP"] = placeAs("PPL")
	env.Sandbox.Advance(7 * time.Minute)
	byState["EXPORTED"] = placeAs("UPS")
	cancelled := placeAs("UPS")
	env.Sandbox.Advance(3 * time.Minute)
	byState["CREATED"] = placeAs("PPL")
	if r := b.PostForm(cancelled+"/storno", url.Values{"confirm": {"yes"}}); r.StatusCode != 303 {
		t.Fatalf("storno: %d", r.StatusCode)
	}
	byState["CANCELLED"] = cancelled
	for _, p := range pages {
		if r := b.PostForm(p+"/refresh", nil); r.StatusCode != 303 {
			t.Fatalf("refresh %s: %d", p, r.StatusCode)
		}
	}
	for want, p := range byState {
		if got := storedStatus(t, env, p); got != want {
			t.Fatalf("%s stands at %s, want %s", p, got, want)
		}
	}
	return env, byState
}

func shipmentPath(id string) string { return "/shipping/shipments/" + id }

func storedStatus(t *testing.T, env *apptest.Env, pagePath string) string {
	t.Helper()
	var status string
	id := pagePath[strings.LastIndex(pagePath, "/")+1:]
	if err := env.App.DB.SQL().QueryRow(`SELECT status FROM shipments WHERE id = $1`, id).Scan(&status); err != nil {
		t.Fatal(err)
	}
	return status
}

// No code of the service reaches a person: the shipment pages in every state
// and label way, the lists, the print queue, the batches, the figures and
// every export (CSV and XLSX) in Czech and English carry none of the codes
// of the service's enumerations as a word.
func TestNoServiceCodeIsShown(t *testing.T) {
	t.Parallel()
	env, byState := statesDesk(t)
	codes := env.Sandbox.Codes()
	manager := env.SignedIn(identity.Manager)
	var shipments []string
	for _, p := range byState {
		shipments = append(shipments, p)
	}
	rest, err := env.App.DB.SQL().Query(`SELECT id::text FROM shipments`)
	if err != nil {
		t.Fatal(err)
	}
	for rest.Next() {
		var id string
		_ = rest.Scan(&id)
		if !slices.Contains(shipments, shipmentPath(id)) {
			shipments = append(shipments, shipmentPath(id))
		}
	}
	rest.Close()
	for _, lang := range []string{"cs", "en"} {
		readIn(t, manager, lang)
		pages := append([]string{"/", "/shipping", "/tracking", "/tracking?status=OPEN", "/shipping/print", "/shipping/batches",
			"/shipping/manifest", "/attention", "/reports"}, shipments...)
		for _, p := range pages {
			resp := manager.Get(p)
			if resp.StatusCode != 200 {
				t.Errorf("%s %s: %d", lang, p, resp.StatusCode)
				continue
			}
			if found := sandboxtest.CodesIn(shownText(t, resp.Body), codes); len(found) > 0 {
				t.Errorf("%s %s shows the service's codes %v", lang, p, found)
			}
		}
		for _, p := range append([]string{"/tracking.csv"}, reportExports(t, manager, "csv")...) {
			for _, row := range exportRows(t, manager, p, lang) {
				if found := sandboxtest.CodesIn(strings.Join(row, " "), codes); len(found) > 0 {
					t.Errorf("%s %s: a row shows the service's codes %v: %q", lang, p, found, row)
				}
			}
		}
		for _, p := range append(reportExports(t, manager, "xlsx"), "/attention/summary.xlsx") {
			for _, row := range xlsxRows(t, manager, p) {
				if found := sandboxtest.CodesIn(strings.Join(row, " "), codes); len(found) > 0 {
					t.Errorf("%s %s: a row shows the service's codes %v: %q", lang, p, found, row)
				}
			}
		}
	}
}

// reportExports are the figures page's downloads in a format.
func reportExports(t *testing.T, b *apptest.Browser, format string) []string {
	t.Helper()
	var out []string
	page(t, b.Get("/reports").Body).Find(`[data-testid^=export-] a`).Each(func(_ int, s *goquery.Selection) {
		if u, err := url.Parse(s.AttrOr("href", "")); err == nil && u.Query().Get("format") == format {
			out = append(out, u.String())
		}
	})
	if len(out) == 0 {
		t.Fatalf("the figures page offers no %s export", format)
	}
	return out
}

// exportRows reads a CSV download in the reader's language.
func exportRows(t *testing.T, b *apptest.Browser, path, lang string) [][]string {
	t.Helper()
	resp := b.Get(path)
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %d", path, resp.StatusCode)
	}
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(resp.Body, "\ufeff")))
	if lang == "cs" {
		r.Comma = ';'
	}
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil || len(rows) < 1 {
		t.Fatalf("%s: %d rows, %v", path, len(rows), err)
	}
	return rows
}

func xlsxRows(t *testing.T, b *apptest.Browser, path string) [][]string {
	t.Helper()
	resp := b.Get(path)
	book, err := excelize.OpenReader(strings.NewReader(resp.Body))
	if resp.StatusCode != 200 || err != nil {
		t.Fatalf("%s: %d %v", path, resp.StatusCode, err)
	}
	rows, err := book.GetRows(book.GetSheetName(0))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// A parcel's state reads the same on its page's state line, in its
// timeline's badges, in the list's cell and in the export; EXPORTED says the
// data went to the carrier, not the parcel.
func TestOneSetOfWordsForAState(t *testing.T) {
	t.Parallel()
	env, byState := statesDesk(t)
	clerk := env.SignedIn(identity.Manager)
	for _, r := range readers {
		readIn(t, clerk, r.code)
		list := page(t, clerk.Get("/tracking").Body)
		export := exportRows(t, clerk, "/tracking.csv", r.code)
		stateCol := slices.Index(export[0], i18n.T(r.ctx, "trk.csv.state"))
		for _, status := range []string{"EXPORTED", "ONPICKUP", "INTRANSIT", "ONDELIVERY", "DELIVERED"} {
			p := byState[status]
			want := views.ParcelState(r.ctx, status)
			doc := page(t, clerk.Get(p).Body)
			seen := map[string]string{
				"state line":     doc.Find(`[data-testid=shipment-state] [data-testid=state-words] > span`).First().Text(),
				"package badge":  doc.Find(`.package-timeline h3 .badge`).First().Text(),
				"newest event":   doc.Find(`.package-timeline .timeline li`).First().Find(`.badge`).Text(),
				"the list's row": list.Find(`[data-testid=shipment-list] tr:has(a[href="` + p + `"]) [data-testid=state-words] > span`).First().Text(),
			}
			id := p[strings.LastIndex(p, "/")+1:]
			for _, row := range export[1:] {
				if row[0] == id {
					seen["the export"] = row[stateCol]
				}
			}
			for where, got := range seen {
				if strings.TrimSpace(got) != want {
					t.Errorf("%s %s: the %s says %q, want %q", r.code, status, where, got, want)
				}
			}
		}
	}
	exported := map[string]string{"cs": "data předána dopravci", "en": "data sent to the carrier"}
	for _, r := range readers {
		if got := views.ParcelState(r.ctx, "EXPORTED"); got != exported[r.code] {
			t.Errorf("%s: EXPORTED reads %q, want %q", r.code, got, exported[r.code])
		}
	}
}

// A storno the service refuses because the carrier has the parcel by now
// refreshes the shipment: its page says the refusal in words, shows the
// state that is true now and offers no storno.
func TestRefusedStornoShowsTheStateNow(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	shipment := place(t, b, shipmentForm(t, env), "PPL")
	if doc := page(t, b.Get(shipment).Body); doc.Find(`[data-testid=storno-start]`).Length() != 1 {
		t.Fatalf("a new shipment offers no storno: %s", problemsOf(doc.Text()))
	}
	env.Sandbox.Advance(20 * time.Minute) // picked up: in transit, though the desk still holds it as new
	for _, r := range readers {
		t.Run(r.code, func(t *testing.T) {
			readIn(t, b, r.code)
			resp := b.PostForm(shipment+"/storno", url.Values{"confirm": {"yes"}})
			if resp.StatusCode != 303 || resp.Header.Get("Location") != shipment {
				t.Fatalf("refused storno: %d %s", resp.StatusCode, resp.Header.Get("Location"))
			}
			doc := page(t, b.Get(shipment).Body)
			flash := doc.Find(`.flash-error`).Text()
			if !strings.Contains(flash, views.ParcelState(r.ctx, "INTRANSIT")) || strings.Contains(flash, "INTRANSIT") {
				t.Errorf("the refusal is not said in words: %q", flash)
			}
			if got := doc.Find(`[data-testid=shipment-state] [data-testid=state-words] > span`).First().Text(); got != views.ParcelState(r.ctx, "INTRANSIT") {
				t.Errorf("the state line says %q after the refusal, want %q", got, views.ParcelState(r.ctx, "INTRANSIT"))
			}
			if doc.Find(`[data-testid=storno-start]`).Length() != 0 {
				t.Error("the page still offers the storno the service refused")
			}
		})
	}
	if got := storedStatus(t, env, shipment); got != "INTRANSIT" {
		t.Errorf("stored status %s after the refusal, want INTRANSIT", got)
	}
}
