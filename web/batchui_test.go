package web_test

import (
	"bytes"
	"context"
	"maps"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/storage"
)

// uploadAs posts a file to the import form with the content type its
// browser gives it.
func uploadAs(t *testing.T, env *apptest.Env, b *apptest.Browser, name, ctype string, data []byte) apptest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("handover", "ONDEMAND")
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="`+name+`"`)
	if ctype != "" {
		h.Set("Content-Type", ctype)
	}
	fw, _ := mw.CreatePart(h)
	_, _ = fw.Write(data)
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, env.URL+"/shipping/batches", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", env.URL)
	return b.Do(req)
}

// stored counts the batches, their rows and the uploads kept for mapping.
func stored(t *testing.T, env *apptest.Env) [3]int {
	t.Helper()
	var out [3]int
	for i, table := range []string{"batches", "batch_rows", "batch_uploads"} {
		if err := env.App.DB.SQL().QueryRowContext(context.Background(), "SELECT count(*) FROM "+table).Scan(&out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// A picture, a PDF, any binary, an empty file or an upload of another type
// is refused on the upload form itself, said plainly in the clerk's
// language, and nothing is kept: no batch, no upload waiting for mapping.
func TestUploadsThatAreNoOrdersAreRefusedOnTheUploadForm(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00\x1f\xf3\xffa\x00\x00\x00\x04gAMA")
	binary := make([]byte, 4096)
	for i := range binary {
		binary[i] = byte(i * 31 % 256)
	}
	csv := ordersCSV(t)
	const notOrders, wrongType, empty = "is not a table of orders", "which is neither CSV nor XLSX", "The file is empty."
	before := stored(t, env)
	for _, c := range []struct {
		name, file, ctype string
		data              []byte
		want              string
	}{
		{"PNG", "photo.png", "image/png", png, wrongType},
		{"PNG named CSV", "orders.csv", "text/csv", png, notOrders},
		{"PNG of no type", "orders.csv", "application/octet-stream", png, notOrders},
		{"PDF", "orders.csv", "text/csv", []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"), notOrders},
		{"binary", "orders.csv", "", binary, notOrders},
		{"empty", "orders.csv", "text/csv", nil, empty},
		{"blank lines", "orders.csv", "text/csv", []byte("\r\n  \r\n\r\n"), empty},
		{"orders sent as a picture", "orders.csv", "image/png", csv, "“image/png”"},
		{"orders sent as a web page", "orders.csv", "text/html; charset=utf-8", csv, "“text/html”"},
		{"an unreadable type", "orders.csv", "text/<script>", csv, wrongType},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := uploadAs(t, env, b, c.file, c.ctype, c.data)
			doc := page(t, r.Body)
			if r.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-testid=batch-import]`).Length() != 1 || doc.Find(`[data-testid=batch-map]`).Length() != 0 {
				t.Fatalf("%d, upload form %d, mapping form %d: %s", r.StatusCode, doc.Find(`[data-testid=batch-import]`).Length(),
					doc.Find(`[data-testid=batch-map]`).Length(), problemsOf(r.Body))
			}
			if got := doc.Find(`.field.has-error .field-error`).Text(); !strings.Contains(got, c.want) {
				t.Errorf("the file's field says %q, want %q", got, c.want)
			}
			if strings.Contains(r.Body, "<script>") {
				t.Error("the type is shown unescaped")
			}
		})
	}
	if after := stored(t, env); after != before {
		t.Errorf("stored: %v before, %v after", before, after)
	}
	// In Czech.
	b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/shipping/batches/new"}})
	r := uploadAs(t, env, b, "photo.png", "image/png", png)
	if got := page(t, r.Body).Find(`.field.has-error .field-error`).Text(); r.StatusCode != 422 || !strings.Contains(got, "což není CSV ani XLSX") {
		t.Errorf("in Czech: %d %q", r.StatusCode, got)
	}
	r = uploadAs(t, env, b, "orders.csv", "text/csv", png)
	if got := page(t, r.Body).Find(`.field.has-error .field-error`).Text(); r.StatusCode != 422 || !strings.Contains(got, "není tabulka objednávek") {
		t.Errorf("in Czech: %d %q", r.StatusCode, got)
	}
	// The real file still goes in.
	b.PostForm("/language", url.Values{"lang": {"en"}, "back": {"/shipping/batches/new"}})
	if r := uploadAs(t, env, b, "orders.csv", "text/csv", csv); r.StatusCode != http.StatusSeeOther || batchPath.FindStringSubmatch(r.Header.Get("Location")) == nil {
		t.Errorf("the template: %d %s", r.StatusCode, problemsOf(r.Body))
	}
}

