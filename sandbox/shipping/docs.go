package shipping

import (
	"maps"
	"regexp"
	"strings"
	"unicode"

	"shipdesk/sandbox/openapi"
)

type sch = openapi.Schema

func obj(required []string, props map[string]any) sch {
	return sch{"type": "object", "required": required, "properties": props}
}
func str() sch              { return sch{"type": "string"} }
func num() sch              { return sch{"type": "number"} }
func integer() sch          { return sch{"type": "integer"} }
func boolean() sch          { return sch{"type": "boolean"} }
func arr(items sch) sch     { return sch{"type": "array", "items": items} }
func enum(v ...string) sch  { return sch{"type": "string", "enum": v} }
func nullable(t string) sch { return sch{"type": []string{t, "null"}} }
func ref(n string) sch      { return openapi.Ref(n) }

// anyCase is a text that is one of words in any case ("cod", "Cod", "COD"),
// as a pattern every JSON Schema validator reads (no case-insensitive flag).
func anyCase(words ...string) sch {
	alts := make([]string, len(words))
	for i, w := range words {
		var b strings.Builder
		for _, r := range w {
			lo, up := unicode.ToLower(r), unicode.ToUpper(r)
			if lo == up {
				b.WriteString(regexp.QuoteMeta(string(r)))
				continue
			}
			b.WriteString("[" + string(up) + string(lo) + "]")
		}
		alts[i] = b.String()
	}
	return sch{"type": "string", "pattern": "^(?:" + strings.Join(alts, "|") + ")$"}
}
func extra(s sch) sch { return openapi.MarkSandboxOnly(s) }
func describe(s sch, d string) sch {
	out := sch{"description": d}
	for k, v := range s {
		out[k] = v
	}
	return out
}
func mapOf(v sch) sch { return sch{"type": "object", "additionalProperties": v} }
func envelope(data sch) sch {
	return obj([]string{"status", "message", "data"}, map[string]any{"status": integer(), "message": str(), "data": data})
}

var statuses = []string{"CREATED", "EXPORTED", "ONPICKUP", "INTRANSIT", "ONDELIVERY", "DELIVERED", "CANCELLED"}

