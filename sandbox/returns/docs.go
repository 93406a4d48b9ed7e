package returns

import (
	"net/http"

	"shipdesk/sandbox/openapi"
)

// Prefix is where the returns API v1 lives, so its base URL is {sandbox}/returns.
const Prefix = "/returns/api/v1"

// Register adds the returns API v1 routes.
func (s *Service) Register(mux *http.ServeMux) {
	mux.HandleFunc("POST "+Prefix+"/commissions/create", s.create)
	mux.HandleFunc("POST "+Prefix+"/commissions/upload-file", s.uploadFile)
	mux.HandleFunc("POST "+Prefix+"/commissions/edit", s.edit)
	mux.HandleFunc("GET "+Prefix+"/commissions/{id}", s.get)
	mux.HandleFunc("GET "+Prefix+"/commissions", s.list)
	mux.HandleFunc("POST "+Prefix+"/activity/create", s.addActivity)
	mux.HandleFunc("GET "+Prefix+"/product-model", s.productModels)
	mux.HandleFunc("GET "+Prefix+"/product-type", s.productTypes)
}

type sch = openapi.Schema

func obj(required []string, props map[string]any) sch {
	return sch{"type": "object", "required": required, "properties": props}
}
func str() sch             { return sch{"type": "string"} }
func integer() sch         { return sch{"type": "integer"} }
func boolean() sch         { return sch{"type": "boolean"} }
func arr(items sch) sch    { return sch{"type": "array", "items": items} }
func enum(v ...string) sch { return sch{"type": "string", "enum": v} }
func ref(n string) sch     { return openapi.Ref(n) }
func envelope(data sch) sch {
	return obj([]string{"status", "message", "data"}, map[string]any{"status": integer(), "message": str(), "data": data})
}

// Components are the returns interface's schemas (prefixed, to share one document).
func (s *Service) Components() map[string]openapi.Schema {
	customer := map[string]any{"name": str(), "email": str(), "phone": str(), "street": str(), "city": str(), "zip": str(), "country": str()}
	file := obj([]string{"token", "filename", "content_type", "size", "uploaded"}, map[string]any{"token": str(), "filename": str(),
		"content_type": enum("application/pdf", "image/png", "image/jpeg"), "size": integer(), "uploaded": str()})
	return map[string]openapi.Schema{
		"ReturnsError": obj([]string{"status", "message"}, map[string]any{"status": integer(), "message": str(),
			"errors": arr(obj([]string{"message"}, map[string]any{"field": str(), "message": str()}))}),
		"Customer": sch{"type": "object", "required": []string{"name", "email"}, "properties": customer},
		"Product": obj([]string{"type_id", "model_id", "fault"}, map[string]any{"type_id": integer(), "model_id": integer(),
			"serial_number": str(), "purchase_date": sch{"type": "string", "description": "YYYY-MM-DD"}, "fault": str()}),
		"File": file,
		"Activity": obj([]string{"id", "type", "public", "text", "created"}, map[string]any{"id": integer(),
			"type":   sch{"type": "string", "enum": []string{"message", "note"}, "description": "message: public, sent to the customer; note: internal, never sent"},
			"public": boolean(), "text": str(), "created": str()}),
		"Commission": obj([]string{"id", "number", "type", "status", "customer", "product", "shipment_from_customer", "shipment_to_customer", "files", "history", "activities", "shipments", "created", "updated"}, map[string]any{
			"id": integer(), "number": str(), "type": enum(Types...), "status": enum(States...), "reference": str(),
			"customer": ref("Customer"), "product": ref("Product"), "shipment_from_customer": boolean(), "shipment_to_customer": boolean(),
			"invoice_file_token": str(), "files": arr(ref("File")),
			"history":    arr(obj([]string{"status", "at"}, map[string]any{"status": enum(States...), "at": sch{"type": "string", "description": "YYYY-MM-DD HH:MM:SS"}, "note": str()})),
			"activities": arr(ref("Activity")),
			"shipments": arr(obj([]string{"direction", "tracking_number", "ordered"}, map[string]any{"direction": enum("from_customer", "to_customer"),
				"tracking_number": str(), "ordered": str(), "delivered": str()})),
			"created": str(), "updated": str()}),
		"ProductType":  obj([]string{"id", "name"}, map[string]any{"id": integer(), "name": str()}),
		"ProductModel": obj([]string{"id", "type_id", "brand", "name"}, map[string]any{"id": integer(), "type_id": integer(), "brand": str(), "name": str()}),
	}
}

