package sandbox

import (
	"errors"
	"math"
	"net/http"
	"time"

	"shipdesk/sandbox/apijson"
	"shipdesk/sandbox/openapi"
	"shipdesk/sandbox/shipping"
	"shipdesk/sandbox/shoptet"
)

const maxBody = 64 << 10

func (sb *Sandbox) registerControls(mux *http.ServeMux) {
	mux.HandleFunc("GET /sandbox/clock", sb.getClock)
	mux.HandleFunc("GET /sandbox/account", sb.account)
	mux.HandleFunc("POST /sandbox/clock/advance", sb.advanceClock)
	mux.HandleFunc("POST /sandbox/orders/{id}/pay", sb.payOrder)
	mux.HandleFunc("GET /sandbox/carriers", sb.carriers)
	mux.HandleFunc("POST /sandbox/carriers/{carrier}/behaviour", sb.carrierBehaviour)
	mux.HandleFunc("GET /sandbox/faults", sb.listFaults)
	mux.HandleFunc("POST /sandbox/faults", sb.setFault)
	mux.HandleFunc("DELETE /sandbox/faults", sb.clearFaults)
	mux.HandleFunc("POST /sandbox/wipe", sb.wipe)
	mux.HandleFunc("GET /sandbox/openapi.json", sb.openAPI)
	sb.Shoptet.RegisterControls(mux)
}

func (sb *Sandbox) clockData() map[string]any {
	return map[string]any{"now": sb.clock.Now().Format(time.RFC3339), "offset_minutes": int(sb.clock.Offset() / time.Minute)}
}

// account shows the stored bank details of the key's account: the real
// service keeps them in its web app, where COD without bank details takes
// them from; nothing public reads them, so the sandbox shows them here.
func (sb *Sandbox) account(w http.ResponseWriter, r *http.Request) {
	bank, err := sb.Shipping.AccountBank(r.Header.Get("x-apikey"))
	if err != nil {
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusUnauthorized, msgUnauthorized))
		return
	}
	apijson.Write(w, r, http.StatusOK, msgAccount.With(), map[string]any{"bank": bank})
}

func (sb *Sandbox) getClock(w http.ResponseWriter, r *http.Request) {
	apijson.Write(w, r, http.StatusOK, msgSimulatedTime.With(), sb.clockData())
}

// MaxAdvance is a year, in minutes.
const MaxAdvance = 525600

func (sb *Sandbox) advanceClock(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Minutes *float64 `json:"minutes"`
	}
	if p := apijson.Decode(w, r, maxBody, &req); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	if req.Minutes == nil || *req.Minutes != math.Trunc(*req.Minutes) || *req.Minutes < 1 || *req.Minutes > MaxAdvance {
		apijson.WriteProblem(w, r, apijson.Invalid(apijson.Err("minutes", msgMinutes, MaxAdvance)))
		return
	}
	sb.clock.Advance(time.Duration(*req.Minutes) * time.Minute)
	apijson.Write(w, r, http.StatusOK, msgAdvanced.With(int(*req.Minutes)), sb.clockData())
}

func (sb *Sandbox) payOrder(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	switch err := sb.Shipping.PayOrder(id); {
	case errors.Is(err, shipping.ErrNotFound):
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusNotFound, apijson.Verbatim, err.Error()))
	case errors.Is(err, shipping.ErrConflict):
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusConflict, apijson.Verbatim, err.Error()))
	case err != nil:
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusInternalServerError, apijson.Verbatim, err.Error()))
	default:
		apijson.Write(w, r, http.StatusOK, msgPaid.With(), map[string]any{"order": id, "paid": true})
	}
}

func (sb *Sandbox) carriers(w http.ResponseWriter, r *http.Request) {
	cs := sb.Shipping.Carriers()
	apijson.Write(w, r, http.StatusOK, msgCarriers.With(len(cs)), cs)
}

