package web_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage"
)

var (
	pdfBytes = []byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
	pngBytes = pngOf(24, 16)
)

// benchEnv is a dashboard with the product lists loaded and a signed-in agent.
func benchEnv(t *testing.T) (*apptest.Env, *apptest.Browser) {
	t.Helper()
	return benchEnvOn(t, apptest.Start(t))
}

// benchEnvOn is benchEnv on a dashboard the caller started.
func benchEnvOn(t *testing.T, env *apptest.Env) (*apptest.Env, *apptest.Browser) {
	t.Helper()
	prepareBench(env)
	return env, env.SignedIn(identity.Agent)
}

// prepareBench loads the service's product list.
func prepareBench(env *apptest.Env) {
	env.T.Helper()
	if err := env.App.Bench.RefreshProducts(context.Background()); err != nil {
		env.T.Fatal(err)
	}
}

// impatientBench is an agent's workbench whose upstream calls give up after
// o's short limit; its products were loaded with the default one.
func impatientBench(t *testing.T, o apptest.Options) (*apptest.Env, *apptest.Browser) {
	t.Helper()
	o.Prepare = prepareBench
	env := apptest.StartOptions(t, o)
	return env, env.SignedIn(identity.Agent)
}

// commissionForm is a warranty claim for the first model of the first type.
func commissionForm(t *testing.T, env *apptest.Env) map[string]string {
	t.Helper()
	types, models, err := env.App.DB.Products(context.Background())
	if err != nil || len(types) == 0 {
		t.Fatalf("products: %v", err)
	}
	var model int64
	for _, m := range models {
		if m.TypeID == types[0].ID {
			model = m.ID
			break
		}
	}
	return map[string]string{"key": requestkey.New(), "type": "warranty", "customer_name": "Alena Veselá", "customer_email": "alena@example.cz",
		"customer_phone": "+420 777 111 222", "customer_street": "Lipová 3", "customer_city": "Brno", "customer_zip": "602 00",
		"type_id": itoa(types[0].ID), "model_id": itoa(model), "serial": "SN-1", "purchase_date": "2026-10-01", "fault": "Does not switch on."}
}

// postMultipart sends the new-commission form with an optional file.
func postMultipart(t *testing.T, env *apptest.Env, b *apptest.Browser, fields map[string]string, fileName string, data []byte) apptest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	if fileName != "" {
		fw, _ := mw.CreateFormFile("proof", fileName)
		_, _ = fw.Write(data)
	}
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, env.URL+"/returns/new", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", env.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	return b.Do(req)
}

