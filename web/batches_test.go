package web_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/client/shipping"
	"shipdesk/identity"
	"shipdesk/storage"
)

// upload posts a file to the import form as a browser does.
func upload(t *testing.T, env *apptest.Env, b *apptest.Browser, name string, data []byte, fields map[string]string) apptest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	if name != "" {
		fw, _ := mw.CreateFormFile("file", name)
		_, _ = fw.Write(data)
	}
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, env.URL+"/shipping/batches", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", env.URL)
	return b.Do(req)
}

func ordersCSV(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../examples/orders.csv")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var batchPath = regexp.MustCompile(`^/shipping/batches/(\d+)$`)

// importOrders imports examples/orders.csv and returns the batch's id.
func importOrders(t *testing.T, env *apptest.Env, b *apptest.Browser) int64 {
	t.Helper()
	resp := upload(t, env, b, "orders.csv", ordersCSV(t), map[string]string{"handover": "ONDEMAND"})
	m := batchPath.FindStringSubmatch(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || m == nil {
		t.Fatalf("import: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	return id
}

// settled waits until no row of the batch is queued for pricing or ordering,
// and returns its rows.
func settled(t *testing.T, env *apptest.Env, batch int64) []storage.BatchRow {
	t.Helper()
	ctx := context.Background()
	for deadline := time.Now().Add(90 * time.Second); ; {
		rows, err := env.App.DB.BatchRows(ctx, batch)
		if err != nil {
			t.Fatal(err)
		}
		busy := false
		for _, r := range rows {
			busy = busy || r.State == storage.RowPricing || r.State == storage.RowOrdering
		}
		if !busy {
			return rows
		}
		if time.Now().After(deadline) {
			t.Fatalf("batch %d still busy: %v", batch, states(rows))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func states(rows []storage.BatchRow) map[string]int {
	out := map[string]int{}
	for _, r := range rows {
		out[r.State]++
	}
	return out
}

// pointRows are the rows of examples/orders.csv naming pickup points the
// sandbox does not have: deliberately bad for the sandbox.
var pointRows = map[int]bool{4: true, 7: true}

func TestBatchImportChecksPricesAndOrdersEachRowOnce(t *testing.T) {
	env, b := deskEnv(t)
	id := importOrders(t, env, b)
	rows := settled(t, env, id)
	if len(rows) != 10 {
		t.Fatalf("rows: %d", len(rows))
	}
	for _, r := range rows {
		want := storage.RowPriced
		if pointRows[r.Line] {
			want = storage.RowProblem
		}
		if r.State != want {
			t.Errorf("line %d: %s, want %s: %s", r.Line, r.State, want, r.Problems)
		}
	}
	path := "/shipping/batches/" + itoa(id)
	doc := page(t, b.Get(path).Body)
	bad := doc.Find(`[data-testid=batch-row][data-line="4"]`)
	if !strings.Contains(bad.Find(`[data-testid=row-problems]`).Text(), "No pickup point has the code ZA00125") {
		t.Errorf("the bad row shows no problem: %q", bad.Text())
	}
	if n := doc.Find(`[data-testid=row-offer]`).Length(); n != 8 {
		t.Errorf("offers shown: %d, want 8", n)
	}

	// The bad rows are fixed in place (htmx gets the row back).
	for _, r := range rows {
		if !pointRows[r.Line] {
			continue
		}
		cells := url.Values{}
		var raw map[string]string
		_ = jsonUnmarshal(r.Raw, &raw)
		for k, v := range raw {
			cells.Set(k, v)
		}
		cells.Del("point_code")
		resp := postHTMX(env, b, path+"/rows/"+itoa(r.ID), cells)
		if resp.StatusCode != 200 || !strings.Contains(resp.Body, `data-testid="batch-row"`) || strings.Contains(resp.Body, "No pickup point") {
			t.Fatalf("fix row %d: %d %s", r.Line, resp.StatusCode, resp.Body)
		}
	}
	rows = settled(t, env, id)
	if s := states(rows); s[storage.RowPriced] != 10 {
		t.Fatalf("after the fixes: %v", s)
	}

	// Two clerks press "order all" at once: each row is ordered once.
	other := signIn(t, env, "clerk2", identity.Clerk)
	var wg sync.WaitGroup
	for _, br := range []*apptest.Browser{b, other} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			br.PostForm(path+"/order", url.Values{})
		}()
	}
	wg.Wait()
	rows = settled(t, env, id)
	for _, r := range rows {
		if r.State != storage.RowOrdered || r.ShipmentID == nil {
			t.Errorf("line %d: %s %v", r.Line, r.State, r.Error)
		}
	}
	page, err := env.App.Upstream.Shipping.List(context.Background(), shipping.ListQuery{PerPage: 100})
	if err != nil {
		t.Fatal(err)
	}
	refs := map[string]int{}
	for _, s := range page.Shipments {
		refs[s.Reference]++
	}
	for i := 412; i <= 421; i++ {
		if n := refs["OBJ-2026-0"+strconv.Itoa(i)]; n != 1 {
			t.Errorf("the service holds %d orders of OBJ-2026-0%d", n, i)
		}
	}
	// A third press finds nothing to order.
	if resp := b.PostForm(path+"/order", url.Values{}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("order again: %d", resp.StatusCode)
	}
	if n := len(settled(t, env, id)); n != 10 || countCalls(env, "shipments/create") != 10 {
		t.Errorf("create calls: %d", countCalls(env, "shipments/create"))
	}
}

// postHTMX posts a form as htmx does.
func postHTMX(env *apptest.Env, b *apptest.Browser, path string, form url.Values) apptest.Response {
	req, _ := http.NewRequest(http.MethodPost, env.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", env.URL)
	req.Header.Set("HX-Request", "true")
	return b.Do(req)
}