func (sb *Sandbox) carrierBehaviour(w http.ResponseWriter, r *http.Request) {
	var b shipping.CarrierBehaviour
	if p := apijson.Decode(w, r, maxBody, &b); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	if err := sb.Shipping.SetCarrierBehaviour(r.PathValue("carrier"), b); err != nil {
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusNotFound, apijson.Verbatim, err.Error()))
		return
	}
	apijson.Write(w, r, http.StatusOK, msgBehaviour.With(), b)
}

func (sb *Sandbox) listFaults(w http.ResponseWriter, r *http.Request) {
	apijson.Write(w, r, http.StatusOK, msgFaults.With(), sb.faults.snapshot())
}

func (sb *Sandbox) setFault(w http.ResponseWriter, r *http.Request) {
	var f Fault
	if p := apijson.Decode(w, r, maxBody, &f); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	var errs []apijson.FieldError
	for name, v := range map[string]float64{"error_rate": f.ErrorRate, "drop_rate": f.DropRate, "drop_after_rate": f.DropAfterRate} {
		if v < 0 || v > 1 || math.IsNaN(v) {
			errs = append(errs, apijson.Err(name, msgShare))
		}
	}
	if f.LatencyMS < 0 || f.LatencyMS > 120000 {
		errs = append(errs, apijson.Err("latency_ms", msgLatency))
	}
	if f.LatencyMaxMS != 0 && (f.LatencyMaxMS < f.LatencyMS || f.LatencyMaxMS > 120000) {
		errs = append(errs, apijson.Err("latency_max_ms", msgLatencyMax))
	}
	if f.ErrorRate+f.DropRate+f.DropAfterRate > 1 {
		errs = append(errs, apijson.Err("drop_rate", msgDropRate))
	}
	if f.Count < 0 {
		errs = append(errs, apijson.Err("count", msgCount))
	}
	if f.Path != "" && f.Path[0] != '/' {
		errs = append(errs, apijson.Err("path", msgPath))
	}
	if len(errs) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(errs...))
		return
	}
	f.Used = 0
	sb.faults.set(f)
	apijson.Write(w, r, http.StatusCreated, msgFaultSet.With(), f)
}

func (sb *Sandbox) clearFaults(w http.ResponseWriter, r *http.Request) {
	sb.faults.clear()
	apijson.Write(w, r, http.StatusOK, msgFaultsCleared.With(), []Fault{})
}

func (sb *Sandbox) wipe(w http.ResponseWriter, r *http.Request) {
	sb.Wipe()
	apijson.Write(w, r, http.StatusOK, msgWiped.With(), map[string]any{"wiped": true})
}

func (sb *Sandbox) openAPI(w http.ResponseWriter, r *http.Request) {
	apijson.WriteRaw(w, r, http.StatusOK, sb.Document())
}

func controlComponents() map[string]openapi.Schema {
	str, integer, num, boolean := openapi.Schema{"type": "string"}, openapi.Schema{"type": "integer"}, openapi.Schema{"type": "number"}, openapi.Schema{"type": "boolean"}
	return map[string]openapi.Schema{
		"Clock": {"type": "object", "required": []string{"now", "offset_minutes"}, "properties": map[string]any{"now": str, "offset_minutes": integer}},
		"Fault": {"type": "object", "properties": map[string]any{
			"path": openapi.Schema{"type": "string", "description": "path prefix; empty: every interface path"}, "latency_ms": integer,
			"latency_max_ms": openapi.Schema{"type": "integer", "description": "when above latency_ms, each request waits a random time between the two; a slow service keeps working after the caller stops waiting"},
			"error_rate":     openapi.Schema{"type": "number", "description": "share of answers 503"}, "drop_rate": openapi.Schema{"type": "number", "description": "share of connections closed before processing"},
			"drop_after_rate": openapi.Schema{"type": "number", "description": "share processed, then closed unanswered: the caller cannot know the outcome"},
			"hold":            openapi.Schema{"type": "boolean", "description": "a hung service: the answer waits until the faults are cleared or the caller gives up"},
			"count":           openapi.Schema{"type": "integer", "description": "next N matching requests; 0 until cleared"}, "used": integer}},
		"Behaviour": {"type": "object", "properties": map[string]any{"fail_labels": boolean, "refuse_label_less": boolean}},
		"Carrier":   {"type": "object", "required": []string{"code", "group", "services"}, "properties": map[string]any{"code": str, "name": str, "group": str, "cod_group": str, "points": boolean, "countries": openapi.Schema{"type": "array", "items": str}, "services": openapi.Schema{"type": "array", "items": openapi.Schema{"type": "object", "properties": map[string]any{"service_id": integer, "name": str, "delivery_branch_required": boolean, "max_weight": num, "max_cod_czk": num, "base_price": num, "per_kg": num, "transit_days": integer}}}}},
	}
}

