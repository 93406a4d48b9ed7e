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
			"phone": text(20, "a phone or an e-mail is required"), "email": text(100, ""), "tin": sch{"type": "string", "pattern": `^\d{8}$`, "description": "the company number (IČO), eight digits"}, "default": sch{"type": "boolean", "description": "becomes the account's default"}}
	}
	contact := contactFields()
	contact["id"] = integer()
	return map[string]openapi.Schema{
		"Contact":        obj([]string{"id", "street", "city", "zip", "country", "default"}, contact),
		"ContactRequest": obj([]string{"street", "city", "zip", "country"}, contactFields()),
		"ContactsAddRequest": obj([]string{"contacts"}, map[string]any{"contacts": sch{"type": "array", "items": ref("ContactRequest"), "minItems": 1, "maxItems": maxContactsAdded,
			"description": "errors name contacts[i].field"}}),
		"PickupRequest": obj([]string{"address_id", "date", "time_from", "time_to", "packages", "weight"}, map[string]any{
			"address_id": sch{"type": "integer", "description": "id of a stored address (contacts/list)"},
			"date":       sch{"type": "string", "description": "YYYY-MM-DD; a working day from today to 30 days ahead"},
			"time_from":  sch{"type": "string", "description": "HH:MM, from 07:00"},
			"time_to":    sch{"type": "string", "description": "HH:MM, until 18:00, at least 2 hours after time_from"},
			"packages":   sch{"type": "integer", "minimum": 1, "maximum": pickupMaxPkgs},
			"weight":     sch{"type": "number", "description": "kilograms in total, above 0", "maximum": pickupMaxWeight},
			"carrier":    sch{"type": "string", "maxLength": 20, "description": "optional; any case; a carrier that collects from a pickup address"},
			"note":       text(pickupMaxNote, "for the courier")}),
		"PickupFromRequest": obj([]string{"pickup_date", "from"}, map[string]any{
			"pickup_date": sch{"type": "string", "description": "YYYY-MM-DD; a working day from today to 30 days ahead"},
			"from":        obj([]string{"id"}, map[string]any{"id": sch{"type": "integer", "description": "id of a stored address (contacts/list)"}}),
			"carrier":     sch{"type": "string", "maxLength": 20, "description": "any case; a carrier that collects from a pickup address"},
			"time_from":   sch{"type": "string", "description": "HH:MM; with time_to, default 08:00-16:00"},
			"time_to":     sch{"type": "string", "description": "HH:MM"},
			"packages":    sch{"type": "integer", "minimum": 1, "maximum": pickupMaxPkgs, "description": "default 1"},
			"weight":      sch{"type": "number", "maximum": pickupMaxWeight, "description": "kilograms in total; may be left out"},
			"note":        text(pickupMaxNote, "for the courier")}),
		"PickupsAddRequest": obj([]string{"pickups"}, map[string]any{"pickups": sch{"type": "array", "minItems": 1, "maxItems": maxPickupsAdded, "items": obj([]string{"date", "time_range", "address"}, map[string]any{
			"date":       sch{"type": "string", "description": "YYYY-MM-DD; a working day from today to 30 days ahead"},
			"time_range": sch{"type": "string", "description": "HH:MM-HH:MM, e.g. 08:00-16:00: at least 2 hours between 07:00 and 18:00"},
			"address":    obj([]string{"id"}, map[string]any{"id": sch{"type": "integer", "description": "id of a stored address (contacts/list)"}}),
			"packages":   sch{"type": "integer", "minimum": 1, "maximum": pickupMaxPkgs, "description": "default 1"},
			"weight":     sch{"type": "number", "maximum": pickupMaxWeight, "description": "kilograms in total; may be left out"},
			"carrier":    sch{"type": "string", "maxLength": 20}, "note": text(pickupMaxNote, "for the courier")})}}),
		"PickupsAddErrors": describe(obj([]string{"status", "message", "errors"}, map[string]any{"status": integer(), "message": str(),
			"errors": sch{"type": "object", "additionalProperties": sch{"anyOf": []any{
				obj([]string{"field", "message"}, map[string]any{"field": str(), "message": str()}), arr(str())}}}}),
			"refusal of the list form: errors is an object that reads both ways. Under \"0\", \"1\"… each {field, message} (field a path such as pickups[0].address), so errors[0].message reads it; under each field name (address, date, time_range, …) the list of its messages, so errors.address[0] reads it"),
		"Pickup": obj([]string{"id", "number", "address_id", "address", "date", "time_from", "time_to", "packages", "weight", "carrier", "note", "status", "created"}, map[string]any{
			"id": integer(), "number": sch{"type": "string", "description": "e.g. PU00000001"}, "address_id": integer(), "address": ref("Contact"),
			"date": str(), "time_from": str(), "time_to": str(), "time_range": sch{"type": "string", "description": "HH:MM-HH:MM"}, "packages": integer(), "weight": num(),
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
			Summary: "Store new pickup addresses", Description: "The list form {\"contacts\": [{…}]} as real clients send it, or one contact's fields at the top level. data lists the new ids in the order given, so the new id of a single contact is data[0]; each can be used as from.id and in pickups at once. street, city and zip are stored as given.",
			RequestBody: sch{"oneOf": []any{ref("ContactsAddRequest"), ref("ContactRequest")}},
			Responses:   map[int]openapi.Response{200: {Description: "stored", Schema: envelope(sch{"type": "array", "items": integer(), "minItems": 1})}, 400: bad, 401: unauth, 413: tooBig}},
		{Method: "POST", Path: "/api/v1/pickups/add", OperationID: "pickupsAdd", Tag: "shipping", Auth: openapi.AuthRequired,
			Summary: "Order courier pickups at stored addresses", Description: "The list form {\"pickups\": [{date, time_range, address: {id}}]} as real clients send it (data: the ordered pickups, in the order given; all or none), or one pickup in an order service's form {pickup_date, from: {id}, carrier} (the window 08:00-16:00 and one parcel unless given; data: the pickup), or one pickup in our fields (data: the pickup). Working days only, from today to 30 days ahead, a window of at least 2 hours between 07:00 and 18:00. Not idempotent: each call orders a courier. A refused list form answers errors as an object that reads both as errors[0].message and as errors.<field>[0] (PickupsAddErrors); our fields and an unreadable body get the usual list.",
			RequestBody: sch{"oneOf": []any{ref("PickupsAddRequest"), ref("PickupFromRequest"), ref("PickupRequest")}},
			Responses: map[int]openapi.Response{200: {Description: "ordered", Schema: envelope(sch{"oneOf": []any{ref("Pickup"), arr(ref("Pickup"))}})},
				400: {Description: "invalid data", Schema: sch{"anyOf": []any{ref("Error"), ref("PickupsAddErrors")}}}, 401: unauth, 413: tooBig}},
		{Method: "GET", Path: "/api/v1/pickups/list", OperationID: "pickupsList", Tag: "shipping", Auth: openapi.AuthRequired,
			Summary: "The account's courier pickups", Description: "data is keyed by pickup id; the message says how many were found.",
			Parameters: dates,
			Responses:  map[int]openapi.Response{200: {Description: "pickups", Schema: envelope(mapOf(ref("Pickup")))}, 400: bad, 401: unauth}},
	}
}
