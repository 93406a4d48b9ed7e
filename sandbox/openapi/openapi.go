// Package openapi builds the sandbox's OpenAPI 3.1 document from operations that
// each interface registers next to its handlers, and validates JSON values against
// the document's schemas so contract tests can prove the document tells the truth.
package openapi

import (
	"fmt"
	"sort"
	"strings"
)

// Schema is a JSON Schema (2020-12, the subset OpenAPI 3.1 uses) as plain data.
type Schema = map[string]any

// Ref points at a schema under components.schemas.
func Ref(name string) Schema { return Schema{"$ref": "#/components/schemas/" + name} }

// Parameter is a query or path parameter.
type Parameter struct {
	Name        string
	In          string // "query" or "path"
	Required    bool
	Description string
	Schema      Schema
}

// Response is one documented answer.
type Response struct {
	Description string
	ContentType string // default application/json
	Schema      Schema
}

// Auth says how an operation treats the x-apikey header.
type Auth string

const (
	AuthNone     Auth = "none"     // sandbox controls
	AuthOptional Auth = "optional" // invalid or missing key: processed as unauthenticated
	AuthRequired Auth = "required" // invalid or missing key: 401
)

// Operation is one documented method and path.
type Operation struct {
	Method      string // GET, POST
	Path        string // full path from the sandbox base, e.g. /api/v1/rates/get
	OperationID string
	Tag         string // "shipping", "cart", "returns", "sandbox"
	Summary     string
	Description string
	Auth        Auth
	Parameters  []Parameter
	RequestType string // default application/json when RequestBody is set
	RequestBody Schema
	Responses   map[int]Response
}

// Document assembles an OpenAPI 3.1 document.
func Document(title, version, description string, ops []Operation, components map[string]Schema) map[string]any {
	paths := map[string]any{}
	for _, op := range ops {
		item, _ := paths[op.Path].(map[string]any)
		if item == nil {
			item = map[string]any{}
			paths[op.Path] = item
		}
		item[strings.ToLower(op.Method)] = op.document()
	}
	comps := map[string]any{}
	for k, v := range components {
		comps[k] = v
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": title, "version": version, "description": description},
		"paths":   paths,
		"components": map[string]any{
			"schemas": comps,
			"securitySchemes": map[string]any{
				"apikey": map[string]any{"type": "apiKey", "in": "header", "name": "x-apikey"},
			},
		},
	}
}

func (op Operation) document() map[string]any {
	d := map[string]any{
		"operationId": op.OperationID,
		"summary":     op.Summary,
		"tags":        []string{op.Tag},
	}
	if op.Description != "" {
		d["description"] = op.Description
	}
	switch op.Auth {
	case AuthRequired:
		d["security"] = []any{map[string]any{"apikey": []string{}}}
	case AuthOptional:
		// An empty requirement object makes the key optional.
		d["security"] = []any{map[string]any{"apikey": []string{}}, map[string]any{}}
	default:
		d["security"] = []any{}
	}
	if len(op.Parameters) > 0 {
		var ps []any
		for _, p := range op.Parameters {
			ps = append(ps, map[string]any{"name": p.Name, "in": p.In, "required": p.Required || p.In == "path", "description": p.Description, "schema": p.Schema})
		}
		d["parameters"] = ps
	}
	if op.RequestBody != nil {
		ct := op.RequestType
		if ct == "" {
			ct = "application/json"
		}
		d["requestBody"] = map[string]any{"required": true, "content": map[string]any{ct: map[string]any{"schema": op.RequestBody}}}
	}
	resps := map[string]any{}
	codes := make([]int, 0, len(op.Responses))
	for c := range op.Responses {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	for _, c := range codes {
		r := op.Responses[c]
		entry := map[string]any{"description": r.Description}
		if r.Schema != nil {
			ct := r.ContentType
			if ct == "" {
				ct = "application/json"
			}
			entry["content"] = map[string]any{ct: map[string]any{"schema": r.Schema}}
		}
		resps[fmt.Sprint(c)] = entry
	}
	d["responses"] = resps
	return d
}
