package shoptet_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"shipdesk/sandbox/shoptet"
)

// Without a token, with a wrong one, or writing with a read-only one: 401,
// 401, 403, in Shoptet's error shape.
func TestTokens(t *testing.T) {
	e := newEnv(t, "documented")
	code := e.shop.Orders()[0].Code
	for _, c := range []struct {
		token, method, path string
		status              int
		errorCode           string
	}{
		{"", "GET", "/api/eshop", 401, "missing-access-token"},
		{"sandbox-shoptet-tokeN", "GET", "/api/orders", 401, "invalid-token"},
		{shoptet.ReadOnlyToken, "PATCH", "/api/orders/" + code + "/notes", 403, "invalid-token-no-rights"},
		{shoptet.ReadOnlyToken, "POST", "/api/webhooks/renew-signature-key", 403, "invalid-token-no-rights"},
		{shoptet.ReadOnlyToken, "GET", "/api/orders/" + code, 200, ""},
	} {
		var body any
		if c.method == "PATCH" {
			body = map[string]any{"data": map[string]any{"eshopRemark": "x"}}
		}
		if a := e.callAs(c.token, c.method, c.path, body); a.Status != c.status || a.errorCode() != c.errorCode {
			t.Errorf("%q %s %s: %d %s, want %d %s", c.token, c.method, c.path, a.Status, a.errorCode(), c.status, c.errorCode)
		}
	}
	if o, _ := e.shop.Order(code); o.EshopRemark == "x" {
		t.Error("a read-only token wrote")
	}
}

// Hostile input on every path: each answered in Shoptet's error shape with
// a 4xx (the validation in every call checks the shape; a 5xx fails it),
// and nothing stored changes.
func TestHostileInputOnEveryPath(t *testing.T) {
	e := newEnv(t, "documented")
	code := e.shop.Orders()[0].Code
	before, _ := e.shop.Order(code)
	huge := `{"data": {"eshopRemark": "` + strings.Repeat("x", shoptet.MaxBody) + `"}}`
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/api/orders?page=0", nil}, {"GET", "/api/orders?page=abc", nil}, {"GET", "/api/orders?itemsPerPage=-5", nil},
		{"GET", "/api/orders?statusId=1.5", nil}, {"GET", "/api/orders?creationTimeFrom=yesterday", nil},
		{"GET", "/api/orders?orderCodes=" + strings.Repeat("1,", 60), nil},
		{"GET", "/api/orders/changes?from=2026-11-01T00:00:00+0100", nil}, // an unescaped + is a space
		{"GET", "/api/orders/changes?from=2026-11-01&changeType=add", nil},
		{"GET", "/api/orders/changes?from=2026-11-01&itemsPerPage=x", nil},
		{"GET", "/api/orders/%00%FF<script>", nil}, {"GET", "/api/orders/" + strings.Repeat("9", 5000), nil},
		{"GET", "/api/orders/1'%20OR%20'1'='1", nil}, {"GET", "/api/orders/" + code + "/history?system=perhaps", nil},
		{"PATCH", "/api/orders/" + code + "/notes", `{"data": {"trackingNumber": "Z1"`},
		{"PATCH", "/api/orders/" + code + "/notes", `not json at all`},
		{"PATCH", "/api/orders/" + code + "/notes", ``},
		{"PATCH", "/api/orders/" + code + "/notes", `[]`},
		{"PATCH", "/api/orders/" + code + "/notes", `{"data": null}`},
		{"PATCH", "/api/orders/" + code + "/notes", `{"data": {"trackingNumber": 12345}}`},
		{"PATCH", "/api/orders/" + code + "/notes", `{"data": {"additionalFields": [{"index": 7, "text": "x"}]}}`},
		{"PATCH", "/api/orders/" + code + "/notes", `{"data": {"additionalFields": [{"index": 1, "text": "` + strings.Repeat("y", 300) + `"}]}}`},
		{"PATCH", "/api/orders/" + code + "/notes", huge},
		{"PATCH", "/api/orders/%00/notes", `{"data": {"eshopRemark": "x"}}`},
		{"PATCH", "/api/orders/" + code + "/status", `{"data": {"statusId": 99999999999999999999}}`},
		{"PATCH", "/api/orders/" + code + "/status", `{"data": {"paid": "yes"}}`},
		{"PATCH", "/api/orders/" + code + "/status", `{"data": {"statusId": 3, "color": "red"}}`},
		{"PATCH", "/api/orders/nope/status", `{"data": {"statusId": 3}}`},
		{"POST", "/api/webhooks", `{"data": [{"event": "order:create", "url": "http://127.0.0.1/` + strings.Repeat("a", 2100) + `"}]}`},
		{"GET", "/api/webhooks/abc", nil}, {"DELETE", "/api/webhooks/-1", nil}, {"GET", "/api/webhooks?page=-1", nil},
		{"POST", "/api/orders", `{}`}, {"DELETE", "/api/eshop", nil}, {"GET", "/api/products", nil}, {"GET", "/", nil},
	} {
		a := e.call(c.method, c.path, c.body)
		if a.Status < 400 || a.Status >= 500 || a.errorCode() == "" {
			t.Errorf("%s %.80s: %d %.200s", c.method, c.path, a.Status, a.Raw)
		}
	}
	req, _ := http.NewRequest("PATCH", e.url+"/shoptet/api/orders/"+code+"/notes", strings.NewReader(`{"data": {"eshopRemark": "x"}}`))
	req.Header.Set("Content-Type", "text/plain")
	req.Header.Set("Shoptet-Private-Api-Token", shoptet.Token)
	if a := e.do(req, nil); a.Status != 415 {
		t.Errorf("text/plain: %d", a.Status)
	}
	if after, _ := e.shop.Order(code); after.EshopRemark != before.EshopRemark || after.TrackingNumber != before.TrackingNumber || after.Status != before.Status {
		t.Errorf("hostile input changed the order: %+v", after)
	}
}

