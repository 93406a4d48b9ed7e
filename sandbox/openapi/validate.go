package openapi

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
)

// Validate checks a decoded JSON value (as produced by encoding/json into any)
// against schema, resolving $ref in components. It supports the keywords the
// sandbox document uses: $ref, type (string or list, "null" included), properties,
// required, additionalProperties, items, enum, const, oneOf, anyOf, minimum, maximum,
// minLength, maxLength, pattern is ignored. It returns every mismatch, each with
// the JSON path where it occurs.
func Validate(components map[string]Schema, schema Schema, value any) error {
	v := validator{components: components}
	v.check("$", schema, value)
	if len(v.problems) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(v.problems, "; "))
}

// ValidateJSON is Validate for raw JSON bytes.
func ValidateJSON(components map[string]Schema, schema Schema, body []byte) error {
	var value any
	if err := json.Unmarshal(body, &value); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	return Validate(components, schema, value)
}

type validator struct {
	components map[string]Schema
	problems   []string
	depth      int
	minimal    bool // refuse properties marked x-sandbox-only
}

// ValidateMinimalJSON is ValidateJSON for an answer in the minimal shapes: a
// property marked x-sandbox-only is also a mismatch.
func ValidateMinimalJSON(components map[string]Schema, schema Schema, body []byte) error {
	var value any
	if err := json.Unmarshal(body, &value); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	v := validator{components: components, minimal: true}
	v.check("$", schema, value)
	if len(v.problems) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(v.problems, "; "))
}

func (v *validator) fail(path, format string, args ...any) {
	v.problems = append(v.problems, path+": "+fmt.Sprintf(format, args...))
}

func (v *validator) check(path string, s Schema, value any) {
	if s == nil {
		return
	}
	v.depth++
	defer func() { v.depth-- }()
	if v.depth > 64 {
		v.fail(path, "schema nesting too deep")
		return
	}
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		target, ok := v.components[name]
		if !ok {
			v.fail(path, "unknown $ref %s", ref)
			return
		}
		v.check(path, target, value)
		return
	}
	if alts, ok := s["oneOf"].([]any); ok {
		v.checkAlternatives(path, alts, value, true)
		return
	}
	if alts, ok := s["anyOf"].([]any); ok {
		v.checkAlternatives(path, alts, value, false)
		return
	}
	if t, ok := s["type"]; ok && !typeMatches(t, value) {
		v.fail(path, "is %s, want %v", jsonType(value), t)
		return
	}
	if enum, ok := s["enum"].([]any); ok && !inEnum(enum, value) {
		v.fail(path, "value %v not in enum %v", value, enum)
	}
	if enum, ok := s["enum"].([]string); ok && !inEnum(toAny(enum), value) {
		v.fail(path, "value %v not in enum %v", value, enum)
	}
	if pattern, ok := s["pattern"].(string); ok {
		if str, isText := value.(string); isText && !regexp.MustCompile(pattern).MatchString(str) {
			v.fail(path, "value %q does not match %s", str, pattern)
		}
	}
	if c, ok := s["const"]; ok && fmt.Sprint(c) != fmt.Sprint(value) {
		v.fail(path, "value %v, want %v", value, c)
	}
	switch val := value.(type) {
	case map[string]any:
		v.checkObject(path, s, val)
	case []any:
		if items, ok := s["items"].(Schema); ok {
			for i, item := range val {
				v.check(fmt.Sprintf("%s[%d]", path, i), items, item)
			}
		}
	case float64:
		if min, ok := number(s["minimum"]); ok && val < min {
			v.fail(path, "%v is below minimum %v", val, min)
		}
		if max, ok := number(s["maximum"]); ok && val > max {
			v.fail(path, "%v is above maximum %v", val, max)
		}
	case string:
		if n, ok := number(s["maxLength"]); ok && float64(len([]rune(val))) > n {
			v.fail(path, "longer than %v", n)
		}
		if n, ok := number(s["minLength"]); ok && float64(len([]rune(val))) < n {
			v.fail(path, "shorter than %v", n)
		}
	}
}

func (v *validator) checkObject(path string, s Schema, obj map[string]any) {
	props, _ := s["properties"].(map[string]any)
	for _, name := range requiredList(s["required"]) {
		if _, ok := obj[name]; !ok {
			v.fail(path, "missing required property %q", name)
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if ps, ok := props[k]; ok {
			if v.minimal && IsSandboxOnly(asSchema(ps)) {
				v.fail(path, "sandbox-only property %q in the minimal shapes", k)
			}
			v.check(path+"."+k, asSchema(ps), obj[k])
			continue
		}
		switch ap := s["additionalProperties"].(type) {
		case bool:
			if !ap {
				v.fail(path, "undocumented property %q", k)
			}
		case map[string]any:
			v.check(path+"."+k, ap, obj[k])
		}
	}
}

func (v *validator) checkAlternatives(path string, alts []any, value any, exactlyOne bool) {
	matched := 0
	var firstErrs []string
	for _, a := range alts {
		sub := validator{components: v.components, depth: v.depth, minimal: v.minimal}
		sub.check(path, asSchema(a), value)
		if len(sub.problems) == 0 {
			matched++
		} else if firstErrs == nil {
			firstErrs = sub.problems
		}
	}
	switch {
	case matched == 0:
		v.fail(path, "matches none of the alternatives (%s)", strings.Join(firstErrs, "; "))
	case exactlyOne && matched > 1:
		v.fail(path, "matches %d alternatives of oneOf, want exactly one", matched)
	}
}

func asSchema(x any) Schema {
	if s, ok := x.(map[string]any); ok {
		return s
	}
	return nil
}

func requiredList(x any) []string {
	switch r := x.(type) {
	case []string:
		return r
	case []any:
		out := make([]string, 0, len(r))
		for _, s := range r {
			out = append(out, fmt.Sprint(s))
		}
		return out
	}
	return nil
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func number(x any) (float64, bool) {
	switch n := x.(type) {
	case int:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

func inEnum(enum []any, value any) bool {
	for _, e := range enum {
		if fmt.Sprint(e) == fmt.Sprint(value) {
			return true
		}
	}
	return false
}

func jsonType(value any) string {
	switch v := value.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if v == math.Trunc(v) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", value)
}

func typeMatches(t any, value any) bool {
	var types []string
	switch tt := t.(type) {
	case string:
		types = []string{tt}
	case []string:
		types = tt
	case []any:
		for _, x := range tt {
			types = append(types, fmt.Sprint(x))
		}
	}
	actual := jsonType(value)
	for _, want := range types {
		if want == actual || (want == "number" && actual == "integer") {
			return true
		}
	}
	return false
}
