package shipping

import "shipdesk/sandbox/openapi"

// The OpenAPI part of the address book and the courier pickups. Only the
// operation names are public (public-evidence.md); these shapes are our choice.

func bookComponents() map[string]openapi.Schema {
	text := func(max int, desc string) sch {
		s := sch{"type": "string", "maxLength": max}
		if desc != "" {
			s["description"] = desc
		}
		return s
	}
	contactFields := func() map[string]any {
		return map[string]any{"firstname": text(50, ""), "surname": text(50, ""), "company": text(100, "a name or a company is required"),
			"street": text(100, ""), "city": text(50, ""), "zip": text(10, "five digits, e.g. 110 00"), "country": enum("CZ", "SK"),
			"phone": text(20, "a phone or an e-mail is required"), "email": text(100, ""), "default": sch{"type": "boolean", "description": "becomes the account's default"}}
	}
	contact := contactFields()
	contact["id"] = integer()
	return map[string]openapi.Schema{
		"Contact":        obj([]string{"id", "street", "city", "zip", "country", "default"}, contact),
		"ContactRequest": obj([]string{"street", "city", "zip", "country"}, contactFields()),
		"PickupRequest": obj([]string{"address_id", "date", "time_from", "time_to", "packages", "weight"}, map[string]any{
			"address_id": sch{"type": "integer", "description": "id of a stored address (contacts/list)"},
			"date":       sch{"type": "string", "description": "YYYY-MM-DD; a working day from today to 30 days ahead"},
			"time_from":  sch{"type": "string", "description": "HH:MM, from 07:00"},
			"time_to":    sch{"type": "string", "description": "HH:MM, until 18:00, at least 2 hours after time_from"},
			"packages":   sch{"type": "integer", "minimum": 1, "maximum": pickupMaxPkgs},
			"weight":     sch{"type": "number", "description": "kilograms in total, above 0", "maximum": pickupMaxWeight},
			"carrier":    sch{"type": "string", "maxLength": 20, "description": "optional; any case; a carrier that collects from a pickup address"},
			"note":       text(pickupMaxNote, "for the courier")}),
		"Pickup": obj([]string{"id", "number", "address_id", "address", "date", "time_from", "time_to", "packages", "weight", "carrier", "note", "status", "created"}, map[string]any{
			"id": integer(), "number": sch{"type": "string", "description": "e.g. PU00000001"}, "address_id": integer(), "address": ref("Contact"),
			"date": str(), "time_from": str(), "time_to": str(), "packages": integer(), "weight": num(),
			"carrier": sch{"type": "string", "description": "empty: any carrier"}, "note": str(), "status": enum("ORDERED"),
			"created": sch{"type": "string", "description": "YYYY-MM-DD HH:MM:SS"}}),
	}
}

func bookOperations() []openapi.Operation {
	bad := openapi.Response{Description: "invalid data; errors name the fields", Schema: ref("Error")}
	unauth := openapi.Response{Description: "missing or invalid x-apikey", Schema: ref("Error")}
	tooBig := openapi.Response{Description: "request body too large", Schema: ref("Error")}
	dates := []openapi.Parameter{
		{Name: "date_from", In: "query", Schema: str(), Description: "pickup date from, YYYY-MM-DD; default: no limit"},
		{Name: "date_to", In: "query", Schema: str(), Description: "pickup date to, inclusive"},
	}
	return []openapi.Operation{
		{Method: "GET", Path: "/api/v1/contacts/list", OperationID: "contactsList", Tag: "shipping", Auth: openapi.AuthRequired,
			Summary: "Stored pickup addresses (for from.id)", Description: "data is keyed by contact id.",
			Responses: map[int]openapi.Response{200: {Description: "contacts", Schema: envelope(mapOf(ref("Contact")))}, 401: unauth}},
		{Method: "POST", Path: "/api/v1/contacts/add", OperationID: "contactsAdd", Tag: "shipping", Auth: openapi.AuthRequired,
			Summary: "Store a new pickup address", Description: "The new id comes first in data; it can be used as from.id and address_id at once.",
			RequestBody: ref("ContactRequest"),
			Responses:   map[int]openapi.Response{200: {Description: "stored", Schema: envelope(sch{"type": "array", "items": integer(), "minItems": 1})}, 400: bad, 401: unauth, 413: tooBig}},
		{Method: "POST", Path: "/api/v1/pickups/add", OperationID: "pickupsAdd", Tag: "shipping", Auth: openapi.AuthRequired,
			Summary: "Order a courier pickup at a stored address", Description: "Working days only, from today to 30 days ahead, a window of at least 2 hours between 07:00 and 18:00. Not idempotent: each call orders a courier.",
			RequestBody: ref("PickupRequest"),
			Responses:   map[int]openapi.Response{200: {Description: "ordered", Schema: envelope(ref("Pickup"))}, 400: bad, 401: unauth, 413: tooBig}},
		{Method: "GET", Path: "/api/v1/pickups/list", OperationID: "pickupsList", Tag: "shipping", Auth: openapi.AuthRequired,
			Summary: "The account's courier pickups", Description: "data is keyed by pickup id; the message says how many were found.",
			Parameters: dates,
			Responses:  map[int]openapi.Response{200: {Description: "pickups", Schema: envelope(mapOf(ref("Pickup")))}, 400: bad, 401: unauth}},
	}
}
