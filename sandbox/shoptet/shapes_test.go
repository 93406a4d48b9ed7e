package shoptet_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"shipdesk/sandbox/shoptet"
)

// Every path of the simulator, called in both answer shapes with the
// sections on demand and without, agrees with Shoptet's document (the
// validation is in every call).
func TestEveryPathAgreesWithShoptetsDocument(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		defer hook.Close()
		e.call("GET", "/api/eshop", nil)
		e.call("GET", "/api/eshop?include=orderStatuses,shippingMethods,paymentMethods,countries", nil)
		list := e.call("GET", "/api/orders", nil)
		e.call("GET", "/api/orders?page=2&statusId=-1", nil)
		e.call("GET", "/api/orders/statuses", nil)
		e.call("GET", "/api/orders/changes?from=2026-11-01T00:00:00%2B0100", nil)
		e.call("GET", "/api/shipping-methods", nil)
		e.call("GET", "/api/payment-methods", nil)
		for _, o := range e.shop.Orders() {
			e.call("GET", "/api/orders/"+o.Code, nil)
			e.call("GET", "/api/orders/"+o.Code+"?include=notes,shippingDetails,stockLocation", nil)
		}
		code := list.data()["orders"].([]any)[0].(map[string]any)["code"].(string)
		e.call("PATCH", "/api/orders/"+code+"/notes", map[string]any{"data": map[string]any{"trackingNumber": "DR1234567890E", "eshopRemark": nil}})
		e.call("PATCH", "/api/orders/"+code+"/status?suppressEmailSending=true", map[string]any{"data": map[string]any{"statusId": shoptet.StatusSent}})
		e.call("GET", "/api/orders/"+code+"/history", nil)
		reg := e.call("POST", "/api/webhooks", map[string]any{"data": []any{map[string]any{"event": "order:create", "url": hook.URL}}})
		e.call("GET", "/api/webhooks", nil)
		id := reg.data()["webhooks"].([]any)[0].(map[string]any)["id"].(float64)
		e.call("GET", "/api/webhooks/"+ftoa(id), nil)
		e.call("POST", "/api/webhooks/renew-signature-key", nil)
		e.call("DELETE", "/api/webhooks/"+ftoa(id), nil)
		e.call("GET", "/api/orders/nope", nil)
		e.call("GET", "/api/webhooks/999", nil)
		if t.Failed() {
			return
		}
		if e.minimal && strings.Contains(string(e.call("GET", "/api/orders/"+code, nil).Raw), `"vatMode"`) {
			t.Error("the minimal shapes carry an optional property (vatMode)")
		}
	})
}

func ftoa(f float64) string { return strconv.Itoa(int(f)) }
