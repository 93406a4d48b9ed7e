package web_test

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/net/html"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/requestkey"
)

// carrierCodes are the carrier table's codes whose name is another word
// (ZASILKOVNA is Zásilkovna): none of them may stand as a word where a
// person reads. A carrier whose name is its code (PPL) says nothing here.
func carrierCodes(t *testing.T, env *apptest.Env) map[string]bool {
	t.Helper()
	carriers, err := env.App.DB.Carriers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for _, c := range carriers {
		if c.Name != "" && c.Name != c.Code {
			codes[c.Code] = true
		}
	}
	for _, must := range []string{"ZASILKOVNA", "WEDO", "BALIKOVNA"} {
		if !codes[must] {
			t.Fatalf("the carrier table names no %s: %v", must, codes)
		}
	}
	return codes
}

// carrierCodesIn are the codes standing as words in text; a word runs over
// hyphens and underscores, so a point's code (ZASILKOVNA-OSTRAVA-125) is no
// carrier's code.
func carrierCodesIn(text string, codes map[string]bool) []string {
	var found []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-'
	}) {
		if codes[w] && !slices.Contains(found, w) {
			found = append(found, w)
		}
	}
	return found
}

// shownText is what a person reads of a page, each element's text apart
// from its neighbours' (a term and its value are two words, not one).
func shownText(t *testing.T, body string) string {
	t.Helper()
	doc := page(t, body)
	doc.Find(`script, style, template, noscript`).Remove()
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteByte(' ')
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range doc.Find(`body`).Nodes {
		walk(n)
	}
	return b.String()
}

// No carrier reaches a person by the service's code for it: the
// new-shipment form with its offers and its chosen one, the shipment pages,
// the lists, the print queue, a batch's page with its rows priced and one
// opened with its offers, the hand-over protocols, the figures, the queue,
// the rules and every export (CSV and XLSX) say each carrier by its name,
// in Czech and English.
func TestNoCarrierCodeIsShown(t *testing.T) {
	t.Parallel()
	env, clerk := deskEnv(t)
	codes := carrierCodes(t, env)
	form := shipmentForm(t, env)
	shipments := []string{
		place(t, clerk, with(form, "key", requestkey.New()), "ZASILKOVNA"),
		place(t, clerk, with(form, "key", requestkey.New()), "WEDO"),
		shipmentPath(placeLabelFree(t, clerk, env)),
	}
	labelsMade(t, env)
	fresh := place(t, clerk, with(form, "key", requestkey.New()), "ZASILKOVNA") // still to be cancelled
	example, err := os.ReadFile("../examples/orders.csv")                       // its points are the sandbox's
	if err != nil {
		t.Fatal(err)
	}
	imported := upload(t, env, clerk, "orders.csv", example, map[string]string{"handover": "ONDEMAND"})
	m := batchPath.FindStringSubmatch(imported.Header.Get("Location"))
	if m == nil {
		t.Fatalf("import: %d %s", imported.StatusCode, problemsOf(imported.Body))
	}
	batch := m[0]
	id, _ := strconv.ParseInt(m[1], 10, 64)
	rows := env.SettledBatch(t, id)
	open := ""
	for _, r := range rows {
		if r.State == "priced" && r.Line == 4 { // to a point: its offers of other carriers say whose the point is
			open = batch + "?open=" + itoa(r.ID)
		}
	}
	if open == "" {
		t.Fatal("line 4 of the batch is not priced")
	}
	const pointCode = "ZASILKOVNA-OSTRAVA-6" // line 4 of the example
	points, err := env.App.DB.PointsByCode(context.Background(), pointCode)
	if err != nil || len(points) != 1 {
		t.Fatalf("the point of line 4: %v %v", points, err)
	}
	pointName := points[0].Name
	manager := env.SignedIn(identity.Manager)
	seen := func(lang, where, text string) {
		t.Helper()
		if found := carrierCodesIn(text, codes); len(found) > 0 {
			t.Errorf("%s %s shows the carriers' codes %v", lang, where, found)
		}
	}
	for _, lang := range []string{"cs", "en"} {
		readIn(t, clerk, lang)
		readIn(t, manager, lang)
		compared := clerk.PostForm("/shipping/new/compare", form)
		if compared.StatusCode != 200 || !strings.Contains(compared.Body, `data-carrier="ZASILKOVNA"`) {
			t.Fatalf("%s: the form lists no offer of Zásilkovna: %d %s", lang, compared.StatusCode, problemsOf(compared.Body))
		}
		seen(lang, "the offers", shownText(t, compared.Body))
		chosen := clerk.PostForm("/shipping/new/choose", with(form, "choose", offerOf(t, compared.Body, "ZASILKOVNA")))
		if !strings.Contains(shownText(t, chosen.Body), "Zásilkovna") {
			t.Errorf("%s: the chosen offer does not name its carrier: %s", lang, problemsOf(chosen.Body))
		}
		seen(lang, "the chosen offer", shownText(t, chosen.Body))
		pages := append([]string{"/", "/shipping", "/tracking", "/shipping/print", "/shipping/batches", batch, open,
			"/shipping/manifest", "/shipping/pickups", "/shipping/rules", "/attention", "/reports", fresh + "/storno"}, shipments...)
		for _, p := range pages {
			resp := manager.Get(p)
			if resp.StatusCode != 200 {
				t.Errorf("%s %s: %d", lang, p, resp.StatusCode)
				continue
			}
			seen(lang, p, shownText(t, resp.Body))
		}
		// A row's point by its name, not by the code the file gave.
		point := page(t, manager.Get(batch).Body).Find(`[data-testid=batch-row][data-line="4"] .batch-point`).Text()
		if !strings.Contains(point, pointName) || strings.Contains(point, pointCode) {
			t.Errorf("%s: the batch's row names its point %q, want %q", lang, point, pointName)
		}
		if text := shownText(t, manager.Get(shipments[0]).Body); !strings.Contains(text, "Zásilkovna") {
			t.Errorf("%s: the shipment's page does not name its carrier", lang)
		}
		for _, p := range append([]string{"/tracking.csv"}, reportExports(t, manager, "csv")...) {
			for _, row := range exportRows(t, manager, p, lang) {
				seen(lang, p+" "+strings.Join(row, ";"), strings.Join(row, " "))
			}
		}
		for _, p := range append(reportExports(t, manager, "xlsx"), "/attention/summary.xlsx") {
			for _, row := range xlsxRows(t, manager, p) {
				seen(lang, p+" "+strings.Join(row, ";"), strings.Join(row, " "))
			}
		}
	}
}
