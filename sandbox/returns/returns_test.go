package returns

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"shipdesk/clock"
	"shipdesk/sandbox/contracttest"
)

const key = "sandbox-returns-key"

var (
	pdfBytes  = []byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
	pngBytes  = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	jpegBytes = []byte("\xff\xd8\xff\xe0\x00\x10JFIF")
)

type env struct {
	t     *testing.T
	svc   *Service
	clock *clock.Clock
	api   *contracttest.Client
}

func newEnv(t *testing.T) *env {
	clock := clock.Frozen(time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC))
	svc := New(Config{Clock: clock, MaxUpload: 64 << 10, Keys: []string{key, "other-key"}})
	mux := http.NewServeMux()
	svc.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	api := contracttest.New(t, srv.URL, svc)
	api.Lang = "en" // the rules' tests read the English texts; czech_test.go reads the default
	return &env{t: t, svc: svc, clock: clock, api: api}
}

func (e *env) upload(name string, data []byte) contracttest.Answer {
	return e.api.Upload(Prefix+"/commissions/upload-file", key, "file", name, data)
}

func commissionReq(typ string, twoWay bool, token string) map[string]any {
	return map[string]any{"type": typ, "shipment_from_customer": twoWay, "invoice_file_token": token,
		"customer": map[string]any{"name": "Marie Dvořáková", "email": "marie@example.com", "phone": "+420777123456", "street": "Polní 7", "city": "Kolín", "zip": "280 02", "country": "CZ"},
		"product":  map[string]any{"type_id": 1, "model_id": 1, "serial_number": "SN123", "purchase_date": "2026-06-01", "fault": "Does not spin"}}
}

func (e *env) create(req map[string]any) map[string]any {
	e.t.Helper()
	a := e.api.Call("POST", Prefix+"/commissions/create", key, req)
	if a.Status != 201 {
		e.t.Fatalf("create: %d %s", a.Status, a.Raw)
	}
	return a.Data()
}

func (e *env) get(id any) map[string]any {
	e.t.Helper()
	a := e.api.Call("GET", Prefix+"/commissions/"+jsonNum(id), key, nil)
	if a.Status != 200 {
		e.t.Fatalf("get %v: %d %s", id, a.Status, a.Raw)
	}
	return a.Data()
}

func jsonNum(v any) string {
	n, _ := v.(float64)
	return strconv.FormatInt(int64(n), 10)
}

func TestEveryOperationNeedsTheKey(t *testing.T) {
	e := newEnv(t)
	for _, op := range e.svc.Operations() {
		path := strings.ReplaceAll(op.Path, "{id}", "1")
		var body any
		if op.Method == "POST" {
			body = map[string]any{}
		}
		for _, k := range []string{"", "wrong"} {
			if a := e.api.Call(op.Method, path, k, body); a.Status != 401 {
				t.Errorf("%s %s with key %q: %d, want 401", op.Method, op.Path, k, a.Status)
			}
		}
	}
	mux := http.NewServeMux()
	e.svc.Register(mux)
	contracttest.CheckRoutesDocumented(t, mux, e.svc)
}

func TestUploadsAreCheckedByContent(t *testing.T) {
	e := newEnv(t)
	for name, data := range map[string][]byte{"proof.pdf": pdfBytes, "photo.PNG": pngBytes, "receipt.jpeg": jpegBytes} {
		a := e.upload(name, data)
		if a.Status != 201 || a.Data()["token"] == "" {
			t.Errorf("%s refused: %s", name, a.Raw)
		}
	}
	bad := map[string][]byte{
		"a PDF renamed .png": pdfBytes, "text": []byte("just some text"), "script": []byte("<script>alert(1)</script>"), "empty": {},
	}
	names := map[string]string{"a PDF renamed .png": "invoice.png", "text": "invoice.pdf", "script": "x.pdf", "empty": "e.pdf"}
	for what, data := range bad {
		if a := e.upload(names[what], data); a.Status != 400 || a.FieldError("file") == "" {
			t.Errorf("%s: %d %s", what, a.Status, a.Raw)
		}
	}
	if a := e.upload("big.pdf", append(append([]byte{}, pdfBytes...), bytes.Repeat([]byte("x"), 70<<10)...)); a.Status != 413 {
		t.Errorf("oversized upload: %d %s", a.Status, a.Raw)
	}
	if a := e.api.Call("POST", Prefix+"/commissions/upload-file", key, map[string]any{"file": "x"}); a.Status != 415 {
		t.Errorf("JSON instead of multipart: %d", a.Status)
	}
}

