package openapi

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	comps := map[string]Schema{
		"Money": {"type": "object", "required": []string{"value", "currency"}, "properties": map[string]any{
			"value": Schema{"type": "number"}, "currency": Schema{"type": "string", "minLength": 3, "maxLength": 3},
		}, "additionalProperties": false},
	}
	schema := Schema{"type": "object", "required": []string{"price"}, "properties": map[string]any{
		"price":  Ref("Money"),
		"status": Schema{"enum": []string{"READY", "PENDING"}},
		"tags":   Schema{"type": "array", "items": Schema{"type": "string"}},
		"note":   Schema{"type": []string{"string", "null"}},
	}}
	good := `{"price":{"value":12.5,"currency":"CZK"},"status":"READY","tags":["a"],"note":null}`
	if err := ValidateJSON(comps, schema, []byte(good)); err != nil {
		t.Fatalf("valid document refused: %v", err)
	}
	bad := map[string]string{
		"missing required": `{}`,
		"not in enum":      `{"price":{"value":1,"currency":"CZK"},"status":"LOST"}`,
		"want":             `{"price":{"value":"1","currency":"CZK"}}`,
		"undocumented":     `{"price":{"value":1,"currency":"CZK","extra":1}}`,
		"longer than":      `{"price":{"value":1,"currency":"CZKK"}}`,
		"is integer":       `{"price":{"value":1,"currency":"CZK"},"tags":[1]}`,
	}
	for want, doc := range bad {
		err := ValidateJSON(comps, schema, []byte(doc))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error containing %q", doc, err, want)
		}
	}
}

func TestDocumentListsOperations(t *testing.T) {
	doc := Document("t", "1", "d", []Operation{
		{Method: "POST", Path: "/api/v1/rates/get", OperationID: "ratesGet", Tag: "shipping", Auth: AuthOptional,
			RequestBody: Schema{"type": "object"}, Responses: map[int]Response{200: {Description: "ok", Schema: Schema{"type": "object"}}}},
	}, nil)
	paths := doc["paths"].(map[string]any)
	op := paths["/api/v1/rates/get"].(map[string]any)["post"].(map[string]any)
	if op["operationId"] != "ratesGet" {
		t.Fatalf("operation missing: %v", op)
	}
}

func TestSandboxOnlyMarks(t *testing.T) {
	comps := map[string]Schema{
		"Rate": {"type": "object", "required": []string{"carrier"}, "properties": map[string]any{
			"carrier": Schema{"type": "string"}, "carrier_group": MarkSandboxOnly(Schema{"type": "string"}),
		}},
	}
	doc := Document("t", "1", "d", []Operation{{Method: "GET", Path: "/x", Responses: map[int]Response{200: {Schema: Schema{
		"type": "object", "properties": map[string]any{"rates": Schema{"type": "array", "items": Ref("Rate")}, "reason": MarkSandboxOnly(Schema{"type": "string"})}}}}}}, comps)
	if got := SandboxOnlyFields(doc); strings.Join(got, ",") != "carrier_group,reason" {
		t.Errorf("SandboxOnlyFields: %v", got)
	}
	body := []byte(`{"rates":[{"carrier":"ZASILKOVNA","carrier_group":"G1"}]}`)
	schema := Schema{"type": "object", "properties": map[string]any{"rates": Schema{"type": "array", "items": Ref("Rate")}}}
	if err := ValidateJSON(comps, schema, body); err != nil {
		t.Errorf("documented shapes refused: %v", err)
	}
	if err := ValidateMinimalJSON(comps, schema, body); err == nil || !strings.Contains(err.Error(), "carrier_group") {
		t.Errorf("minimal shapes accepted a sandbox-only property: %v", err)
	}
}
