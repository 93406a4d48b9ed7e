package sandboxtest

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// code is how the service writes a code of an enumeration: capitals and
// underscores, four or more (PRINT, ONPICKUP, NOT_APPLICABLE); country and
// currency codes are not such codes.
var code = regexp.MustCompile(`^[A-Z][A-Z_]{3,}$`)

// Codes are the codes of the service's enumerations as the sandbox's OpenAPI
// document lists them (every "enum" of it), for tests that no page or
// export a person reads shows one.
func (e *Env) Codes() map[string]bool {
	e.T.Helper()
	resp, err := http.Get(e.URL + "/sandbox/openapi.json")
	if err != nil {
		e.T.Fatal(err)
	}
	defer resp.Body.Close()
	var doc any
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		e.T.Fatal(err)
	}
	codes := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if enum, ok := x["enum"].([]any); ok {
				for _, v := range enum {
					if s, ok := v.(string); ok && code.MatchString(s) {
						codes[s] = true
					}
				}
			}
			for _, c := range x {
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(doc)
	for _, must := range []string{"NOT_APPLICABLE", "ONPICKUP", "EXPORTED", "PRINT", "READY", "CARRIER"} {
		if !codes[must] {
			e.T.Fatalf("the document's enumerations lack %s: %v", must, codes)
		}
	}
	return codes
}

// CodesIn are the codes that stand as words in text.
func CodesIn(text string, codes map[string]bool) []string {
	var found []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' }) {
		if codes[w] && !slices.Contains(found, w) {
			found = append(found, w)
		}
	}
	return found
}
