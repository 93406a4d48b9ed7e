package shoptet

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"

	"shipdesk/sandbox/apijson"
	"shipdesk/sandbox/openapi"
)

// The sandbox's controls of the shop (under /sandbox/shoptet/, in the
// sandbox's own envelope): what the shop's staff and customers do, its
// limits, and the webhook notifications sent.
var (
	msgSettings      = apijson.Phrase{CS: "Limity simulovaného e-shopu", EN: "The simulated shop's limits"}
	msgSettingsBad   = apijson.Phrase{CS: "Spojení 1 až 50, kbelík 1 až 100000, odtok 0 až 100000 za sekundu, zámek 0 až 60 s, zpoždění 0 až 120000 ms", EN: "Connections 1 to 50, bucket 1 to 100000, leak 0 to 100000 a second, lock 0 to 60 s, latency 0 to 120000 ms"}
	msgOrderAdded    = apijson.Phrase{CS: "Objednávka %s přidána", EN: "Order %s added"}
	msgOrderChanged  = apijson.Phrase{CS: "Objednávka %s změněna", EN: "Order %s changed"}
	msgOrderDeleted  = apijson.Phrase{CS: "Objednávka %s smazána", EN: "Order %s deleted"}
	msgNoOrder       = apijson.Phrase{CS: "Objednávka %s neexistuje", EN: "No order %s"}
	msgOrderExists   = apijson.Phrase{CS: "Objednávka %s už existuje", EN: "Order %s exists"}
	msgNotifications = apijson.Phrase{CS: "Odeslaná oznámení webhooků: %d", EN: "%d webhook notifications"}
)

const maxControlBody = 1 << 20

// RegisterControls adds the shop's controls to the sandbox's mux.
func (s *Service) RegisterControls(mux *http.ServeMux) {
	mux.HandleFunc("GET /sandbox/shoptet/settings", s.getSettings)
	mux.HandleFunc("POST /sandbox/shoptet/settings", s.postSettings)
	mux.HandleFunc("POST /sandbox/shoptet/orders", s.postOrder)
	mux.HandleFunc("POST /sandbox/shoptet/orders/{code}/edit", s.editOrder)
	mux.HandleFunc("POST /sandbox/shoptet/orders/{code}/cancel", s.cancelOrder)
	mux.HandleFunc("DELETE /sandbox/shoptet/orders/{code}", s.removeOrder)
	mux.HandleFunc("GET /sandbox/shoptet/notifications", s.notifications)
}

func (s *Service) getSettings(w http.ResponseWriter, r *http.Request) {
	apijson.Write(w, r, http.StatusOK, msgSettings.With(), s.Settings())
}

func (s *Service) postSettings(w http.ResponseWriter, r *http.Request) {
	st := s.Settings()
	if p := apijson.Decode(w, r, maxControlBody, &st); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	bad := func(v, lo, hi float64) bool { return math.IsNaN(v) || v < lo || v > hi }
	if bad(float64(st.Connections), 1, 50) || bad(st.Bucket, 1, 100000) || bad(st.LeakPerSecond, 0, 100000) ||
		bad(float64(st.LockSeconds), 0, 60) || bad(float64(st.LatencyMS), 0, 120000) {
		apijson.WriteProblem(w, r, apijson.Invalid(apijson.Err("", msgSettingsBad)))
		return
	}
	s.SetSettings(st)
	apijson.Write(w, r, http.StatusOK, msgSettings.With(), st)
}

func (s *Service) postOrder(w http.ResponseWriter, r *http.Request) {
	var o Order
	if p := apijson.Decode(w, r, maxControlBody, &o); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	code, err := s.AddOrder(o)
	if errors.Is(err, ErrExists) {
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusConflict, msgOrderExists, o.Code))
		return
	}
	apijson.Write(w, r, http.StatusCreated, msgOrderAdded.With(code), map[string]any{"code": code})
}

// editOrder merges the body's members into the order (the rest stays).
func (s *Service) editOrder(w http.ResponseWriter, r *http.Request) {
	var raw json.RawMessage
	if p := apijson.Decode(w, r, maxControlBody, &raw); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	code := r.PathValue("code")
	var bad error
	err := s.UpdateOrder(code, func(o *Order) {
		c := copyOrder(o)
		if bad = json.Unmarshal(raw, &c); bad == nil {
			*o = c
		}
	})
	s.answerChange(w, r, code, err, bad)
}

func (s *Service) cancelOrder(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	s.answerChange(w, r, code, s.CancelOrder(code), nil)
}

func (s *Service) removeOrder(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	if err := s.DeleteOrder(code); err != nil {
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusNotFound, msgNoOrder, code))
		return
	}
	apijson.Write(w, r, http.StatusOK, msgOrderDeleted.With(code), map[string]any{"code": code})
}

func (s *Service) answerChange(w http.ResponseWriter, r *http.Request, code string, err, bad error) {
	switch {
	case err != nil:
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusNotFound, msgNoOrder, code))
	case bad != nil:
		apijson.WriteProblem(w, r, apijson.Invalid(apijson.Err("", apijson.Verbatim, bad.Error())))
	default:
		o, _ := s.Order(code)
		apijson.Write(w, r, http.StatusOK, msgOrderChanged.With(code), o)
	}
}

