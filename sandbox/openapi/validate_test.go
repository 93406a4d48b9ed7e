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