func TestWarrantyNeedsAProofOfPurchase(t *testing.T) {
	e := newEnv(t)
	if a := e.api.Call("POST", Prefix+"/commissions/create", key, commissionReq("warranty", false, "")); a.Status != 400 || a.FieldError("invoice_file_token") == "" {
		t.Errorf("warranty without proof: %s", a.Raw)
	}
	if a := e.api.Call("POST", Prefix+"/commissions/create", key, commissionReq("warranty", false, "made-up")); a.FieldError("invoice_file_token") == "" {
		t.Errorf("unknown token: %s", a.Raw)
	}
	tok := e.upload("proof.pdf", pdfBytes).Data()["token"].(string)
	c := e.create(commissionReq("warranty", false, tok))
	if c["status"] != "new" || len(c["files"].([]any)) != 1 {
		t.Errorf("warranty with proof: %v", c)
	}
	a := e.api.Call("POST", Prefix+"/commissions/create", key, commissionReq("warranty", false, tok))
	if !strings.Contains(a.FieldError("invoice_file_token"), "already attached to commission") {
		t.Errorf("token used twice: %s", a.Raw)
	}
	if c := e.create(commissionReq("paid_repair", false, "")); c["status"] != "new" {
		t.Errorf("paid repair without proof: %v", c)
	}
	// Another account cannot use our token.
	tok2 := e.upload("proof.pdf", pdfBytes).Data()["token"].(string)
	if a := e.api.Call("POST", Prefix+"/commissions/create", "other-key", commissionReq("warranty", false, tok2)); a.FieldError("invoice_file_token") == "" {
		t.Errorf("another account used our token: %s", a.Raw)
	}
}

func TestTwoWayOrderMovesToProcessingAndOutgoing(t *testing.T) {
	e := newEnv(t)
	c := e.create(commissionReq("paid_repair", true, ""))
	id := c["id"]
	if c["status"] != "waiting_for_goods" || len(c["shipments"].([]any)) != 1 {
		t.Fatalf("two-way order: %v", c)
	}
	edit := func(body map[string]any) contracttest.Answer {
		body["id"] = id
		return e.api.Call("POST", Prefix+"/commissions/edit", key, body)
	}
	if a := edit(map[string]any{"status": "outgoing", "shipment_to_customer": true}); a.Status != 400 || a.FieldError("status") == "" {
		t.Errorf("outgoing from waiting_for_goods: %s", a.Raw)
	}
	e.clock.Advance(31 * time.Minute)
	got := e.get(id)
	if got["status"] != "processing" {
		t.Fatalf("after delivery from the customer: %v", got["status"])
	}
	if a := edit(map[string]any{"status": "outgoing"}); a.FieldError("shipment_to_customer") == "" {
		t.Errorf("outgoing without shipment_to_customer: %s", a.Raw)
	}
	if a := edit(map[string]any{"shipment_to_customer": true}); a.FieldError("status") == "" {
		t.Errorf("shipment_to_customer without status: %s", a.Raw)
	}
	a := edit(map[string]any{"status": "outgoing", "shipment_to_customer": true})
	if a.Status != 200 || a.Data()["status"] != "outgoing" || a.Data()["shipment_to_customer"] != true || len(a.Data()["shipments"].([]any)) != 2 {
		t.Fatalf("order outgoing shipment: %s", a.Raw)
	}
	e.clock.Advance(31 * time.Minute)
	got = e.get(id)
	var seq []string
	for _, h := range got["history"].([]any) {
		seq = append(seq, h.(map[string]any)["status"].(string))
	}
	if strings.Join(seq, ",") != "new,waiting_for_goods,processing,outgoing,closed" {
		t.Errorf("history %v", seq)
	}
	if a := edit(map[string]any{"status": "processing"}); a.Status != 400 {
		t.Errorf("move out of closed: %d", a.Status)
	}
	if a := edit(map[string]any{"status": "lost"}); a.FieldError("status") == "" {
		t.Errorf("unknown status: %s", a.Raw)
	}
	if a := e.api.Call("POST", Prefix+"/commissions/edit", key, map[string]any{"id": 999}); a.Status != 404 {
		t.Errorf("edit unknown: %d", a.Status)
	}
}

func TestMessagesAndNotesStayApart(t *testing.T) {
	e := newEnv(t)
	c := e.create(commissionReq("paid_repair", false, ""))
	for _, a := range []map[string]any{
		{"commission_id": c["id"], "type": "message", "text": "Your repair is on its way."},
		{"commission_id": c["id"], "type": "note", "text": "Customer was rude on the phone."},
	} {
		if r := e.api.Call("POST", Prefix+"/activity/create", key, a); r.Status != 201 {
			t.Fatalf("activity: %s", r.Raw)
		}
	}
	acts := e.get(c["id"])["activities"].([]any)
	if len(acts) != 2 || acts[0].(map[string]any)["public"] != true || acts[1].(map[string]any)["public"] != false || acts[1].(map[string]any)["type"] != "note" {
		t.Errorf("activities %v", acts)
	}
	if r := e.api.Call("POST", Prefix+"/activity/create", key, map[string]any{"commission_id": c["id"], "type": "email", "text": "x"}); r.FieldError("type") == "" {
		t.Errorf("unknown activity type: %s", r.Raw)
	}
	if r := e.api.Call("POST", Prefix+"/activity/create", key, map[string]any{"commission_id": c["id"], "type": "note", "text": " "}); r.FieldError("text") == "" {
		t.Errorf("empty text: %s", r.Raw)
	}
}

