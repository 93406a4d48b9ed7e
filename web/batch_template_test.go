package web_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"shipdesk/identity"
	"shipdesk/orderfile"
	"shipdesk/storage"
)

// The import page offers our template as CSV and XLSX and links the page of
// its columns; each download reads back as our template. Other roles and
// anonymous requests get none of them, and an unknown file (the former
// Markdown guide among them) is 404.
func TestBatchTemplateDownloads(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	page := htmlOf(t, b.Get("/shipping/batches/new").Body)
	if n := page.Find(`[data-testid=batch-template] a[download]`).Length(); n != 2 {
		t.Fatalf("%d template downloads on the import page", n)
	}
	if href := page.Find(`[data-testid=batch-columns-link]`).AttrOr("href", ""); href != "/shipping/batches/columns" {
		t.Errorf("the column guide's link: %q", href)
	}
	for _, c := range []struct{ file, ctype string }{
		{"orders.csv", "text/csv"}, {"orders.xlsx", "application/vnd.openxmlformats"},
	} {
		resp := b.Get("/shipping/batch-template/" + c.file)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), c.ctype) ||
			!strings.Contains(resp.Header.Get("Content-Disposition"), c.file) {
			t.Errorf("%s: %d %s %s", c.file, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Disposition"))
			continue
		}
		f, err := orderfile.Read(bytes.NewReader([]byte(resp.Body)), nil)
		if err != nil || len(f.Problems) > 0 || f.Mapping.Source != orderfile.TemplateSource || len(f.Rows) != 10 {
			t.Errorf("%s does not read back as our template: %v %v", c.file, err, f.Problems)
		}
	}
	for _, other := range []string{"orders-guide.md", "..%2f..%2fgo.mod"} {
		if r := b.Get("/shipping/batch-template/" + other); r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d", other, r.StatusCode)
		}
	}
	agent := env.SignedIn(identity.Agent)
	for _, path := range []string{"/shipping/batch-template/orders.csv", "/shipping/batches/columns"} {
		if r := agent.Get(path); r.StatusCode != http.StatusForbidden {
			t.Errorf("an agent at %s: %d", path, r.StatusCode)
		}
		if r := env.NewBrowser().Get(path); r.StatusCode != http.StatusSeeOther {
			t.Errorf("anonymous at %s: %d", path, r.StatusCode)
		}
	}
}

// The template the clerk downloads, as CSV and as a workbook, imports clean
// against the sandbox: its ten example rows are all priced and ready, none
// to be fixed (its pickup points are points the sandbox has).
func TestBatchTemplateImportsClean(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/shipping/batches/new"}})
	for _, file := range []string{"orders.csv", "orders.xlsx"} {
		body := []byte(b.Get("/shipping/batch-template/" + file).Body)
		resp := upload(t, env, b, file, body, map[string]string{"handover": "ONDEMAND"})
		m := batchPath.FindStringSubmatch(resp.Header.Get("Location"))
		if resp.StatusCode != http.StatusSeeOther || m == nil {
			t.Fatalf("%s: import %d %s", file, resp.StatusCode, problemsOf(resp.Body))
		}
		id, _ := strconv.ParseInt(m[1], 10, 64)
		rows := env.SettledBatch(t, id)
		if len(rows) != 10 {
			t.Fatalf("%s: %d rows", file, len(rows))
		}
		for _, r := range rows {
			if r.State != storage.RowPriced {
				t.Errorf("%s line %d: %s %s", file, r.Line, r.State, r.Problems)
			}
		}
		doc := page(t, b.Get(m[0]).Body)
		if c := filterCounts(doc); c["problems"] != "0" || c["ready"] != "10" {
			t.Errorf("%s: the filter's counts %v", file, c)
		}
		if s := doc.Find(`[data-testid=batch-rows]`).Text(); strings.Contains(s, "K opravě") {
			t.Errorf("%s: a row to be fixed on the batch page", file)
		}
	}
}

// The column guide is a page in the reader's language: every column of the
// template has its row, with what it holds, whether it is required, the
// values it accepts and an example, all from the catalog (no key shows).
func TestBatchColumnsGuideInTheReadersLanguage(t *testing.T) {
	t.Parallel()
	_, b := deskEnv(t)
	texts := map[string]map[string]string{}
	for _, lang := range []string{"cs", "en"} {
		b.PostForm("/language", url.Values{"lang": {lang}, "back": {"/shipping/batches/columns"}})
		resp := b.Get("/shipping/batches/columns")
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", lang, resp.StatusCode)
		}
		doc := page(t, resp.Body)
		texts[lang] = map[string]string{}
		for _, f := range orderfile.Fields {
			row := doc.Find(`[data-testid=batch-column][data-column="` + string(f) + `"]`)
			if row.Length() != 1 {
				t.Errorf("%s: column %s has %d rows", lang, f, row.Length())
				continue
			}
			cells := row.Find("td")
			if cells.Length() != 4 {
				t.Errorf("%s: column %s has %d cells", lang, f, cells.Length())
			}
			for i := range cells.Length() {
				if s := strings.TrimSpace(cells.Eq(i).Text()); s == "" || strings.Contains(s, "batchcols.") {
					t.Errorf("%s: column %s cell %d reads %q", lang, f, i, s)
				}
			}
			texts[lang][string(f)] = row.Find(`[data-testid=column-need]`).Text()
		}
	}
	if got := texts["cs"]["phone"]; got != "Ano." {
		t.Errorf("cs: phone required reads %q", got)
	}
	if got := texts["en"]["phone"]; got != "Yes." {
		t.Errorf("en: phone required reads %q", got)
	}
	if got := texts["cs"]["point_code"]; !strings.Contains(got, "Ne") {
		t.Errorf("cs: point code required reads %q", got)
	}
}
