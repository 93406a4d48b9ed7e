package openapi

import (
	"sort"
	"strings"
)

// SandboxOnly is the OpenAPI extension that marks a property the real service
// is not known to answer: the sandbox sends it only in its documented shapes.
const SandboxOnly = "x-sandbox-only"

// MarkSandboxOnly returns s marked as a sandbox extra.
func MarkSandboxOnly(s Schema) Schema {
	out := Schema{SandboxOnly: true}
	for k, v := range s {
		out[k] = v
	}
	return out
}

// IsSandboxOnly reports whether a property schema carries the mark.
func IsSandboxOnly(s Schema) bool {
	b, _ := s[SandboxOnly].(bool)
	return b
}

// SandboxOnlyProperty is one marked property: the schema (a component name,
// or the path to an inline schema) and the property name.
type SandboxOnlyProperty struct {
	Schema   string
	Property string
}

// SandboxOnlyProperties lists every property marked x-sandbox-only in a built
// document (components and inline schemas of the paths), sorted.
func SandboxOnlyProperties(doc map[string]any) []SandboxOnlyProperty {
	var out []SandboxOnlyProperty
	if comps, ok := doc["components"].(map[string]any); ok {
		if schemas, ok := comps["schemas"].(map[string]any); ok {
			for name, s := range schemas {
				collectSandboxOnly(name, s, &out)
			}
		}
	}
	if paths, ok := doc["paths"].(map[string]any); ok {
		for p, item := range paths {
			collectSandboxOnly(p, item, &out)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Schema != out[j].Schema {
			return out[i].Schema < out[j].Schema
		}
		return out[i].Property < out[j].Property
	})
	return out
}

// SandboxOnlyFields is the set of property names marked x-sandbox-only anywhere
// in a built document, sorted. A name can also belong to a property of another
// schema that is not sandbox-only (type: a pickup type on requests, an offer's
// type only in the sandbox); SandboxOnlyProperties tells which schema.
func SandboxOnlyFields(doc map[string]any) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range SandboxOnlyProperties(doc) {
		if !seen[p.Property] {
			seen[p.Property] = true
			out = append(out, p.Property)
		}
	}
	sort.Strings(out)
	return out
}

// collectSandboxOnly walks any schema-shaped value for marked properties.
func collectSandboxOnly(where string, x any, out *[]SandboxOnlyProperty) {
	switch v := x.(type) {
	case map[string]any:
		if props, ok := v["properties"].(map[string]any); ok {
			for name, ps := range props {
				if s, ok := ps.(map[string]any); ok && IsSandboxOnly(s) {
					*out = append(*out, SandboxOnlyProperty{Schema: where, Property: name})
				}
			}
		}
		for k, sub := range v {
			if props, ok := sub.(map[string]any); ok && k == "properties" {
				for name, ps := range props {
					collectSandboxOnly(where+"."+name, ps, out)
				}
				continue
			}
			collectSandboxOnly(joinPath(where, k), sub, out)
		}
	case []any:
		for _, sub := range v {
			collectSandboxOnly(where, sub, out)
		}
	}
}

// joinPath keeps paths readable: schema keywords are left out.
func joinPath(where, key string) string {
	switch key {
	case "items", "allOf", "oneOf", "anyOf", "additionalProperties", "schema", "content", "responses", "requestBody":
		return where
	}
	if strings.Contains(key, "/") {
		return where
	}
	return where + "." + key
}