// getHTMX asks for a path as htmx does.
func getHTMX(env *apptest.Env, b *apptest.Browser, path string) apptest.Response {
	req, _ := http.NewRequest(http.MethodGet, env.URL+path, nil)
	req.Header.Set("HX-Request", "true")
	return b.Do(req)
}

// rowPart reads a row htmx gets: a tbody, read inside its table.
func rowPart(t *testing.T, body string) *goquery.Document {
	t.Helper()
	return page(t, "<table>"+body+"</table>")
}

// filterCounts reads the filter's choices and their counts.
func filterCounts(doc *goquery.Document) map[string]string {
	out := map[string]string{}
	doc.Find(`[data-testid=batch-filter] a`).Each(func(_ int, a *goquery.Selection) {
		out[a.AttrOr("data-filter", "")] = a.AttrOr("data-count", "")
	})
	return out
}

// lines are the file's lines of the rows a page shows.
func lines(doc *goquery.Document) []string {
	var out []string
	doc.Find(`[data-testid=batch-rows] [data-testid=batch-row]`).Each(func(_ int, r *goquery.Selection) {
		out = append(out, r.AttrOr("data-line", ""))
	})
	return out
}

// A batch's rows are one table, one line per row, with what the clerk needs
// to see at a glance; the filter shows the rows of one state with counts
// for each, and an unknown filter shows all rows and says so.
func TestBatchRowsAreATableFilteredByState(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	id := importOrders(t, env, b)
	rows := env.SettledBatch(t, id)
	path := "/shipping/batches/" + itoa(id)
	doc := page(t, b.Get(path).Body)
	if got := len(lines(doc)); got != 10 {
		t.Fatalf("%d rows shown, want 10", got)
	}
	want := map[string]string{"all": "10", "problems": "2", "ready": "8", "ordered": "0", "failed": "0"}
	if got := filterCounts(doc); !maps.Equal(got, want) {
		t.Errorf("filter counts %v, want %v", got, want)
	}
	if cur := doc.Find(`[data-testid=batch-filter] a[aria-current]`).AttrOr("data-filter", ""); cur != "all" {
		t.Errorf("current filter %q", cur)
	}
	first := doc.Find(`[data-testid=batch-row][data-line="2"] tr.batch-line`)
	text := strings.Join(strings.Fields(first.Text()), " ")
	for _, w := range []string{"OBJ-2026-0412", "Jana Nováková", "100 00 Praha 10", "1.2 kg", "CZK 1,299.00", "the cheapest offer that fits", "Priced"} {
		if !strings.Contains(text, w) {
			t.Errorf("the first row lacks %q: %s", w, text)
		}
	}
	if first.Find(`[data-testid=row-form]`).Length() != 0 {
		t.Error("a closed row carries its edit form")
	}

	problems := page(t, b.Get(path+"?state=problems").Body)
	if got := lines(problems); !slices.Equal(got, []string{"4", "7"}) {
		t.Errorf("rows with problems: %v", got)
	}
	if !strings.Contains(problems.Find(`[data-testid=batch-row][data-line="4"] [data-testid=row-problems]`).Text(), "No pickup point has the code ZASILKOVNA-OSTRAVA-125") {
		t.Error("the problem is not beside its row")
	}
	if cur := problems.Find(`[data-testid=batch-filter] a[aria-current]`).AttrOr("data-filter", ""); cur != "problems" {
		t.Errorf("current filter %q", cur)
	}
	if got := lines(page(t, b.Get(path+"?state=ready").Body)); len(got) != 8 {
		t.Errorf("ready rows: %v", got)
	}
	if none := page(t, b.Get(path+"?state=ordered").Body); len(lines(none)) != 0 || none.Find(`[data-testid=batch-rows-none]`).Length() != 1 {
		t.Error("no ordered row, and the page does not say so")
	}
	// Unknown, empty, repeated or hostile filters: all rows, and a notice for
	// the unknown ones; nothing echoed.
	for q, notice := range map[string]bool{"state=": false, "state=bogus": true, "state=PROBLEMS": true,
		"state=" + url.QueryEscape("<script>alert(1)</script>"): true, "state=" + strings.Repeat("x", 5000): true,
		"state=problems%00": true, "state=ready&state=problems": false, "open=-1": false, "open=" + itoa(rows[0].ID) + "x": false} {
		r := b.Get(path + "?" + q)
		d := page(t, r.Body)
		if r.StatusCode != 200 || (len(lines(d)) == 10) == strings.HasPrefix(q, "state=ready&") {
			t.Errorf("%.40s: %d, %d rows", q, r.StatusCode, len(lines(d)))
		}
		if got := d.Find(`[data-testid=filter-problem]`).Length() == 1; got != notice {
			t.Errorf("%.40s: notice %v", q, got)
		}
		if strings.Contains(r.Body, "<script>alert") || strings.Contains(r.Body, strings.Repeat("x", 5000)) {
			t.Errorf("%.40s: the filter is echoed", q)
		}
	}
	if !strings.Contains(page(t, b.Get(path+"?state=bogus").Body).Find(`[data-testid=filter-problem]`).Text(), "all rows are shown") {
		t.Error("the notice does not say what is shown")
	}
}