func controlOperations() []openapi.Operation {
	env := func(data openapi.Schema) openapi.Schema {
		return openapi.Schema{"type": "object", "required": []string{"status", "message", "data"}, "properties": map[string]any{"status": openapi.Schema{"type": "integer"}, "message": openapi.Schema{"type": "string"}, "data": data}}
	}
	errR := func(d string) openapi.Response { return openapi.Response{Description: d, Schema: openapi.Ref("Error")} }
	ok := func(d string, data openapi.Schema) openapi.Response {
		return openapi.Response{Description: d, Schema: env(data)}
	}
	faults := openapi.Schema{"type": "array", "items": openapi.Ref("Fault")}
	return []openapi.Operation{
		{Method: "GET", Path: "/sandbox/clock", OperationID: "sandboxClock", Tag: "sandbox", Auth: openapi.AuthNone, Summary: "Simulated time",
			Responses: map[int]openapi.Response{200: ok("now", openapi.Ref("Clock"))}},
		{Method: "GET", Path: "/sandbox/account", OperationID: "sandboxAccount", Tag: "sandbox", Auth: openapi.AuthRequired,
			Summary: "The stored bank details of the key's account", Description: "A cash-on-delivery service sent without bank details is paid to these (the account's stored bank details, as the real service keeps them in its web app).",
			Responses: map[int]openapi.Response{200: ok("account", openapi.Schema{"type": "object", "required": []string{"bank"}, "properties": map[string]any{"bank": openapi.Schema{"type": "object", "required": []string{"bank_account", "bank_code", "bank_currency"}, "properties": map[string]any{"bank_account": openapi.Schema{"type": "string"}, "bank_code": openapi.Schema{"type": "string"}, "bank_currency": openapi.Schema{"type": "string"}}}}}), 401: errR("missing or invalid x-apikey")}},
		{Method: "POST", Path: "/sandbox/clock/advance", OperationID: "sandboxClockAdvance", Tag: "sandbox", Auth: openapi.AuthNone,
			Summary: "Move simulated time forward", Description: "Shipments are exported a minute after payment and move through their states over the next hour; a shipment whose label nobody has fetched yet (shipments/label) waits at ONPICKUP, since a courier takes no unlabelled parcel: the courier takes it 15 minutes after export or when its label is first fetched, whichever is later (label-free shipments go with their hand-over code and CARRIER labels come with the courier: those do not wait); two-way commissions reach processing 30 minutes after creation.",
			RequestBody: openapi.Schema{"type": "object", "required": []string{"minutes"}, "properties": map[string]any{"minutes": openapi.Schema{"type": "integer", "minimum": 1, "maximum": MaxAdvance}}},
			Responses:   map[int]openapi.Response{200: ok("new time", openapi.Ref("Clock")), 400: errR("minutes missing or out of range")}},
		{Method: "POST", Path: "/sandbox/orders/{id}/pay", OperationID: "sandboxPayOrder", Tag: "sandbox", Auth: openapi.AuthNone,
			Summary: "Pay an ONLINE order", Parameters: []openapi.Parameter{{Name: "id", In: "path", Description: "order id or number", Schema: openapi.Schema{"type": "string"}}},
			Responses: map[int]openapi.Response{200: ok("paid", openapi.Schema{"type": "object", "properties": map[string]any{"order": openapi.Schema{"type": "string"}, "paid": openapi.Schema{"type": "boolean"}}}), 404: errR("no such order"), 409: errR("paid by credit or already paid")}},
		{Method: "GET", Path: "/sandbox/carriers", OperationID: "sandboxCarriers", Tag: "sandbox", Auth: openapi.AuthNone, Summary: "The generated carriers and services",
			Responses: map[int]openapi.Response{200: ok("carriers", openapi.Schema{"type": "array", "items": openapi.Ref("Carrier")})}},
		{Method: "POST", Path: "/sandbox/carriers/{carrier}/behaviour", OperationID: "sandboxCarrierBehaviour", Tag: "sandbox", Auth: openapi.AuthNone,
			Summary: "Make a carrier fail labels or refuse label-free exports", Description: "Applies to shipments created afterwards.",
			Parameters: []openapi.Parameter{{Name: "carrier", In: "path", Schema: openapi.Schema{"type": "string"}}}, RequestBody: openapi.Ref("Behaviour"),
			Responses: map[int]openapi.Response{200: ok("set", openapi.Ref("Behaviour")), 400: errR("malformed"), 404: errR("no such carrier")}},
		{Method: "GET", Path: "/sandbox/faults", OperationID: "sandboxFaults", Tag: "sandbox", Auth: openapi.AuthNone, Summary: "Active faults",
			Responses: map[int]openapi.Response{200: ok("faults", faults)}},
		{Method: "POST", Path: "/sandbox/faults", OperationID: "sandboxSetFault", Tag: "sandbox", Auth: openapi.AuthNone,
			Summary: "Inject latency, 5xx answers or dropped connections", Description: "The first fault whose path prefix matches applies; controls under /sandbox/ are never affected.",
			RequestBody: openapi.Ref("Fault"), Responses: map[int]openapi.Response{201: ok("set", openapi.Ref("Fault")), 400: errR("out of range")}},
		{Method: "DELETE", Path: "/sandbox/faults", OperationID: "sandboxClearFaults", Tag: "sandbox", Auth: openapi.AuthNone, Summary: "Clear all faults",
			Responses: map[int]openapi.Response{200: ok("cleared", faults)}},
		{Method: "POST", Path: "/sandbox/wipe", OperationID: "sandboxWipe", Tag: "sandbox", Auth: openapi.AuthNone,
			Summary: "Wipe all data", Description: "As the real test environment does every night (see --wipe-at).",
			Responses: map[int]openapi.Response{200: ok("wiped", openapi.Schema{"type": "object", "properties": map[string]any{"wiped": openapi.Schema{"type": "boolean"}}})}},
		{Method: "GET", Path: "/sandbox/openapi.json", OperationID: "sandboxOpenAPI", Tag: "sandbox", Auth: openapi.AuthNone, Summary: "This document",
			Responses: map[int]openapi.Response{200: {Description: "OpenAPI 3.1", Schema: openapi.Schema{"type": "object", "required": []string{"openapi", "paths", "components"}}}}},
	}
}

// Operations of every interface and control, for tests and the document. Any
// interface operation may answer 503 (as the real service can, and as an
// injected fault does).
func (sb *Sandbox) Operations() []openapi.Operation {
	ops := append(sb.Shipping.Operations(), sb.Returns.Operations()...)
	for i := range ops {
		rs := map[int]openapi.Response{503: {Description: "temporarily unavailable; reads may be retried", Schema: openapi.Ref("Error")}}
		for k, v := range ops[i].Responses {
			rs[k] = v
		}
		ops[i].Responses = rs
	}
	return append(append(ops, controlOperations()...), shoptet.ControlOperations()...)
}

// Components of the whole document.
func (sb *Sandbox) Components() map[string]openapi.Schema {
	comps := map[string]openapi.Schema{}
	for _, m := range []map[string]openapi.Schema{sb.Shipping.Components(), sb.Returns.Components(), controlComponents()} {
		for k, v := range m {
			comps[k] = v
		}
	}
	return comps
}