// Operations documents every route Register adds.
func (s *Service) Operations() []openapi.Operation {
	e := func(d string) openapi.Response { return openapi.Response{Description: d, Schema: ref("ReturnsError")} }
	bad, unauth, nf, big := e("invalid data; errors name the fields"), e("missing or invalid x-apikey"), e("not found"), e("too large")
	states := "States: new (one-way order), waiting_for_goods (two-way: transport from the customer on its way; becomes processing when delivered), processing, outgoing (outgoing shipment ordered; becomes closed when delivered), closed, cancelled. Moves by edit: new→processing|cancelled, waiting_for_goods→cancelled, processing→outgoing (with shipment_to_customer true)|closed|cancelled."
	return []openapi.Operation{
		{Method: "POST", Path: Prefix + "/commissions/create", OperationID: "commissionsCreate", Tag: "returns", Auth: openapi.AuthRequired,
			Summary: "Create a commission", Description: "shipment_from_customer true makes a two-way order (transport from the customer). Warranty orders need invoice_file_token from commissions/upload-file; a token serves one commission. " + states,
			RequestBody: obj([]string{"type", "customer", "product"}, map[string]any{"type": enum(Types...), "customer": ref("Customer"), "product": ref("Product"),
				"shipment_from_customer": boolean(), "invoice_file_token": str(), "reference": str()}),
			Responses: map[int]openapi.Response{201: {Description: "created", Schema: envelope(ref("Commission"))}, 400: bad, 401: unauth, 413: big}},
		{Method: "POST", Path: Prefix + "/commissions/upload-file", OperationID: "commissionsUploadFile", Tag: "returns", Auth: openapi.AuthRequired,
			Summary: "Upload a proof of purchase", Description: "multipart/form-data, field file. PDF, JPEG or PNG recognised by content; the name's extension must agree. At most 10 MiB.",
			RequestType: "multipart/form-data", RequestBody: obj([]string{"file"}, map[string]any{"file": sch{"type": "string", "contentMediaType": "application/octet-stream"}}),
			Responses: map[int]openapi.Response{201: {Description: "token", Schema: envelope(ref("File"))}, 400: bad, 401: unauth, 413: big, 415: e("not multipart")}},
		{Method: "POST", Path: Prefix + "/commissions/edit", OperationID: "commissionsEdit", Tag: "returns", Auth: openapi.AuthRequired,
			Summary: "Edit a commission or move it", Description: "Ordering the outgoing shipment: shipment_to_customer true with status outgoing, from processing. " + states,
			RequestBody: obj([]string{"id"}, map[string]any{"id": integer(), "status": enum(States...), "shipment_to_customer": boolean(), "customer": ref("Customer"), "reference": str(), "note": str()}),
			Responses:   map[int]openapi.Response{200: {Description: "updated", Schema: envelope(ref("Commission"))}, 400: bad, 401: unauth, 404: nf}},
		{Method: "GET", Path: Prefix + "/commissions/{id}", OperationID: "commissionsGet", Tag: "returns", Auth: openapi.AuthRequired,
			Summary: "One commission with its history", Parameters: []openapi.Parameter{{Name: "id", In: "path", Schema: integer()}},
			Responses: map[int]openapi.Response{200: {Description: "commission", Schema: envelope(ref("Commission"))}, 400: bad, 401: unauth, 404: nf}},
		{Method: "GET", Path: Prefix + "/commissions", OperationID: "commissionsList", Tag: "returns", Auth: openapi.AuthRequired,
			Summary: "Commissions, newest first",
			Parameters: []openapi.Parameter{{Name: "status", In: "query", Schema: enum(States...)}, {Name: "type", In: "query", Schema: enum(Types...)},
				{Name: "date_from", In: "query", Schema: str(), Description: "created from, YYYY-MM-DD"}, {Name: "date_to", In: "query", Schema: str()},
				{Name: "customer", In: "query", Schema: str(), Description: "text in name or e-mail"}, {Name: "product", In: "query", Schema: str(), Description: "model or type id"},
				{Name: "page", In: "query", Schema: integer()}, {Name: "per_page", In: "query", Schema: integer(), Description: "default 50, at most 200"}},
			Responses: map[int]openapi.Response{200: {Description: "page", Schema: envelope(obj([]string{"commissions", "page", "per_page", "total", "pages"}, map[string]any{
				"commissions": arr(ref("Commission")), "page": integer(), "per_page": integer(), "total": integer(), "pages": integer()}))}, 400: bad, 401: unauth}},
		{Method: "POST", Path: Prefix + "/activity/create", OperationID: "activityCreate", Tag: "returns", Auth: openapi.AuthRequired,
			Summary:     "Add a public message or an internal note",
			RequestBody: obj([]string{"commission_id", "type", "text"}, map[string]any{"commission_id": integer(), "type": enum("message", "note"), "text": str()}),
			Responses:   map[int]openapi.Response{201: {Description: "added", Schema: envelope(ref("Activity"))}, 400: bad, 401: unauth}},
		{Method: "GET", Path: Prefix + "/product-model", OperationID: "productModels", Tag: "returns", Auth: openapi.AuthRequired,
			Summary: "Product models", Parameters: []openapi.Parameter{{Name: "type_id", In: "query", Schema: integer()}},
			Responses: map[int]openapi.Response{200: {Description: "models", Schema: envelope(arr(ref("ProductModel")))}, 401: unauth}},
		{Method: "GET", Path: Prefix + "/product-type", OperationID: "productTypes", Tag: "returns", Auth: openapi.AuthRequired,
			Summary: "Product types", Responses: map[int]openapi.Response{200: {Description: "types", Schema: envelope(arr(ref("ProductType")))}, 401: unauth}},
	}
}
