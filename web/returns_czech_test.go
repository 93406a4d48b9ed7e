package web_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"

	"shipdesk/sandbox/sandboxtest"
)

// A returns-desk agent who chose Czech reads the list and a commission in
// Czech: words, the days left with Czech plurals, dates the Czech way. The
// purchase date may be typed the Czech way too.
func TestReturnsInCzech(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	form := commissionForm(t, env)
	form["purchase_date"] = "1. 10. 2026"
	resp := postMultipart(t, env, b, form, "receipt.pdf", pdfBytes)
	if resp.StatusCode != 303 {
		t.Fatalf("create with a Czech purchase date: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	page := resp.Header.Get("Location")
	if r := b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/returns"}}); r.StatusCode != 303 {
		t.Fatalf("switch to Czech: %d", r.StatusCode)
	}

	setDays := func(days string) {
		t.Helper()
		// The days are counted on the sandbox's clock, which stands at its epoch.
		if _, err := env.App.DB.SQL().Exec(`UPDATE commissions SET deadline_at = $2::timestamptz + $1::interval`, days+" days", sandboxtest.Epoch); err != nil {
			t.Fatal(err)
		}
	}
	setDays("3")
	list := b.Get("/returns").Body
	doc := htmlOf(t, list)
	if h := strings.TrimSpace(doc.Find("h1").First().Text()); h != "Reklamace a servis" {
		t.Errorf("list heading: %q", h)
	}
	row := doc.Find(`[data-testid=commission]`)
	if row.Length() != 1 {
		t.Fatalf("rows: %d", row.Length())
	}
	if got := strings.TrimSpace(row.Find(`[data-testid=days-left]`).Text()); got != "zbývají 3 dny" {
		t.Errorf("days left in the list: %q", got)
	}
	if got := strings.TrimSpace(row.Find("td").Eq(2).Text()); got != "Reklamace" {
		t.Errorf("type in the list: %q", got)
	}
	czechDateTime := regexp.MustCompile(`^\d{1,2}\. \d{1,2}\. \d{4} \d{2}:\d{2}$`)
	if got := strings.TrimSpace(row.Find("td").Eq(6).Text()); !czechDateTime.MatchString(got) {
		t.Errorf("created in the list is not a Czech date: %q", got)
	}
	for _, want := range []string{"Nová zakázka", "Zákazník", "Výrobek", `<option value="warranty">Reklamace</option>`, `<option value="paid_repair">Placená oprava</option>`} {
		if !strings.Contains(list, want) {
			t.Errorf("the list lacks %q", want)
		}
	}

	for days, want := range map[string]string{"1": "zbývá 1 den", "5": "zbývá 5 dní"} {
		setDays(days)
		if got := textOf(htmlOf(t, b.Get(page).Body), "days-left"); got != want {
			t.Errorf("days left in %s days: %q, want %q", days, got, want)
		}
	}
	body := b.Get(page).Body
	doc = htmlOf(t, body)
	if got := textOf(doc, "commission-type"); got != "Reklamace" {
		t.Errorf("type: %q", got)
	}
	for _, want := range []string{"Datum nákupu", "1. 10. 2026", "Závada", "Interní poznámka", "Zpráva zákazníkovi", "Historie", "Poslat zprávu zákazníkovi"} {
		if !strings.Contains(body, want) {
			t.Errorf("the commission page lacks %q", want)
		}
	}
	if strings.Contains(body, "2026-10-01") {
		t.Error("the purchase date is shown the ISO way")
	}
	if title := strings.TrimSpace(doc.Find("title").Text()); strings.Contains(title, "Commission") {
		t.Errorf("title: %q", title)
	}
}
