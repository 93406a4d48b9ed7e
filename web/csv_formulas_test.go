package web_test

import (
	"encoding/csv"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// seedFormulas stores a shipment whose texts hold a formula behind the other
// language's separator, and a negative amount on delivery (a correction).
func seedFormulas(t *testing.T, env *apptest.Env) {
	t.Helper()
	_, err := env.App.DB.SQL().Exec(`
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, service_name, recipient_name, recipient_city,
    tracking_number, status, label_mode, label_status, returned, cod_value, cod_currency, price_vat, price_currency, created_at, origin)
VALUES
 (gen_random_uuid(), 'FRM-1', 'created', '{}', 'Jan Novák,=1+1', 301, E'Balík\t-2+3\n+cmd|''/C calc''!A0', 'Jan Novák,=1+1', 'Brno;@SUM(A1)',
  'G3X00000009', 'DELIVERED', 'PRINT', 'READY', false, -12.5, 'CZK', 80, 'CZK', '2026-11-20 09:05:00+01', 'shipdesk')`)
	if err != nil {
		t.Fatal(err)
	}
}

// numberCell is a number as our exports write one, in either language.
var numberCell = regexp.MustCompile(`^-?\d+([.,]\d+)?$`)

// formulaCells are the pieces of a CSV file that a spreadsheet could take for
// a formula, whichever separator it splits the lines at: every piece after a
// comma, a semicolon, a tab or a line break (quotes and spaces skipped) that
// starts with "=", "+", "-" or "@" and is no number.
func formulaCells(body string) []string {
	var bad []string
	for _, piece := range strings.FieldsFunc(body, func(r rune) bool { return strings.ContainsRune(",;\t\r\n", r) }) {
		p := strings.TrimLeft(piece, ` "`)
		if p != "" && strings.ContainsRune("=+-@", rune(p[0])) && !numberCell.MatchString(p) {
			bad = append(bad, piece)
		}
	}
	return bad
}

// readCSV reads an export with its own separator.
func readCSV(t *testing.T, body string, comma rune) [][]string {
	t.Helper()
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\ufeff")))
	r.Comma = comma
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatalf("the export does not read back: %v\n%s", err, body)
	}
	return rows
}

// Every CSV download, in Czech (";") and in English (","), holds no cell
// that a spreadsheet set up for either language would run as a formula: a
// text is neutralised at its start and behind every separator of either
// language, a tab or a line break, and quoted where either separator is in
// it. Numbers stay numbers (a negative amount is no text). Each text reads
// back, with the export's own separator, as stored with the apostrophes.
func TestCSVExportsHoldNoFormulaForEitherLanguage(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	seedFormulas(t, env)
	manager := env.SignedIn(identity.Manager)
	period := "&from=2026-11-01&to=2026-11-30"
	for _, lang := range []struct {
		code  string
		comma rune
		minus string
	}{{"cs", ';', "-12,50"}, {"en", ',', "-12.50"}} {
		if r := manager.PostForm("/language", url.Values{"lang": {lang.code}, "back": {"/tracking"}}); r.StatusCode != 303 {
			t.Fatalf("switch to %s: %d", lang.code, r.StatusCode)
		}
		downloads := map[string]string{}
		for _, p := range []string{"/tracking.csv?ref=FRM-1", "/reports/export?table=carriers&format=csv" + period,
			"/reports/export?table=cod&format=csv" + period, "/attention/summary.csv", "/returns/refunds.csv"} {
			resp := manager.Get(p)
			if resp.StatusCode != 200 {
				t.Fatalf("%s %s: %d", lang.code, p, resp.StatusCode)
			}
			downloads[p] = resp.Body
			if bad := formulaCells(resp.Body); len(bad) > 0 {
				t.Errorf("%s %s: cells a spreadsheet would run: %q", lang.code, p, bad)
			}
		}
		list := readCSV(t, downloads["/tracking.csv?ref=FRM-1"], lang.comma)
		if len(list) != 2 {
			t.Fatalf("%s: %d rows of the list", lang.code, len(list))
		}
		for _, want := range []string{`Jan Novák,'=1+1`, `Brno;'@SUM(A1)`, "Balík\t'-2+3\n'+cmd|'/C calc'!A0"} {
			if !slices.Contains(list[1], want) {
				t.Errorf("%s: %q not read back from %q", lang.code, want, list[1])
			}
		}
		if raw := downloads["/tracking.csv?ref=FRM-1"]; !strings.Contains(raw, `"Jan Novák,'=1+1"`) || !strings.Contains(raw, `"Brno;'@SUM(A1)"`) {
			t.Errorf("%s: a text holding either separator is not quoted:\n%s", lang.code, raw)
		}
		cod := readCSV(t, downloads["/reports/export?table=cod&format=csv"+period], lang.comma)
		if len(cod) != 2 || cod[1][1] != lang.minus {
			t.Errorf("%s: the negative amount is not a number: %q", lang.code, cod)
		}
		carriers := readCSV(t, downloads["/reports/export?table=carriers&format=csv"+period], lang.comma)
		if len(carriers) != 2 || carriers[1][0] != `Jan Novák,'=1+1` {
			t.Errorf("%s: the carrier's name: %q", lang.code, carriers)
		}
	}
}