// Components are the shared schemas of the shipping and cart interfaces.
func (s *Service) Components() map[string]openapi.Schema {
	address := map[string]any{"id": integer(), "firstname": str(), "surname": str(), "company": str(), "street": str(),
		"city": str(), "zip": sch{"type": "string", "description": zipDocs()},
		"country": sch{"type": "string", "enum": recipientCountries, "description": "senders CZ or SK; recipients across Europe and a few countries beyond"}, "phone": str(), "email": str()}
	c := map[string]openapi.Schema{
		"Error": describe(obj([]string{"status", "message"}, map[string]any{"status": integer(), "message": str(),
			"errors": arr(obj([]string{"message"}, map[string]any{"field": sch{"type": "string", "description": "path such as shipments[0].label_less; absent for a general error"}, "message": str()}))}),
			"every failure; also 404 for an unknown path and 405 (with the Allow header) for a wrong method, anywhere in the sandbox"),
		"Money": obj([]string{"value", "currency"}, map[string]any{"value": num(), "currency": str()}),
		"MoneyRequest": obj([]string{"value", "currency"}, map[string]any{"currency": str(), "value": sch{
			"anyOf":       []any{num(), sch{"type": "string", "pattern": `^-?\d+(\.\d+)?$`}},
			"description": "a JSON number or a numeric string such as \"500\" or \"500.5\"; anything else is a 400 naming the field"}}),
		"Address": sch{"type": "object", "properties": address, "description": "Sender or recipient. A sender may be {\"id\": N}, a stored address from contacts/list. For delivery to a point the recipient's street, city and zip may be omitted."},
		"PackageRequest": obj([]string{"weight"}, map[string]any{"weight": sch{"type": "number", "description": "kilograms"},
			"width": sch{"type": "number", "description": "centimetres"}, "height": num(), "length": num(),
			"value": describe(ref("MoneyRequest"), "the goods' value"), "content": sch{"type": "string", "description": "what the package holds"}}),
		"ServiceCOD": obj([]string{"value"}, map[string]any{"value": ref("MoneyRequest"),
			"bank_account":  sch{"type": "string", "maxLength": 64, "description": "Czech [prefix-]number (modulo 11) or an IBAN. On create with a valid key it may be left out (with bank_code): the account's stored bank details are used; without a key it is required"},
			"bank_code":     sch{"type": "string", "description": "exactly four digits; required for Czech accounts, omitted for an IBAN"},
			"bank_variable": sch{"type": "string", "maxLength": 10, "description": "digits only"},
			"bank_currency": sch{"type": "string", "minLength": 3, "maxLength": 3}, "include_shipping_costs": boolean()}),
		"ServiceInsurance": sch{"anyOf": []any{ref("MoneyRequest"), ref("ServiceInsuranceValue")}, "description": "the insured value: the Money itself ({\"value\": 12500, \"currency\": \"CZK\"}, the provider's example) or {value: Money}"},
		"ServiceInsuranceValue": obj([]string{"value"}, map[string]any{"value": describe(ref("MoneyRequest"),
			"insured value in the order currency, more than zero and at most the service's maximum (home 100 000 CZK, points 50 000, express 200 000, freight 500 000, same-day 30 000; EUR a 25th); priced at 0.4 % of the value, at least 10 CZK")}),
		"Service": obj([]string{"code"}, map[string]any{
			"code": describe(anyCase("COD", "INS"), "matched without regard to case; each at most once per shipment"),
			"data": sch{"anyOf": []any{ref("ServiceCOD"), ref("ServiceInsurance")}, "description": "ServiceCOD for cod, ServiceInsurance for ins"}}),
		"ShipmentRequest": obj([]string{"from", "to", "packages"}, map[string]any{
			"type": sch{"type": "string", "enum": []string{"ONDEMAND", "REGULAR", "OCCASIONAL"},
				"description": "required on create and validate unless a pickup point is given (pickup_branch or pickup_branch_location: hand-over there); optional on rates/get, which then offers every pickup type"},
			"carrier": sch{"type": "string", "maxLength": 20, "description": "the carrier's own code (PPL, DPD, GLS-SK, ZASILKOVNA, …), matched without regard to case"}, "service_id": integer(),
			"pickup_date": sch{"type": "string", "description": "YYYY-MM-DD; default the next working day"},
			"from":        ref("Address"), "to": ref("Address"), "services": arr(ref("Service")), "packages": arr(ref("PackageRequest")),
			"reference": sch{"type": "string", "maxLength": maxReference}, "note": str(), "label_less": boolean(),
			"pickup_branch": sch{"type": "string", "description": "point code within carrier (PPL--1, ZASILKOVNA-PRAHA-1); '1' = any branch"}, "delivery_branch": str(),
			"pickup_branch_location": integer(), "delivery_branch_location": integer(),
			"customs": ref("Customs")}),
		"Order": obj([]string{"currency", "payment_type", "shipments"}, map[string]any{"currency": enum("CZK", "EUR"),
			"payment_type": sch{"type": "string", "enum": []string{"CREDIT", "ONLINE", "INVOICE", "credit", "online", "invoice"}, "description": "matched without regard to case. INVOICE only for accounts with that right (in the sandbox the first key's): others get 401. Without a valid key always ONLINE."}, "payer": describe(obj([]string{"email"}, map[string]any{"firstname": str(), "surname": str(), "company": str(),
				"tin": sch{"type": "string", "description": "IČO"}, "vatin": sch{"type": "string", "description": "DIČ"}, "email": str(), "phone": str()}), "a name or a company is required"),
			"shipments": arr(ref("ShipmentRequest"))}),
		"Rate": obj([]string{"carrier", "service", "service_id", "price", "price_vat", "selectable", "label_mode", "delivery_branch_required"}, map[string]any{
			"carrier": str(), "carrier_group": extra(str()), "service": str(), "service_id": integer(), "pickup_date": str(), "delivery_date": str(),
			"type": extra(sch{"type": "string", "enum": []string{"ONDEMAND", "REGULAR", "OCCASIONAL", OfferAtBranch},
				"description": "the hand-over the offer is priced for; BRANCH: at a pickup point (send pickup_branch and omit type on create)"}),
			"price": ref("Money"), "price_vat": ref("Money"), "selectable": boolean(), "reason": extra(sch{"type": "string", "description": "why the offer cannot be ordered with the given data"}),
			"label_mode": enum("PRINT", "CARRIER", "PRINT_OR_CODE"), "delivery_branch_required": boolean(),
			"printable": sch{"type": "boolean", "deprecated": true}}),
		"Package": obj([]string{"number", "status", "package_password"}, map[string]any{"number": str(), "status": enum(statuses...),
			"package_password": sch{"type": []string{"string", "null"}, "description": "owner or order token only; from EXPORTED"},
			"carrier_tracking": sch{"type": "string", "description": "the carrier's own parcel number"},
			"weight":           num(), "width": num(), "height": num(), "length": num()}),
		"TrackingEvent": obj([]string{"date", "time", "name", "status"}, map[string]any{"date": str(), "time": str(), "name": str(), "status": enum(statuses...), "location": str()}),
		"Tracking": obj([]string{"status", "returned", "packages"}, map[string]any{"status": enum(statuses...), "returned": boolean(),
			"packages": arr(arr(ref("TrackingEvent")))}),
		"Shipment": obj([]string{"tracking_number", "status", "label_mode", "label_status", "packages"}, map[string]any{
			"tracking_number": str(), "status": enum(statuses...), "carrier": str(),
			"label_mode": enum("PRINT", "CARRIER", "CODE", "PRINT_OR_CODE"), "label_status": enum("NOT_APPLICABLE", "PENDING", "READY", "FAILED"),
			"labels_ready": sch{"type": "boolean", "deprecated": true}, "label_less": sch{"type": "boolean", "deprecated": true, "description": "owner only"},
			"packages": arr(ref("Package")), "service_id": integer(), "type": str(), "pickup_date": str(), "reference": str(),
			"order":      extra(obj(nil, map[string]any{"id": integer(), "number": str(), "payment_type": str(), "paid": boolean()})),
			"created":    extra(sch{"type": "string", "description": "YYYY-MM-DD HH:MM:SS"}),
			"order_date": sch{"type": "string", "description": "creation of the order, YYYY-MM-DD HH:MM:SS"}, "delivery_date": sch{"type": "string", "description": "YYYY-MM-DD: expected, or actual once delivered"},
			"from": ref("Address"), "to": ref("Address"), "services": arr(ref("Service")),
			"pickup_branch": str(), "delivery_branch": str(), "tracking_information": ref("Tracking")}),
		"ShipmentCreated": obj([]string{"tracking_number", "label_mode", "label_status"}, map[string]any{
			"tracking_number": str(), "status": enum(statuses...), "carrier": str(), "service_id": integer(),
			"label_mode": enum("PRINT", "CARRIER", "CODE", "PRINT_OR_CODE"), "label_status": enum("NOT_APPLICABLE", "PENDING", "READY", "FAILED"),
			"package_password": sch{"type": "null"}, "packages": arr(obj([]string{"number", "status", "package_password"}, map[string]any{
				"number": str(), "status": enum(statuses...), "package_password": sch{"type": "null"}})), "reference": str()}),
		"ParcelPoint": obj([]string{"code", "carrier", "pickup_branch_location_id"}, map[string]any{"id": extra(integer()), "code": str(), "name": str(),
			"street": str(), "city": str(), "zip": str(), "country": str(), "carrier": str(), "is_locker": sch{"type": "integer", "enum": []int{0, 1}, "description": "1: a parcel box"},
			"pickup_branch_location_id": integer(), "location": obj([]string{"lat", "lng"}, map[string]any{"lat": sch{"type": "string", "pattern": `^-?\d+(\.\d+)?$`, "description": "decimal degrees as a string"}, "lng": sch{"type": "string", "pattern": `^-?\d+(\.\d+)?$`}}),
			"max_length": extra(sch{"type": "number", "description": "centimetres, sides compared sorted"}), "max_width": extra(num()), "max_height": extra(num()), "max_weight": extra(num())}),
		"Numbers": obj([]string{"shipments"}, map[string]any{"shipments": sch{"type": "array", "items": str(), "maxItems": MaxBatch}, "tokens": sch{"type": []string{"array", "null"}, "items": str()}}),
		"CartRequest": obj([]string{"to"}, map[string]any{"from": ref("Address"), "to": ref("Address"), "packages": arr(ref("PackageRequest")),
			"serviceId": integer(), "pickupBranch": sch{"type": []string{"string", "integer"}, "description": "1 = the account's default pickup point"}, "referenceNumber": str()}),
		"CartDraft": obj([]string{"status", "message", "id", "source", "referenceNumber", "errors", "rates", "modified"}, map[string]any{
			"status": integer(), "message": str(), "id": integer(), "source": enum("API"), "referenceNumber": str(),
			"errors": sch{"type": []string{"array", "null"}, "items": obj([]string{"message"}, map[string]any{"field": str(), "message": str()}), "description": "null: the draft is valid; otherwise warnings"},
			"rates":  sch{"type": "null", "description": "computed in the background; seen in the manager"}, "modified": sch{"type": "string", "description": "YYYY-MM-DD HH:MM:SS"},
			"from": ref("Address"), "to": ref("Address"), "packages": arr(ref("PackageRequest")), "serviceId": integer(), "pickupBranch": str(),
			"defaults": sch{"type": "array", "items": enum("from", "packages", "serviceId", "pickupBranch"), "description": "fields filled from the account's defaults"}}),
	}
	maps.Copy(c, bookComponents())
	maps.Copy(c, customsComponents())
	return c
}