func TestWarrantyWithoutProofIsRefusedBeforeTheService(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	resp := postMultipart(t, env, b, commissionForm(t, env), "", nil)
	doc := htmlOf(t, resp.Body)
	if resp.StatusCode != 422 || doc.Find(`#proof-error`).Length() != 1 || doc.Find(`#customer_name`).AttrOr("value", "") != "Alena Veselá" {
		t.Fatalf("no proof: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if n := countCalls(env, "commissions/upload-file") + countCalls(env, "commissions/create"); n != 0 {
		t.Errorf("the service was called %d times", n)
	}
}

func TestRejectedUploads(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	form := commissionForm(t, env)
	for _, c := range []struct {
		test string
		name string
		data []byte
		want string
	}{
		{"text named PDF", "invoice.pdf", []byte("just some text, not a PDF"), "Only PDF, JPEG or PNG"},
		{"program", "invoice.exe", []byte("MZ\x90\x00binary"), "Only PDF, JPEG or PNG"},
		{"PDF named PNG", "invoice.png", pdfBytes, "named .png but its content is a PDF"},
		{"empty", "empty.pdf", []byte{}, "empty"},
		{"too large", "huge.pdf", append(append([]byte{}, pdfBytes...), make([]byte, 10<<20)...), "larger than 10 MiB"},
		{"script in the name", "<script>.pdf", []byte("<script>alert(1)</script>"), "Only PDF, JPEG or PNG"},
	} {
		t.Run(c.test, func(t *testing.T) {
			resp := postMultipart(t, env, b, form, c.name, c.data)
			if (resp.StatusCode != 422 && resp.StatusCode != 413) || !strings.Contains(resp.Body, c.want) {
				t.Errorf("%s: %d %s", c.name, resp.StatusCode, problemsOf(resp.Body))
			}
			if strings.Contains(resp.Body, "<script>alert") {
				t.Errorf("%s: the name is not escaped", c.name)
			}
		})
	}
	if n := countCalls(env, "commissions/upload-file") + countCalls(env, "commissions/create"); n != 0 {
		t.Errorf("rejected files reached the service %d times", n)
	}
	if resp := b.Get("/returns"); resp.StatusCode != 200 || has(htmlOf(t, resp.Body), "commission") || !strings.Contains(resp.Body, "No commissions match") {
		t.Errorf("after bad uploads: %d", resp.StatusCode)
	}
}

func TestWarrantyCommissionWithUploadNotesAndMessages(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	resp := postMultipart(t, env, b, commissionForm(t, env), "receipt.PDF", pdfBytes)
	if resp.StatusCode != 303 {
		t.Fatalf("create: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	page := resp.Header.Get("Location")
	body := b.Get(page).Body
	doc := htmlOf(t, body)
	for testid, want := range map[string]string{"customer": "Alena Veselá", "file": "receipt.PDF", "commission-type": "Warranty claim"} {
		if got := textOf(doc, testid); !strings.Contains(got, want) {
			t.Errorf("commission page: %s is %q, lacks %q", testid, got, want)
		}
	}
	if got := textOf(doc, "days-left"); got != "30 days left" {
		t.Errorf("the commission page does not count down the 30 days: %q", got)
	}
	// The kept copy opens as a PDF.
	file, ok := doc.Find(`[data-testid=file]`).Attr("href")
	if !ok || !strings.HasPrefix(file, "/returns/files/") {
		t.Fatalf("no file link: %q", file)
	}
	if f := b.Get(file); f.StatusCode != 200 || f.Header.Get("Content-Type") != "application/pdf" || f.Body != string(pdfBytes) {
		t.Errorf("kept file: %d %s", f.StatusCode, f.Header.Get("Content-Type"))
	}
	// A note and a message: each by its own form, shown apart.
	noteKey, msgKey := formKey(t, body, "note-form"), formKey(t, body, "message-form")
	if r := b.PostForm(page+"/notes", url.Values{"note_text": {"Customer called twice."}, "key": {noteKey}}); r.StatusCode != 303 {
		t.Fatalf("note: %d", r.StatusCode)
	}
	if r := b.PostForm(page+"/messages", url.Values{"message_text": {"We have your claim."}, "key": {msgKey}}); r.StatusCode != 422 || !strings.Contains(r.Body, "Tick the box") || !strings.Contains(r.Body, "We have your claim.") {
		t.Errorf("message without confirmation: %d", r.StatusCode)
	}
	if r := b.PostForm(page+"/messages", url.Values{"message_text": {"We have your claim."}, "confirm": {"yes"}, "key": {msgKey}}); r.StatusCode != 303 {
		t.Fatalf("message: %d", r.StatusCode)
	}
	// The same forms posted again (a double click, a reload) send nothing more.
	b.PostForm(page+"/notes", url.Values{"note_text": {"Customer called twice."}, "key": {noteKey}})
	b.PostForm(page+"/messages", url.Values{"message_text": {"We have your claim."}, "confirm": {"yes"}, "key": {msgKey}})
	if n := countCalls(env, "activity/create"); n != 2 {
		t.Errorf("activity/create called %d times for one note and one message", n)
	}
	doc = htmlOf(t, b.Get(page).Body)
	notes := doc.Find(`[data-testid=activities] [data-kind=note] p`)
	msgs := doc.Find(`[data-testid=activities] [data-kind=message] p`)
	if notes.Length() != 1 || notes.Text() != "Customer called twice." || msgs.Length() != 1 || msgs.Text() != "We have your claim." {
		t.Errorf("activities: notes %q, messages %q", notes.Text(), msgs.Text())
	}
	// At the service the note is internal: never a public message.
	c, _ := env.App.DB.CommissionByID(context.Background(), idOf(page))
	full, err := env.App.Upstream.Returns.Get(context.Background(), *c.RemoteID)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range full.Activities {
		if a.Text == "Customer called twice." && (a.Public || a.Type != "note") {
			t.Errorf("the note went out as %+v", a)
		}
	}
	if r := b.PostForm(page+"/notes", url.Values{"note_text": {strings.Repeat("x", 6000)}, "key": {formKey(t, b.Get(page).Body, "note-form")}}); r.StatusCode != 422 {
		t.Errorf("oversized note: %d", r.StatusCode)
	}
}

func TestSendBackAfterTheGoodsArrive(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	form := commissionForm(t, env)
	form["two_way"] = "on"
	resp := postMultipart(t, env, b, form, "receipt.png", pngBytes)
	if resp.StatusCode != 303 {
		t.Fatalf("create: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	page := resp.Header.Get("Location")
	body := b.Get(page).Body
	doc := htmlOf(t, body)
	if textOf(doc, "commission-status") != "waiting for the goods" || has(doc, "move-outgoing") {
		t.Fatalf("two-way order before the goods arrive: %s", problemsOf(body))
	}
	// Not offered, and refused when asked anyway.
	b.PostForm(page+"/move", url.Values{"to": {"outgoing"}})
	if flash := htmlOf(t, b.Get(page).Body).Find(".flash-error").Text(); !strings.Contains(flash, "cannot move to “on its way back”") {
		t.Errorf("an impossible move is not refused: %q", flash)
	}
	env.Sandbox.Advance(45 * time.Minute)
	if _, err := env.App.Jobs.Commissions(context.Background()); err != nil {
		t.Fatal(err)
	}
	b.PostForm(page+"/refresh", url.Values{})
	body = b.Get(page).Body
	if !has(htmlOf(t, body), "move-outgoing") {
		t.Fatalf("processing offers no send-back: %s", problemsOf(body))
	}
	b.PostForm(page+"/move", url.Values{"to": {"outgoing"}, "resolution": {"repaired"}})
	body = b.Get(page).Body
	doc = htmlOf(t, body)
	if textOf(doc, "commission-status") != "on its way back" || !strings.Contains(textOf(doc, "transport"), "to the customer") {
		t.Errorf("after send-back: status %q, transport %q %s", textOf(doc, "commission-status"), textOf(doc, "transport"), problemsOf(body))
	}
}

func TestLostCreateReusesTheUploadedProof(t *testing.T) {
	t.Parallel()
	env, b := impatientBench(t, apptest.Options{UpstreamTimeout: callLimit, Settle: settle})
	env.Sandbox.Fault("/returns/api/v1/commissions/create", map[string]any{"drop_rate": 1, "count": 1})
	resp := postMultipart(t, env, b, commissionForm(t, env), "receipt.pdf", pdfBytes)
	if resp.StatusCode != 303 {
		t.Fatalf("create with a dropped answer: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	page := resp.Header.Get("Location")
	if body := b.Get(page).Body; has(htmlOf(t, body), "create-again") || !has(htmlOf(t, body), "waiting") {
		t.Fatalf("before its deadline a lost create is waiting, not missing: %s", problemsOf(body))
	}
	waitCommissionSettled(t, env, page)
	b.PostForm(page+"/check", url.Values{})
	if body := b.Get(page).Body; !has(htmlOf(t, body), "create-again") {
		t.Fatalf("after its deadline a lost create is missing: %s", problemsOf(body))
	}
	b.PostForm(page+"/again", url.Values{})
	if body := b.Get(page).Body; textOf(htmlOf(t, body), "commission-type") != "Warranty claim" || has(htmlOf(t, body), "create-again") {
		t.Errorf("create again: %s", problemsOf(body))
	}
	if n := countCalls(env, "commissions/upload-file"); n != 1 {
		t.Errorf("the proof was uploaded %d times, want once", n)
	}
}

func TestCommissionListCountsDownTheWarrantyPeriod(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	for _, name := range []string{"Old Claim", "Fresh Claim"} {
		form := commissionForm(t, env)
		form["customer_name"] = name
		if resp := postMultipart(t, env, b, form, "r.pdf", pdfBytes); resp.StatusCode != 303 {
			t.Fatalf("create: %d", resp.StatusCode)
		}
	}
	// The days are counted on the sandbox's clock, which stands at its epoch.
	if _, err := env.App.DB.SQL().Exec(`UPDATE commissions SET deadline_at = $1::timestamptz - interval '2 days' WHERE customer_name = 'Old Claim'`, sandboxtest.Epoch); err != nil {
		t.Fatal(err)
	}
	rows := htmlOf(t, b.Get("/returns").Body).Find(`[data-testid=commission]`)
	var customers, days []string
	rows.Each(func(_ int, row *goquery.Selection) {
		customers = append(customers, row.Find(`[data-testid=customer]`).Text())
		days = append(days, row.Find(`[data-testid=days-left]`).Text())
	})
	if strings.Join(customers, "|") != "Old Claim|Fresh Claim" {
		t.Errorf("overdue not first: %q", customers)
	}
	if len(days) != 2 || days[0] != "overdue 2" || !rows.Eq(0).Find(`[data-testid=days-left]`).HasClass("urgent") ||
		(days[1] != "29 days left" && days[1] != "30 days left") {
		t.Errorf("days left: %q", days)
	}
	rows = htmlOf(t, b.Get("/returns?customer=fresh").Body).Find(`[data-testid=commission] [data-testid=customer]`)
	if rows.Length() != 1 || rows.Text() != "Fresh Claim" {
		t.Errorf("customer filter: %q", rows.Text())
	}
	for _, q := range []string{"status=nope", "type=x", "from=bad", "after=%%", "customer=%25"} {
		t.Run(q, func(t *testing.T) {
			if r := b.Get("/returns?" + q); r.StatusCode != 200 {
				t.Errorf("%s: %d", q, r.StatusCode)
			}
		})
	}
}

func TestReturnsRefusesOtherRoles(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	clerk := env.SignedIn(identity.Clerk)
	anon := env.NewBrowser()
	for _, p := range []string{"/returns", "/returns/new", "/returns/commissions/1", "/returns/files/1"} {
		t.Run("GET "+p, func(t *testing.T) {
			if r := clerk.Get(p); r.StatusCode != 403 {
				t.Errorf("clerk GET %s: %d", p, r.StatusCode)
			}
			if r := anon.Get(p); r.StatusCode != 303 {
				t.Errorf("anonymous GET %s: %d", p, r.StatusCode)
			}
		})
	}
	for _, p := range []string{"/returns/new", "/returns/commissions/1/notes", "/returns/commissions/1/messages", "/returns/commissions/1/move",
		"/returns/commissions/1/refresh", "/returns/commissions/1/check", "/returns/commissions/1/again"} {
		t.Run("POST "+p, func(t *testing.T) {
			if r := clerk.PostForm(p, url.Values{}); r.StatusCode != 403 {
				t.Errorf("clerk POST %s: %d", p, r.StatusCode)
			}
		})
	}
	if r := env.SignedIn(identity.Manager).Get("/returns"); r.StatusCode != 200 {
		t.Errorf("manager: %d", r.StatusCode)
	}
}

// make run's demo data: shipments and commissions made through the sandbox, once.
func TestDemoDataFillsTheDesks(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	ctx := context.Background()
	for range 2 { // the second round must change nothing
		if err := env.App.Desk.SeedDemo(ctx); err != nil {
			t.Fatal(err)
		}
		if err := env.App.Desk.SeedDemoOrders(ctx); err != nil {
			t.Fatal(err)
		}
		if err := env.App.Bench.SeedDemo(ctx); err != nil {
			t.Fatal(err)
		}
	}
	shipments, _ := env.App.DB.RecentShipments(ctx, 10)
	commissions, _, _ := env.App.DB.ListCommissions(ctx, storage.CommissionFilter{})
	if len(shipments) != 3 || len(commissions) != 2 {
		t.Errorf("demo data: %d shipments, %d commissions", len(shipments), len(commissions))
	}
	for _, s := range shipments {
		if s.State != storage.StateCreated || s.Tracking() == "" {
			t.Errorf("demo shipment %d: %s", s.ID, s.State)
		}
	}
}

// A good file survives a form that needs fixing elsewhere.
func TestProofIsKeptWhileOtherFieldsAreFixed(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	form := commissionForm(t, env)
	form["fault"] = ""
	resp := postMultipart(t, env, b, form, "receipt.pdf", pdfBytes)
	doc := htmlOf(t, resp.Body)
	if resp.StatusCode != 422 || doc.Find(`#fault-error`).Length() != 1 || !strings.Contains(textOf(doc, "kept-file"), "receipt.pdf") {
		t.Fatalf("first attempt: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	kept := keptUpload(resp.Body)
	if kept == "" {
		t.Fatal("the kept file is not in the form")
	}
	form["fault"], form["upload_id"] = "Still broken.", kept
	if resp := postMultipart(t, env, b, form, "", nil); resp.StatusCode != 303 {
		t.Fatalf("second attempt without choosing the file again: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if n := countCalls(env, "commissions/upload-file"); n != 1 {
		t.Errorf("%d uploads", n)
	}
}

// formKey is the request key of a form on a page.
func formKey(t *testing.T, body, testid string) string {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	key, ok := doc.Find(`[data-testid="` + testid + `"] input[name=key]`).Attr("value")
	if !ok || key == "" {
		t.Fatalf("the %s form has no key", testid)
	}
	return key
}

// waitCommissionSettled waits until every create attempt of the commission
// has passed its deadline.
func waitCommissionSettled(t *testing.T, env *apptest.Env, page string) {
	t.Helper()
	c, err := env.App.DB.CommissionByID(context.Background(), idOf(page))
	if err != nil || c.SettlesAt == nil {
		t.Fatalf("commission %s: %v %v", page, c.SettlesAt, err)
	}
	time.Sleep(env.App.Upstream.Clock().Until(*c.SettlesAt) + 50*time.Millisecond) // on the dashboard's clock
}

// htmlOf parses a page for querying by data-testid.
func htmlOf(t testing.TB, body string) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// textOf is the text of the first element with the data-testid, spaces folded.
func textOf(doc *goquery.Document, testid string) string {
	return strings.Join(strings.Fields(doc.Find(`[data-testid="`+testid+`"]`).First().Text()), " ")
}

// has says whether the page holds an element with the data-testid.
func has(doc *goquery.Document, testid string) bool {
	return doc.Find(`[data-testid="`+testid+`"]`).Length() > 0
}

// keptUpload is the id of the proof the form keeps ("" when none).
func keptUpload(body string) string {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		return ""
	}
	return doc.Find(`[data-testid="new-commission"] input[name=upload_id]`).AttrOr("value", "")
}