func TestListFiltersAndPaging(t *testing.T) {
	e := newEnv(t)
	for i := 0; i < 5; i++ {
		e.create(commissionReq("paid_repair", i%2 == 0, ""))
	}
	tok := e.upload("p.pdf", pdfBytes).Data()["token"].(string)
	e.create(commissionReq("warranty", false, tok))
	list := func(q string) map[string]any { return e.api.Call("GET", Prefix+"/commissions?"+q, key, nil).Data() }
	if d := list("type=warranty"); d["total"].(float64) != 1 {
		t.Errorf("type filter: %v", d["total"])
	}
	if d := list("status=waiting_for_goods"); d["total"].(float64) != 3 {
		t.Errorf("status filter: %v", d["total"])
	}
	if d := list("per_page=4&page=2"); d["total"].(float64) != 6 || len(d["commissions"].([]any)) != 2 || d["pages"].(float64) != 2 {
		t.Errorf("paging: %v", d)
	}
	if d := list("customer=DVOŘÁK"); d["total"].(float64) != 6 {
		t.Errorf("customer filter: %v", d["total"])
	}
	if d := list("date_from=2026-11-24"); d["total"].(float64) != 0 {
		t.Errorf("date filter: %v", d["total"])
	}
	if a := e.api.Call("GET", Prefix+"/commissions?status=lost&per_page=0", key, nil); a.FieldError("status") == "" || a.FieldError("per_page") == "" {
		t.Errorf("bad filters: %s", a.Raw)
	}
	if d := e.api.Call("GET", Prefix+"/commissions", "other-key", nil).Data(); d["total"].(float64) != 0 {
		t.Error("another account sees our commissions")
	}
}

func TestProducts(t *testing.T) {
	e := newEnv(t)
	types := e.api.Call("GET", Prefix+"/product-type", key, nil).Body["data"].([]any)
	models := e.api.Call("GET", Prefix+"/product-model?type_id=2", key, nil).Body["data"].([]any)
	if len(types) < 5 || len(models) < 3 {
		t.Fatalf("%d types, %d models of type 2", len(types), len(models))
	}
	for _, m := range models {
		if m.(map[string]any)["type_id"].(float64) != 2 {
			t.Errorf("model of another type: %v", m)
		}
	}
	req := commissionReq("paid_repair", false, "")
	req["product"].(map[string]any)["model_id"] = models[0].(map[string]any)["id"]
	if a := e.api.Call("POST", Prefix+"/commissions/create", key, req); a.FieldError("product.model_id") == "" {
		t.Errorf("model of another type accepted: %s", a.Raw)
	}
}

func TestBadInputKeepsState(t *testing.T) {
	e := newEnv(t)
	e.create(commissionReq("paid_repair", false, ""))
	for name, body := range map[string]string{"malformed": `{"type":`, "wrong types": `{"type": 3, "customer": "x"}`, "array": `[]`} {
		if a := e.api.Call("POST", Prefix+"/commissions/create", key, body); a.Status != 400 {
			t.Errorf("%s: %d", name, a.Status)
		}
	}
	req := commissionReq("paid_repair", true, "")
	req["customer"] = map[string]any{"name": "<script>alert(1)</script>", "email": "not-an-email"}
	a := e.api.Call("POST", Prefix+"/commissions/create", key, req)
	if a.FieldError("customer.email") == "" || a.FieldError("customer.street") == "" {
		t.Errorf("hostile customer: %s", a.Raw)
	}
	if a := e.api.Call("GET", Prefix+"/commissions/abc", key, nil); a.Status != 400 {
		t.Errorf("non-numeric id: %d", a.Status)
	}
	if d := e.api.Call("GET", Prefix+"/commissions", key, nil).Data(); d["total"].(float64) != 1 {
		t.Errorf("%v commissions after refused requests", d["total"])
	}
}

func TestConcurrencyAndSnapshot(t *testing.T) {
	e := newEnv(t)
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.create(commissionReq("paid_repair", true, ""))
			e.api.Call("GET", Prefix+"/commissions", key, nil)
		}()
	}
	wg.Wait()
	snap, err := e.svc.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	e.svc.Wipe()
	if d := e.api.Call("GET", Prefix+"/commissions", key, nil).Data(); d["total"].(float64) != 0 {
		t.Error("wipe left commissions")
	}
	if err := e.svc.Restore(snap); err != nil {
		t.Fatal(err)
	}
	e.clock.Advance(time.Hour)
	d := e.api.Call("GET", Prefix+"/commissions?status=processing", key, nil).Data()
	if d["total"].(float64) != 10 {
		t.Errorf("after restore and an hour: %v processing", d["total"])
	}
}