// A row opens in place (htmx swaps that row only; without htmx the page
// shows it opened), is corrected there and closes once it has no problem;
// it then asks for itself until it is priced. The clerk's choice of another
// offer is made in the opened row too.
func TestBatchRowOpensIsFixedAndOverriddenInPlace(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	id := importOrders(t, env, b)
	rows := env.SettledBatch(t, id)
	path := "/shipping/batches/" + itoa(id)
	var bad, good storage.BatchRow
	for _, r := range rows {
		switch r.Line {
		case 4:
			bad = r
		case 3:
			good = r
		}
	}
	rowPath := path + "/rows/" + itoa(bad.ID)

	// Without htmx: the page with the row opened, the filter kept.
	r := b.Get(rowPath + "?open=1&state=problems")
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != path+"?open="+itoa(bad.ID)+"&state=problems#row-"+itoa(bad.ID) {
		t.Fatalf("open without htmx: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	doc := page(t, b.Get(path+"?open="+itoa(bad.ID)+"&state=problems").Body)
	opened := doc.Find(`#row-` + itoa(bad.ID))
	if opened.Find(`[data-testid=row-form]`).Length() != 1 || doc.Find(`[data-testid=row-form]`).Length() != 1 {
		t.Fatalf("the opened row has no edit form, or others have one too")
	}
	if _, ok := opened.Find(`#row-` + itoa(bad.ID) + `-point_code`).Attr("autofocus"); !ok {
		t.Error("the field with the problem does not take the focus")
	}
	if v := opened.Find(`[data-testid=row-form] input[name=state]`).AttrOr("value", ""); v != "problems" {
		t.Errorf("the form keeps filter %q", v)
	}

	// With htmx: only the row, opened and closed.
	r = getHTMX(env, b, rowPath+"?open=1&state=problems")
	part := rowPart(t, r.Body)
	if r.StatusCode != 200 || part.Find(`tbody[data-testid=batch-row]`).Length() != 1 || part.Find(`[data-testid=row-form]`).Length() != 1 ||
		strings.Contains(r.Body, "<html") {
		t.Fatalf("open with htmx: %d %s", r.StatusCode, r.Body)
	}
	if r := getHTMX(env, b, rowPath+"?state=problems"); r.StatusCode != 200 || strings.Contains(r.Body, `data-testid="row-form"`) {
		t.Errorf("close with htmx: %d", r.StatusCode)
	}
	if r := getHTMX(env, b, path+"/rows/"+itoa(bad.ID+100000)+"?open=1"); r.StatusCode != http.StatusNotFound {
		t.Errorf("a row of no batch: %d", r.StatusCode)
	}

	// Corrected in place: the row comes back closed, being priced, asking for itself.
	var raw map[string]string
	_ = jsonUnmarshal(bad.Raw, &raw)
	cells := url.Values{"state": {"problems"}}
	for k, v := range raw {
		cells.Set(k, v)
	}
	cells.Del("point_code")
	r = postHTMX(env, b, rowPath, cells)
	fixed := rowPart(t, r.Body).Find(`tbody[data-testid=batch-row]`)
	if r.StatusCode != 200 || fixed.Find(`[data-testid=row-problems]`).Length() != 0 || fixed.Find(`[data-testid=row-form]`).Length() != 0 {
		t.Fatalf("fix: %d %s", r.StatusCode, r.Body)
	}
	if state := fixed.AttrOr("data-state", ""); state == storage.RowPricing && fixed.AttrOr("hx-trigger", "") != "every 2s" {
		t.Errorf("a row being priced does not ask for itself: %s", r.Body)
	}
	env.SettledBatch(t, id)
	settled := rowPart(t, getHTMX(env, b, rowPath+"?poll=1&state=problems").Body).Find(`tbody[data-testid=batch-row]`)
	if settled.AttrOr("data-state", "") != storage.RowPriced || settled.AttrOr("hx-trigger", "") != "" ||
		settled.Find(`[data-testid=row-offer]`).Length() != 1 {
		t.Errorf("after pricing: %s %q", settled.AttrOr("data-state", ""), settled.AttrOr("hx-trigger", ""))
	}
	if got := filterCounts(page(t, b.Get(path).Body)); got["problems"] != "1" || got["ready"] != "9" {
		t.Errorf("counts after the fix: %v", got)
	}

	// A row still wrong stays open with its problem.
	cells = url.Values{"surname": {""}, "street": {"X 1"}, "city": {"Brno"}, "zip": {"602 00"}, "weight_kg": {"2"}}
	r = postHTMX(env, b, path+"/rows/"+itoa(rows[6].ID), cells)
	if still := rowPart(t, r.Body); r.StatusCode != 200 || still.Find(`[data-testid=row-form]`).Length() != 1 || still.Find(`[data-testid=row-problems]`).Length() != 1 {
		t.Errorf("a row still wrong: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	// Without htmx the page comes back with that row opened.
	if r := b.PostForm(path+"/rows/"+itoa(rows[6].ID), with(cells, "state", "problems")); r.StatusCode != http.StatusSeeOther ||
		r.Header.Get("Location") != path+"?open="+itoa(rows[6].ID)+"&state=problems#row-"+itoa(rows[6].ID) {
		t.Errorf("plain post: %d %q", r.StatusCode, r.Header.Get("Location"))
	}

	// The clerk takes another offer in the opened row.
	opened = rowPart(t, getHTMX(env, b, path+"/rows/"+itoa(good.ID)+"?open=1").Body).Find(`tbody`)
	var other string
	opened.Find(`[data-testid=row-offers] input[name=choice]`).Each(func(_ int, in *goquery.Selection) {
		_, disabled := in.Attr("disabled")
		_, checked := in.Attr("checked")
		if other == "" && !disabled && !checked {
			other = in.AttrOr("value", "")
		}
	})
	if other == "" {
		t.Fatal("no other offer to choose")
	}
	r = postHTMX(env, b, path+"/rows/"+itoa(good.ID)+"/offer", url.Values{"choice": {other}})
	if chosen := rowPart(t, r.Body); r.StatusCode != 200 || !strings.Contains(chosen.Find(`[data-testid=row-offer-why]`).Text(), "chosen by hand") {
		t.Errorf("override: %d %s", r.StatusCode, r.Body)
	}
	if row, _ := env.App.DB.BatchRow(context.Background(), id, good.ID); row.Chosen != other || row.ChosenBy != "clerk" {
		t.Errorf("stored choice %q by %q", row.Chosen, row.ChosenBy)
	}
}

// Nobody but the shipping staff reads a batch's rows or its codes.
func TestBatchRowAndCodesRefuseWrongRoleAndAnonymous(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	agent, anon := env.SignedIn(identity.Agent), env.NewBrowser()
	for _, p := range []string{"/shipping/batches/1/rows/1", "/shipping/batches/1/rows/1?open=1", "/shipping/batches/1/codes.pdf",
		"/shipping/batches/1?state=problems"} {
		if r := agent.Get(p); r.StatusCode != http.StatusForbidden {
			t.Errorf("agent GET %s: %d", p, r.StatusCode)
		}
		if r := getHTMX(env, agent, p); r.StatusCode != http.StatusForbidden {
			t.Errorf("agent htmx GET %s: %d", p, r.StatusCode)
		}
		if r := anon.Get(p); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous GET %s: %d", p, r.StatusCode)
		}
	}
	manager := env.SignedIn(identity.Manager)
	if r := manager.Get("/shipping/batches/1/codes.pdf"); r.StatusCode != http.StatusNotFound {
		t.Errorf("manager, a batch there is not: %d", r.StatusCode)
	}
}

// A day of three hundred orders is one table of three hundred lines, none
// carrying its edit form until it is opened; the filter's counts add up.
func TestBatchOfHundredsOfRowsIsOneTable(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	var csv strings.Builder
	csv.WriteString("reference;surname;street;city;zip;phone;weight_kg;point_code\n")
	for i := range 300 {
		point := ""
		if i%50 == 7 {
			point = "ZZ" + itoa(int64(i)) // no such point: the row has a problem
		}
		csv.WriteString("D-" + itoa(int64(1000+i)) + ";Nováková;Masarykova " + itoa(int64(i+1)) + ";Brno;602 00;+420 777 123 456;1,5;" + point + "\n")
	}
	r := upload(t, env, b, "day.csv", []byte(csv.String()), map[string]string{"handover": "ONDEMAND"})
	m := batchPath.FindStringSubmatch(r.Header.Get("Location"))
	if m == nil {
		t.Fatalf("import: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	path := m[0]
	// While the rows are priced the page shows every row and its progress.
	doc := page(t, b.Get(path).Body)
	if n := len(lines(doc)); n != 300 {
		t.Errorf("%d rows while pricing", n)
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	env.SettledBatch(t, id)
	resp := b.Get(path)
	doc = page(t, resp.Body)
	if n := len(lines(doc)); n != 300 || doc.Find(`[data-testid=row-form]`).Length() != 0 || doc.Find(`input`).Length() > 20 {
		t.Errorf("%d rows, %d edit forms, %d inputs", n, doc.Find(`[data-testid=row-form]`).Length(), doc.Find(`input`).Length())
	}
	counts := filterCounts(doc)
	if counts["all"] != "300" || counts["problems"] != "6" || counts["ready"] != "294" {
		t.Errorf("counts %v", counts)
	}
	if len(resp.Body) > 1<<20 {
		t.Errorf("the page of 300 rows is %d kB", len(resp.Body)>>10)
	}
	if n := len(lines(page(t, b.Get(path+"?state=problems").Body))); n != 6 {
		t.Errorf("%d rows with problems", n)
	}
}