func (s *Service) notifications(w http.ResponseWriter, r *http.Request) {
	list := s.Notifications()
	apijson.Write(w, r, http.StatusOK, msgNotifications.With(len(list)), list)
}

// ControlOperations document the controls in the sandbox's OpenAPI document.
func ControlOperations() []openapi.Operation {
	obj := openapi.Schema{"type": "object"}
	env := func(data openapi.Schema) openapi.Schema {
		return openapi.Schema{"type": "object", "required": []string{"status", "message", "data"}, "properties": map[string]any{"status": openapi.Schema{"type": "integer"}, "message": openapi.Schema{"type": "string"}, "data": data}}
	}
	errR := func(d string) openapi.Response { return openapi.Response{Description: d, Schema: openapi.Ref("Error")} }
	code := []openapi.Parameter{{Name: "code", In: "path", Required: true, Description: "order code", Schema: openapi.Schema{"type": "string"}}}
	settings := openapi.Schema{"type": "object", "properties": map[string]any{
		"connections": openapi.Schema{"type": "integer", "description": "connections at once per token (Shoptet: 3); the next gets 429 with Retry-After: 1"},
		"bucket":      openapi.Schema{"type": "number", "description": "leaky bucket's drops (Shoptet: 200); a request is one drop"}, "leak_per_second": openapi.Schema{"type": "number", "description": "drops leaked a second of simulated time (Shoptet: 10)"},
		"lock_seconds": openapi.Schema{"type": "integer", "description": "the same write within this many simulated seconds gets 423 (Shoptet: 5)"},
		"latency_ms":   openapi.Schema{"type": "integer", "description": "the shop's own time to answer, holding its connection"}, "arrivals": openapi.Schema{"type": "boolean", "description": "new orders keep arriving on the clock (07:00–22:00 Prague time, about one in 8 minutes)"}}}
	order := openapi.Schema{"type": "object", "description": "the order as the simulator keeps it (see sandbox/shoptet.Order); texts, amounts, weights and prices are kept as given"}
	return []openapi.Operation{
		{Method: "GET", Path: "/sandbox/shoptet/settings", OperationID: "sandboxShoptetSettings", Tag: "sandbox", Auth: openapi.AuthNone, Summary: "The simulated Shoptet shop's limits",
			Responses: map[int]openapi.Response{200: {Description: "limits", Schema: env(settings)}}},
		{Method: "POST", Path: "/sandbox/shoptet/settings", OperationID: "sandboxShoptetSetSettings", Tag: "sandbox", Auth: openapi.AuthNone, Summary: "Change the simulated shop's limits",
			Description: "Members left out keep their values.", RequestBody: settings,
			Responses: map[int]openapi.Response{200: {Description: "limits", Schema: env(settings)}, 400: errR("out of range")}},
		{Method: "POST", Path: "/sandbox/shoptet/orders", OperationID: "sandboxShoptetAddOrder", Tag: "sandbox", Auth: openapi.AuthNone, Summary: "A new order arrives at the shop",
			Description: "Empty fields are filled (the next code, now, status -1, CZK); order:create goes to its webhook.", RequestBody: order,
			Responses: map[int]openapi.Response{201: {Description: "added", Schema: env(openapi.Schema{"type": "object", "required": []string{"code"}, "properties": map[string]any{"code": openapi.Schema{"type": "string"}}})}, 400: errR("malformed"), 409: errR("the code exists")}},
		{Method: "POST", Path: "/sandbox/shoptet/orders/{code}/edit", OperationID: "sandboxShoptetEditOrder", Tag: "sandbox", Auth: openapi.AuthNone, Summary: "The shop's staff change an order",
			Description: "The members given replace the order's; order:update (or order:cancel, order:paid) goes to its webhook.", Parameters: code, RequestBody: order,
			Responses: map[int]openapi.Response{200: {Description: "changed", Schema: env(obj)}, 400: errR("malformed"), 404: errR("no such order")}},
		{Method: "POST", Path: "/sandbox/shoptet/orders/{code}/cancel", OperationID: "sandboxShoptetCancelOrder", Tag: "sandbox", Auth: openapi.AuthNone, Summary: "The customer cancels an order",
			Parameters: code, Responses: map[int]openapi.Response{200: {Description: "cancelled", Schema: env(obj)}, 404: errR("no such order")}},
		{Method: "DELETE", Path: "/sandbox/shoptet/orders/{code}", OperationID: "sandboxShoptetDeleteOrder", Tag: "sandbox", Auth: openapi.AuthNone, Summary: "The shop deletes an order",
			Parameters: code, Responses: map[int]openapi.Response{200: {Description: "deleted", Schema: env(obj)}, 404: errR("no such order")}},
		{Method: "GET", Path: "/sandbox/shoptet/notifications", OperationID: "sandboxShoptetNotifications", Tag: "sandbox", Auth: openapi.AuthNone, Summary: "Webhook notifications sent, oldest first",
			Responses: map[int]openapi.Response{200: {Description: "notifications", Schema: env(openapi.Schema{"type": "array", "items": obj})}}},
	}
}