// Operations documents every route Register adds.
func (s *Service) Operations() []openapi.Operation {
	errResp := func(d string) openapi.Response { return openapi.Response{Description: d, Schema: ref("Error")} }
	bad, unauth, notFound, tooBig := errResp("invalid data; errors name the fields"), errResp("missing or invalid x-apikey"), errResp("not found"), errResp("request body too large")
	noInvoice := errResp("payment_type INVOICE without that right: message \"You are not allowed to use invoice payment method\"")
	pdf := envelope(sch{"type": "string", "contentEncoding": "base64", "description": "a PDF document"})
	nums := ref("Numbers")
	page := func(name string) []openapi.Parameter {
		return []openapi.Parameter{{Name: "page", In: "query", Description: "from 1", Schema: integer()}, {Name: "per_page", In: "query", Description: name, Schema: integer()}}
	}
	ops := []openapi.Operation{
		{Method: "POST", Path: "/api/v1/rates/get", OperationID: "ratesGet", Tag: "shipping", Auth: openapi.AuthOptional,
			Summary: "Offers for one shipment", Description: "Body: currency plus the fields of one shipment of shipments/create. COD needs only value; ins (insurance) adds its price. The offers are in a top-level rates list, cheapest first; combinations the label-mode table marks none are not offered, nor carriers that do not deliver to the recipient's country (abroad costs more and takes longer); offers that cannot be ordered with the data have selectable false (and, sandbox-only, a reason). Without type: with a pickup point, hand-over there; otherwise each service once per pickup type it allows among ONDEMAND and REGULAR, or at a point for a carrier that takes packages only at points.",
			RequestBody: sch{"allOf": []any{ref("ShipmentRequest"), obj(nil, map[string]any{"currency": enum("CZK", "EUR")})}},
			Responses:   map[int]openapi.Response{200: {Description: "offers", Schema: obj([]string{"status", "message", "rates"}, map[string]any{"status": integer(), "message": str(), "rates": arr(ref("Rate"))})}, 400: bad, 413: tooBig}},
		{Method: "POST", Path: "/api/v1/shipments/create", OperationID: "shipmentsCreate", Tag: "shipping", Auth: openapi.AuthOptional,
			Summary: "Create an order of shipments", Description: "Without a valid key the order is not linked to an account, payment is ONLINE and payer is required. ONLINE orders wait (CREATED, label PENDING) until paid (POST /sandbox/orders/{id}/pay, by order_number or token). The reply gives the order token (order) that unlocks package_password in detail's tokens. shipments are tracking-number strings (minimal shapes, the provider's example) or objects (documented shapes): read both.",
			RequestBody: ref("Order"),
			Responses: map[int]openapi.Response{200: {Description: "created", Schema: envelope(obj([]string{"order", "order_number", "shipments"}, map[string]any{
				"order": sch{"type": "string", "description": "order token, hex"}, "order_number": sch{"type": "string", "description": "e.g. SO00000001"},
				"shipments": arr(sch{"oneOf": []any{sch{"type": "string", "description": "tracking number"}, ref("ShipmentCreated")}})}))}, 400: bad, 401: noInvoice, 413: tooBig}},
		{Method: "POST", Path: "/api/v1/shipments/validate", OperationID: "shipmentsValidate", Tag: "shipping", Auth: openapi.AuthOptional,
			Summary: "Check an order without creating it", RequestBody: ref("Order"),
			Responses: map[int]openapi.Response{200: {Description: "valid", Schema: envelope(obj([]string{"valid"}, map[string]any{"valid": sch{"const": true}, "shipments": integer()}))}, 400: bad, 401: noInvoice, 413: tooBig}},
		{Method: "POST", Path: "/api/v1/shipments/detail", OperationID: "shipmentsDetail", Tag: "shipping", Auth: openapi.AuthOptional,
			Summary: "Shipments by tracking number", Description: "data is keyed by tracking number; unknown numbers are absent (404 when none is found). Without a valid key, or for another account's shipment, only public fields; package_password also with the order token in tokens.",
			Parameters:  []openapi.Parameter{{Name: "tracking", In: "query", Description: "present: add tracking_information", Schema: str()}},
			RequestBody: nums,
			Responses:   map[int]openapi.Response{200: {Description: "shipments", Schema: envelope(mapOf(ref("Shipment")))}, 400: bad, 404: notFound}},
		{Method: "GET", Path: "/api/v1/shipments/list", OperationID: "shipmentsList", Tag: "shipping", Auth: openapi.AuthRequired,
			Summary: "The account's shipments, newest first", Description: "Also proves a key valid. data is keyed by tracking number and holds shipments only: at most 100 from offset in the newest-first order. Page with offset=0, 100, 200… and merge the data objects until one holds fewer than 100.",
			Parameters: []openapi.Parameter{
				{Name: "status", In: "query", Schema: enum("OPEN", "ACTIVE", "DELIVERED", "STORNO"), Description: "OPEN = CREATED, ACTIVE = EXPORTED to ONDELIVERY, DELIVERED, STORNO = CANCELLED"},
				{Name: "date_from", In: "query", Schema: str(), Description: "creation date from, YYYY-MM-DD"},
				{Name: "date_to", In: "query", Schema: str(), Description: "creation date to, inclusive"},
				{Name: "reference", In: "query", Schema: str(), Description: "own reference, exact"},
				{Name: "tracking", In: "query", Schema: str(), Description: "present: add tracking_information"},
				{Name: "offset", In: "query", Schema: sch{"type": "integer", "minimum": 0}, Description: "how many matching shipments to skip, in steps of 100; default 0"},
			},
			Responses: map[int]openapi.Response{200: {Description: "up to 100 shipments", Schema: obj([]string{"status", "message", "data"}, map[string]any{
				"status": integer(), "message": sch{"type": "string", "description": "says how many shipments match in all"},
				"data":   mapOf(ref("Shipment")),
				"paging": extra(obj([]string{"offset", "limit", "total"}, map[string]any{"offset": integer(), "limit": integer(), "total": integer()}))})},
				400: bad, 401: unauth}},
		{Method: "POST", Path: "/api/v1/shipments/tracking", OperationID: "shipmentsTracking", Tag: "shipping", Auth: openapi.AuthOptional,
			Summary: "Tracking of a batch", Description: "data keyed by tracking number; one list of events per package, newest first; the message says how many were found.",
			RequestBody: nums, Responses: map[int]openapi.Response{200: {Description: "tracking", Schema: envelope(mapOf(ref("Tracking")))}, 400: bad}},
		{Method: "POST", Path: "/api/v1/shipments/label", OperationID: "shipmentsLabel", Tag: "shipping", Auth: openapi.AuthRequired,
			Summary: "Labels as one PDF", Description: "Only when label_status is READY. 404 in CREATED, unknown or another account's; 400 for label_mode CARRIER or label_status FAILED. Label-free shipments give an A6 information sheet with a QR code and the code. Sandbox: the first fetch of a label lets the courier take the parcel; until then a printed-label shipment waits at ONPICKUP.",
			RequestBody: nums, Responses: map[int]openapi.Response{200: {Description: "PDF", Schema: pdf}, 400: bad, 401: unauth, 404: notFound}},
		{Method: "POST", Path: "/api/v1/shipments/storno", OperationID: "shipmentsStorno", Tag: "shipping", Auth: openapi.AuthRequired,
			Summary: "Cancel shipments", Description: "Possible in CREATED and EXPORTED.",
			RequestBody: nums, Responses: map[int]openapi.Response{200: {Description: "cancelled", Schema: envelope(obj([]string{"cancelled"}, map[string]any{"cancelled": arr(str())}))}, 400: bad, 401: unauth, 404: notFound}},
		{Method: "POST", Path: "/api/v1/shipments/manifest", OperationID: "shipmentsManifest", Tag: "shipping", Auth: openapi.AuthRequired,
			Summary: "Hand-over protocol as a PDF", RequestBody: nums,
			Responses: map[int]openapi.Response{200: {Description: "PDF", Schema: pdf}, 400: bad, 401: unauth, 404: notFound}},
		{Method: "GET", Path: "/api/v1/parcelpoints/list", OperationID: "parcelpointsList", Tag: "shipping", Auth: openapi.AuthOptional,
			Summary: "Pickup and delivery points", Description: "data is keyed by point id. Without page and per_page every matching point comes in one answer; with either, one page. paging is top-level.",
			Parameters: append([]openapi.Parameter{
				{Name: "carrier", In: "query", Schema: str(), Description: "matched without regard to case"}, {Name: "country", In: "query", Schema: sch{"type": "string", "enum": recipientCountries}},
				{Name: "city", In: "query", Schema: str(), Description: "exact town, diacritics optional"},
				{Name: "zip", In: "query", Schema: str(), Description: "postal code prefix"},
				{Name: "q", In: "query", Schema: str(), Description: "text in name, street, town, postal code or code"},
			}, page("optional: default 100 once page is given, at most 1000")...),
			Responses: map[int]openapi.Response{200: {Description: "points", Schema: obj([]string{"status", "message", "data", "paging"}, map[string]any{
				"status": integer(), "message": str(), "data": mapOf(ref("ParcelPoint")),
				"paging": obj([]string{"page", "per_page", "total", "pages"}, map[string]any{"page": integer(), "per_page": integer(), "total": integer(), "pages": integer()})})}, 400: bad}},
		{Method: "POST", Path: "/api/v2/public/cart/create", OperationID: "cartCreate", Tag: "cart", Auth: openapi.AuthRequired,
			Summary: "Create a draft shipment", Description: "Never dispatches. The draft is answered at the top level (its errors are warnings, null when valid; rates null at creation). Omitted from, packages, serviceId and pickupBranch 1 take the account's defaults, listed in defaults.",
			RequestBody: ref("CartRequest"),
			Responses:   map[int]openapi.Response{201: {Description: "draft", Schema: ref("CartDraft")}, 400: bad, 401: unauth, 413: tooBig}},
	}
	return append(ops, bookOperations()...)
}
