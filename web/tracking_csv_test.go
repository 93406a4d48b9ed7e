package web_test

import (
	"encoding/csv"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"shipdesk/identity"
)

// The export follows the person's language: Czech with a byte-order mark, ";"
// and local times; English with ",".
func TestCSVExportInCzechAndEnglish(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := with(shipmentForm(t, env), "cod", "on", "cod_currency", "CZK", "cod_bank_account", "19-2000145399", "cod_bank_code", "0800")
	_, full := order(t, b, with(form, "cod_value", "500"), "UPS")
	if resp := b.PostForm("/shipping/new/order", full); resp.StatusCode != 303 {
		t.Fatalf("COD order: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	manager := env.SignedIn(identity.Manager)
	if r := manager.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/tracking"}}); r.StatusCode != 303 {
		t.Fatalf("switch to Czech: %d", r.StatusCode)
	}
	body := manager.Get("/tracking.csv").Body
	if !strings.HasPrefix(body, "\ufeff") {
		t.Fatal("the Czech export has no byte-order mark")
	}
	r := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\ufeff")))
	r.Comma = ';'
	rows, err := r.ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("Czech export: %d rows, %v", len(rows), err)
	}
	head := rows[0]
	col := func(name string) int {
		i := slices.Index(head, name)
		if i < 0 {
			t.Fatalf("no column %q in %q", name, head)
		}
		return i
	}
	cod, created := col("Dobírka"), col("Vytvořeno")
	local := regexp.MustCompile(`^\d{1,2}\. \d{1,2}\. \d{4} \d{2}:\d{2}$`)
	found := false
	for _, row := range rows[1:] {
		if !local.MatchString(row[created]) {
			t.Errorf("created %q is not a Czech local time", row[created])
		}
		if row[cod] == "500" {
			found = true
		}
		if strings.Contains(row[cod], ".") {
			t.Errorf("COD %q has a decimal point", row[cod])
		}
	}
	if !found {
		t.Errorf("the COD amount is not in the export")
	}
	if r := manager.PostForm("/language", url.Values{"lang": {"en"}, "back": {"/tracking"}}); r.StatusCode != 303 {
		t.Fatalf("switch to English: %d", r.StatusCode)
	}
	body = manager.Get("/tracking.csv").Body
	if strings.HasPrefix(body, "\ufeff") {
		t.Error("the English export has a byte-order mark")
	}
	rows, err = csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil || len(rows) < 2 || rows[0][0] != "id" || !slices.Contains(rows[0], "cod") {
		t.Fatalf("English export: %v %v", rows, err)
	}
}
