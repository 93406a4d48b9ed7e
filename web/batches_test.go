package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/client/shipping"
	"shipdesk/desk"
	"shipdesk/i18n"
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

// ordersCSV is our template with two rows naming points the sandbox lacks.
func ordersCSV(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../testdata/orders-unknown-points.csv")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var batchPath = regexp.MustCompile(`^/shipping/batches/(\d+)$`)

// importOrders imports our template with two unknown points and returns the batch's id.
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

func states(rows []storage.BatchRow) map[string]int {
	out := map[string]int{}
	for _, r := range rows {
		out[r.State]++
	}
	return out
}

// pointRows are the rows of ordersCSV naming pickup points the sandbox
// does not have: deliberately bad for the sandbox.
var pointRows = map[int]bool{4: true, 7: true}

func TestBatchImportChecksPricesAndOrdersEachRowOnce(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	id := importOrders(t, env, b)
	rows := env.SettledBatch(t, id)
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
	if !strings.Contains(bad.Find(`[data-testid=row-problems]`).Text(), "No pickup point has the code ZASILKOVNA-OSTRAVA-125") {
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
	rows = env.SettledBatch(t, id)
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
	rows = env.SettledBatch(t, id)
	for _, r := range rows {
		if r.State != storage.RowOrdered || r.ShipmentID == nil {
			t.Errorf("line %d: %s %v", r.Line, r.State, r.Error)
			continue
		}
		// The template's business customer (its line 5) asks for no mail of the parcel.
		if s, err := env.App.DB.ShipmentByID(context.Background(), *r.ShipmentID); err != nil || s.NoCustomerMail != (r.Line == 5) {
			t.Errorf("line %d: no customer mail %v (%v)", r.Line, s.NoCustomerMail, err)
		}
	}
	listed, err := env.App.Upstream.Shipping.ListAll(context.Background(), shipping.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	refs := map[string]int{}
	for _, s := range listed {
		refs[s.Reference]++
	}
	for i := 412; i <= 421; i++ {
		if n := refs["OBJ-2026-0"+strconv.Itoa(i)]; n != 1 {
			t.Errorf("the service holds %d orders of OBJ-2026-0%d", n, i)
		}
	}
	// The labels are made before the courier's pickup; one PDF holds them all,
	// and each carrier has its hand-over protocol.
	env.Sandbox.Advance(10 * time.Minute)
	if _, err := env.App.Jobs.Labels(context.Background()); err != nil {
		t.Fatal(err)
	}
	doc = page(t, b.Get(path).Body)
	if n := doc.Find(`[data-testid=protocol]`).Length(); n == 0 {
		t.Error("no hand-over protocol offered")
	}
	batchProtocolsAsTheDays(t, env, id)
	pdf := b.Get(path + "/labels.pdf?format=A6")
	ids, _ := env.App.DB.BatchShipmentIDs(context.Background(), id)
	shipments, _ := env.App.DB.ShipmentsByID(context.Background(), ids)
	printable := 0
	for _, s := range shipments {
		if desk.LabelReady(s) { // a courier's own label is not printed here
			printable++
		}
	}
	if pages := sheetPages(t, pdf.Body); len(pages) != printable || printable < 5 {
		t.Errorf("labels PDF: %d pages, want %d", len(pages), printable)
	}
	doc.Find(`[data-testid=protocol]`).Each(func(_ int, a *goquery.Selection) {
		if r := b.Get(a.AttrOr("href", "")); r.StatusCode != 200 || !strings.HasPrefix(r.Body, "%PDF-") {
			t.Errorf("protocol %s: %d", a.AttrOr("href", ""), r.StatusCode)
		}
	})
	// A third press finds nothing to order.
	if resp := b.PostForm(path+"/order", url.Values{}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("order again: %d", resp.StatusCode)
	}
	if n := len(env.SettledBatch(t, id)); n != 10 || countCalls(env, "shipments/create") != 10 {
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

func TestBatchPagesRefuseWrongRoleAndAnonymous(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	agent, anon := env.SignedIn(identity.Agent), env.NewBrowser()
	gets := []string{"/shipping/batches", "/shipping/batches/new", "/shipping/batches/1", "/shipping/batches/1/progress",
		"/shipping/batches/1/labels.pdf", "/shipping/batches/1/handover.pdf"}
	posts := []string{"/shipping/batches", "/shipping/batch-uploads/1/map", "/shipping/batches/1/rows/1", "/shipping/batches/1/rows/1/offer",
		"/shipping/batches/1/rows/1/new-parcel", "/shipping/batches/1/rows/1/points",
		"/shipping/batches/1/price", "/shipping/batches/1/order", "/shipping/batches/1/drafts"}
	for _, p := range gets {
		if r := agent.Get(p); r.StatusCode != http.StatusForbidden {
			t.Errorf("agent GET %s: %d", p, r.StatusCode)
		}
		if r := anon.Get(p); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous GET %s: %d", p, r.StatusCode)
		}
	}
	for _, p := range posts {
		if r := agent.PostForm(p, url.Values{}); r.StatusCode != http.StatusForbidden {
			t.Errorf("agent POST %s: %d", p, r.StatusCode)
		}
		if r := anon.PostForm(p, url.Values{}); r.StatusCode != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous POST %s: %d", p, r.StatusCode)
		}
	}
	for _, role := range []identity.Role{identity.Clerk, identity.Manager} {
		if r := env.SignedIn(role).Get("/shipping/batches"); r.StatusCode != 200 {
			t.Errorf("%s: %d", role, r.StatusCode)
		}
	}
}

func TestBatchHostileInput(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	// Too large: refused with a clear message, the server stays up.
	huge := bytes.Repeat([]byte("a;b\n"), (11<<20)/4)
	if r := upload(t, env, b, "huge.csv", huge, map[string]string{"handover": "ONDEMAND"}); r.StatusCode != http.StatusRequestEntityTooLarge ||
		!strings.Contains(r.Body, "larger than 10 MB") {
		t.Errorf("huge file: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	// No file, or a form that is no upload.
	if r := upload(t, env, b, "", nil, map[string]string{"handover": "ONDEMAND"}); r.StatusCode != 422 || !strings.Contains(r.Body, "Choose the file") {
		t.Errorf("no file: %d", r.StatusCode)
	}
	if r := b.PostForm("/shipping/batches", url.Values{"file": {"x"}}); r.StatusCode != 422 {
		t.Errorf("not multipart: %d", r.StatusCode)
	}
	// Not a file of orders: refused, or at most its "columns" offered for mapping.
	if r := upload(t, env, b, "x.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\xfd"), map[string]string{"handover": "ONDEMAND"}); r.StatusCode != 422 &&
		!strings.Contains(r.Body, `data-testid="batch-map"`) {
		t.Errorf("png: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	// A bad hand-over.
	if r := upload(t, env, b, "orders.csv", ordersCSV(t), map[string]string{"handover": "TELEPORT"}); r.StatusCode != 422 {
		t.Errorf("handover: %d", r.StatusCode)
	}
	// NUL and invalid UTF-8 in cells: the row says so, nothing breaks.
	csv := "reference;surname;street;city;zip;phone;weight_kg\nA1;Nov\x00ák;Ulice 1;Brno;60200;+420777123456;1\nA2;Dvořák \xff;Ulice 2;Brno;60200;+420777123456;1\n"
	id := func() int64 {
		r := upload(t, env, b, "bad.csv", []byte(csv), map[string]string{"handover": "ONDEMAND"})
		m := batchPath.FindStringSubmatch(r.Header.Get("Location"))
		if m == nil {
			t.Fatalf("import: %d %s", r.StatusCode, problemsOf(r.Body))
		}
		n, _ := strconv.ParseInt(m[1], 10, 64)
		return n
	}()
	rows := env.SettledBatch(t, id)
	if len(rows) != 2 || !strings.Contains(string(rows[0].Problems), "batch.cell.control") || !strings.Contains(string(rows[1].Problems), "batch.cell.unreadable") {
		t.Errorf("rows: %+v", rows)
	}
	// Tampered ids, and a row of another batch.
	other := importOrders(t, env, b)
	otherRows := env.SettledBatch(t, other)
	for _, p := range []string{"/shipping/batches/999999", "/shipping/batches/x", "/shipping/batches/-1/progress",
		"/shipping/batches/999999/progress", "/shipping/batches/x/progress"} {
		if r := b.Get(p); r.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d", p, r.StatusCode)
		}
	}
	foreign := "/shipping/batches/" + itoa(id) + "/rows/" + itoa(otherRows[0].ID)
	if r := b.PostForm(foreign, url.Values{"surname": {"Mallory"}}); r.StatusCode != http.StatusNotFound {
		t.Errorf("edit a row of another batch: %d", r.StatusCode)
	}
	if r, _ := env.App.DB.BatchRow(context.Background(), other, otherRows[0].ID); strings.Contains(string(r.Raw), "Mallory") {
		t.Error("a row of another batch was changed")
	}
	if r := b.PostForm("/shipping/batches/"+itoa(other)+"/rows/"+itoa(otherRows[0].ID)+"/offer", url.Values{"choice": {"99999"}}); r.StatusCode != http.StatusSeeOther {
		t.Errorf("a choice not offered: %d", r.StatusCode)
	}
	if r := b.Get("/shipping/batches"); r.StatusCode != 200 {
		t.Errorf("list: %d", r.StatusCode)
	}
}

func TestForeignExportMappedOnceIsRemembered(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	export := "Číslo;Zákazník;Adresa;Obec;PSČ;Tel;Váha\nE-1;Nováková;Masarykova 5;Brno;602 00;+420 777 123 456;2\n"
	r := upload(t, env, b, "shoptet.csv", []byte(export), map[string]string{"handover": "ONDEMAND"})
	if r.StatusCode != 200 || !strings.Contains(r.Body, `data-testid="batch-map"`) {
		t.Fatalf("mapping form: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	action := page(t, r.Body).Find(`[data-testid=batch-map]`).AttrOr("action", "")
	form := url.Values{"source": {"Shoptet"}, "handover": {"ONDEMAND"}, "col_reference": {"Číslo"}, "col_surname": {"Zákazník"},
		"col_street": {"Adresa"}, "col_city": {"Obec"}, "col_zip": {"PSČ"}, "col_phone": {"Tel"}, "col_weight_kg": {"Váha"}}
	r = b.PostForm(action, form)
	if r.StatusCode != http.StatusSeeOther || batchPath.FindStringSubmatch(r.Header.Get("Location")) == nil {
		t.Fatalf("map: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	// The next file of the source is read with the kept mapping, by name or by its columns.
	next := strings.Replace(export, "E-1", "E-2", 1)
	for _, fields := range []map[string]string{{"handover": "ONDEMAND", "source": "Shoptet"}, {"handover": "ONDEMAND"}} {
		r = upload(t, env, b, "shoptet2.csv", []byte(next), fields)
		if r.StatusCode != http.StatusSeeOther {
			t.Fatalf("next file %v: %d %s", fields, r.StatusCode, problemsOf(r.Body))
		}
	}
	if r := b.Get("/shipping/batches/new"); !strings.Contains(r.Body, `<option value="Shoptet">`) {
		t.Error("the kept source is not offered")
	}
	list, _ := env.App.DB.Batches(context.Background(), 10)
	if len(list) != 3 || list[0].Source != "Shoptet" {
		t.Errorf("batches: %+v", list)
	}
}

// A service that drops some create calls and answers others after shipdesk
// stopped waiting: every row keeps its one shipment, reconciled by its
// reference, and none is ordered twice, also after "order it again".
func TestBatchOrderUnderDropsAndLatencyNeverDuplicates(t *testing.T) {
	t.Parallel()
	env, b := slowEnv(t)
	id := importOrders(t, env, b)
	rows := env.SettledBatch(t, id)
	path := "/shipping/batches/" + itoa(id)
	for _, r := range rows {
		if pointRows[r.Line] {
			var raw map[string]string
			_ = jsonUnmarshal(r.Raw, &raw)
			cells := url.Values{}
			for k, v := range raw {
				cells.Set(k, v)
			}
			cells.Del("point_code")
			postHTMX(env, b, path+"/rows/"+itoa(r.ID), cells)
		}
	}
	env.SettledBatch(t, id)
	env.Sandbox.Fault("/api/v1/shipments/create", map[string]any{"drop_rate": 1, "count": 3})
	if r := b.PostForm(path+"/order", url.Values{}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("order: %d", r.StatusCode)
	}
	rows = env.SettledBatch(t, id)
	// A row whose order's answer was lost says so in the one name of that
	// state, as its shipment's page does.
	uncertain := 0
	for _, r := range rows {
		if s, err := env.App.DB.ShipmentByID(context.Background(), *r.ShipmentID); err == nil && s.State == storage.StateUnknown {
			uncertain++
		}
	}
	shown := 0
	htmlOf(t, b.Get(path).Body).Find(`[data-testid=row-state]`).Each(func(_ int, s *goquery.Selection) {
		if strings.TrimSpace(s.Text()) == "unknown outcome" {
			shown++
		}
	})
	if uncertain == 0 || shown != uncertain {
		t.Errorf("%d rows say the outcome is unknown, %d shipments' are", shown, uncertain)
	}
	env.Sandbox.Fault("/api/v1/shipments/create", map[string]any{"latency_ms": int(slow / time.Millisecond), "count": 2})
	b.PostForm(path+"/order", url.Values{}) // nothing left to order: a second press changes nothing
	ctx := context.Background()
	for _, r := range rows {
		if r.State != storage.RowOrdered || r.ShipmentID == nil {
			t.Fatalf("line %d: %s %v", r.Line, r.State, r.Error)
		}
		s, _ := env.App.DB.ShipmentByID(ctx, *r.ShipmentID)
		if s.SettlesAt != nil {
			time.Sleep(env.App.Upstream.Clock().Until(*s.SettlesAt) + 50*time.Millisecond)
		}
	}
	if err := env.App.Desk.ReconcileAll(ctx); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		s, _ := env.App.DB.ShipmentByID(ctx, *r.ShipmentID)
		if s.State == storage.StateMissing {
			// The next two creates answer late (the latency fault): unknown, then adopted.
			if _, err := env.App.Desk.OrderAgain(ctx, s.ID); err != nil {
				t.Fatalf("order again %s: %v", s.Reference, err)
			}
		}
	}
	for _, r := range rows {
		if s, _ := env.App.DB.ShipmentByID(ctx, *r.ShipmentID); s.SettlesAt != nil {
			time.Sleep(env.App.Upstream.Clock().Until(*s.SettlesAt) + 50*time.Millisecond)
		}
	}
	if err := env.App.Desk.ReconcileAll(ctx); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		exactlyOne(t, env, "/shipping/shipments/"+itoa(*r.ShipmentID))
	}
}

// batchProtocolsAsTheDays checks a batch's protocols, as its page's live
// part and its protocols' PDF read them, against the day's protocols of each
// day its shipments are handed over on, with only the batch's parcels.
func batchProtocolsAsTheDays(t *testing.T, env *apptest.Env, batch int64) {
	t.Helper()
	ctx := context.Background()
	ids, err := env.App.DB.BatchShipmentIDs(ctx, batch)
	if err != nil {
		t.Fatal(err)
	}
	shipments, err := env.App.DB.ShipmentsByID(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	days := map[string]time.Time{}
	for _, s := range shipments {
		days[s.CreatedAt.In(i18n.Prague).Format(time.DateOnly)] = s.CreatedAt.In(i18n.Prague)
		var o shipping.Order
		if json.Unmarshal(s.Request, &o) == nil && len(o.Shipments) > 0 && o.Shipments[0].PickupDate != "" {
			day, _ := time.ParseInLocation(time.DateOnly, o.Shipments[0].PickupDate, i18n.Prague)
			days[o.Shipments[0].PickupDate] = day
		}
	}
	keys := slices.Sorted(maps.Keys(days))
	var want []string
	for _, k := range keys {
		hos, err := env.App.Desk.Handovers(ctx, days[k])
		if err != nil {
			t.Fatal(err)
		}
		for _, ho := range hos {
			if line := protocolLine(ho, ids); line != "" {
				want = append(want, line)
			}
		}
	}
	live, err := env.App.Desk.BatchLive(ctx, batch, i18n.Prague)
	if err != nil {
		t.Fatal(err)
	}
	printed, err := env.App.Desk.BatchHandovers(ctx, batch, i18n.Prague)
	if err != nil {
		t.Fatal(err)
	}
	for what, list := range map[string][]desk.Handover{"live part": live.Protocols, "PDF": printed} {
		var got []string
		for _, ho := range list {
			got = append(got, protocolLine(ho, ids))
		}
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("the batch's protocols (%s):\n%s\nwant the days':\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// protocolLine is a protocol's carrier, day, place and the parcels of ids on it.
func protocolLine(ho desk.Handover, ids []int64) string {
	var parcels []string
	for _, p := range ho.Parcels {
		if slices.Contains(ids, p.ID) {
			parcels = append(parcels, strconv.FormatInt(p.ID, 10))
		}
	}
	if len(parcels) == 0 {
		return ""
	}
	return strings.Join([]string{ho.Carrier, ho.CarrierName, ho.Day.Format(time.DateOnly), ho.Sender.Name(), ho.Sender.City,
		strings.Join(parcels, ",")}, " | ")
}