// An order as hostile as a shop's can be (NUL, invalid UTF-8, control
// characters, 10 KB texts, script and SQL) is answered byte for byte in
// well-formed JSON: a client meets it as the shop has it.
func TestHostileOrderAnsweredAsItIs(t *testing.T) {
	e := newEnv(t, "documented")
	name := "Jan\x00 Nov\xffák\x07 <script>alert(1)</script>'; DROP TABLE orders;--"
	long := strings.Repeat("Dlouhá poznámka. ", 640)
	code, err := e.shop.AddOrder(shoptet.Order{Email: "x@example.cz", Shipping: shoptet.ShippingMethods[0].GUID, Payment: shoptet.PaymentMethods[0].GUID,
		Billing:        shoptet.Address{FullName: name, Street: "Ulice\u2028 1", City: "Praha", Zip: "110 00", Country: "CZ"},
		CustomerRemark: long, Items: []shoptet.Item{{Type: "product", Name: name, Amount: "1.000", Weight: "0.000", Price: "0.00", VatRate: "21.00"}}})
	if err != nil {
		t.Fatal(err)
	}
	a := e.call("GET", "/api/orders/"+code+"?include=notes", nil)
	if !bytes.Contains(a.Raw, []byte(`Nov`+"\xff"+`\u00e1k`)) && !bytes.Contains(a.Raw, []byte("Nov\xffák")) {
		t.Errorf("the invalid byte is not passed on as it is: %.300q", a.Raw)
	}
	var v map[string]any
	if err := json.Unmarshal(a.Raw, &v); err != nil {
		t.Fatalf("not well-formed JSON: %v", err)
	}
	order := v["data"].(map[string]any)["order"].(map[string]any)
	if got := order["billingAddress"].(map[string]any)["fullName"].(string); !strings.Contains(got, "\x00") || !strings.Contains(got, "DROP TABLE") {
		t.Errorf("fullName %q", got)
	}
	if got := order["notes"].(map[string]any)["customerRemark"].(string); got != long {
		t.Errorf("the 10 KB remark came back %d bytes long", len(got))
	}
}
