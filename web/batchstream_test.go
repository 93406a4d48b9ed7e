package web_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/desk"
	"shipdesk/storage"
)

// writeLog is an answer as the handler wrote it, write by write.
type writeLog struct {
	header http.Header
	status int
	writes []int
	body   bytes.Buffer
}

func (w *writeLog) Header() http.Header { return w.header }

func (w *writeLog) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *writeLog) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	w.writes = append(w.writes, len(b))
	return w.body.Write(b)
}

// served asks the dashboard's handler for path with b's session and returns
// the answer write by write.
func served(t *testing.T, env *apptest.Env, b *apptest.Browser, path string) *writeLog {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, env.URL+path, nil)
	u, _ := url.Parse(env.URL)
	for _, c := range b.Jar.Cookies(u) {
		req.AddCookie(c)
	}
	w := &writeLog{header: http.Header{}}
	env.App.Handler.ServeHTTP(w, req)
	return w
}

// A batch of more rows than a print reads at once: its page is written as
// its rows are read, never held whole, and its labels come in the batch's
// order, each asked for once, though a few are asked for at a time.
func TestLargeBatchStreamsItsPageAndLabels(t *testing.T) {
	t.Parallel()
	const rows = 64
	env, b := deskEnv(t)
	r := upload(t, env, b, "many.csv", benchOrders("MANY", rows), map[string]string{"handover": "ONDEMAND"})
	m := batchPath.FindStringSubmatch(r.Header.Get("Location"))
	if m == nil {
		t.Fatalf("import: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	path := "/shipping/batches/" + itoa(id)
	if s := states(env.SettledBatch(t, id)); s[storage.RowPriced] != rows {
		t.Fatalf("priced: %v", s)
	}

	w := served(t, env, b, path)
	doc := page(t, w.body.String())
	lines := doc.Find(`[data-testid=batch-row]`).Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("data-line", "") })
	if w.status != http.StatusOK || len(lines) != rows || lines[0] != "2" || lines[rows-1] != strconv.Itoa(rows+1) {
		t.Fatalf("page: %d, %d rows from line %v", w.status, len(lines), lines[:min(len(lines), 1)])
	}
	if doc.Find(`[data-testid=order-all]`).Length() != 1 || doc.Find(`[data-testid=price-all]`).Length() != 0 ||
		doc.Find(`[data-testid=drafts-all]`).Length() != 1 {
		t.Error("the page's buttons do not follow its rows' states")
	}
	if len(w.writes) < 4 || slices.Max(w.writes) > 64<<10 {
		t.Errorf("a page of %d bytes was written in %d writes, the largest %d bytes: it is held whole", w.body.Len(), len(w.writes), slices.Max(w.writes))
	}

	if resp := b.PostForm(path+"/order", nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("order: %d", resp.StatusCode)
	}
	if s := states(env.SettledBatch(t, id)); s[storage.RowOrdered] != rows {
		t.Fatalf("ordered: %v", s)
	}
	labelsMade(t, env)
	ctx := context.Background()
	ids, _ := env.App.DB.BatchShipmentIDs(ctx, id)
	shipments, _ := env.App.DB.ShipmentsByID(ctx, ids)
	ready := map[int64]bool{}
	for _, s := range shipments {
		ready[s.ID] = desk.LabelReady(s)
	}
	want := slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { return !ready[id] })
	calls := countCalls(env, "shipments/label")
	pdf := b.Get(path + "/labels.pdf?format=A4")
	if pages := sheetPages(t, pdf.Body); len(pages) != (len(want)+3)/4 || len(want) <= 50 {
		t.Errorf("%d sheets for %d labels", len(pages), len(want))
	}
	if n := countCalls(env, "shipments/label") - calls; n != int64(len(want)) {
		t.Errorf("%d label calls for %d labels", n, len(want))
	}
	prints, err := env.App.DB.RecentPrintBatches(ctx, 1)
	if err != nil || len(prints) != 1 || !slices.Equal(prints[0].ShipmentIDs, want) {
		t.Errorf("printed out of the batch's order: %v", err)
	}
}
