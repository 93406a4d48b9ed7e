package web_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"shipdesk/identity"
	"shipdesk/orderfile"
)

// The import page offers our template as CSV and XLSX with its column guide;
// each download reads back as our template. Other roles and anonymous
// requests get none of them, and an unknown file is 404.
func TestBatchTemplateDownloads(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	page := htmlOf(t, b.Get("/shipping/batches/new").Body)
	links := page.Find(`[data-testid=batch-template] a`)
	if links.Length() != 3 {
		t.Fatalf("%d template links on the import page", links.Length())
	}
	for _, c := range []struct{ file, ctype string }{
		{"orders.csv", "text/csv"}, {"orders.xlsx", "application/vnd.openxmlformats"}, {"orders-guide.md", "text/markdown"},
	} {
		resp := b.Get("/shipping/batch-template/" + c.file)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), c.ctype) ||
			!strings.Contains(resp.Header.Get("Content-Disposition"), c.file) {
			t.Errorf("%s: %d %s %s", c.file, resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Content-Disposition"))
			continue
		}
		if c.file == "orders-guide.md" {
			continue
		}
		f, err := orderfile.Read(bytes.NewReader([]byte(resp.Body)), nil)
		if err != nil || len(f.Problems) > 0 || f.Mapping.Source != orderfile.TemplateSource || len(f.Rows) != 10 {
			t.Errorf("%s does not read back as our template: %v %v", c.file, err, f.Problems)
		}
	}
	if r := b.Get("/shipping/batch-template/..%2f..%2fgo.mod"); r.StatusCode != http.StatusNotFound {
		t.Errorf("another file: %d", r.StatusCode)
	}
	if r := env.SignedIn(identity.Agent).Get("/shipping/batch-template/orders.csv"); r.StatusCode != http.StatusForbidden {
		t.Errorf("an agent: %d", r.StatusCode)
	}
	if r := env.NewBrowser().Get("/shipping/batch-template/orders.csv"); r.StatusCode != http.StatusSeeOther {
		t.Errorf("anonymous: %d", r.StatusCode)
	}
}
