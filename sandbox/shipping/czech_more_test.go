package shipping

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The refusals are English by default, as the provider documents its
// messages, and Czech when asked: customs data, postal codes of the served
// countries, the list's offset, and the list forms of pickups/add and
// contacts/add.
func TestRefusalsAreEnglishUnlessCzechIsAskedFor(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		toCountry := func(country, zip string) map[string]any {
			sh := shipmentTo("ups", "ONDEMAND")
			sh["to"] = addressIn(country, zip)
			return orderBody("CREDIT", sh)
		}
		cases := []struct {
			method, path string
			body         any
			read         func(answer) string
			cs, en       string
		}{
			{"POST", "/api/v1/shipments/validate", toCountry("CH", "8001"),
				func(a answer) string { return a.FieldError("shipments[0].customs") },
				msgCustomsRequired.CS, msgCustomsRequired.EN},
			{"POST", "/api/v1/shipments/validate", toCountry("GB", "12345"),
				func(a answer) string { return a.FieldError("shipments[0].to.zip") },
				"PSČ musí mít podobu britského PSČ, např. SW1A 1AA", "The postal code must have the form of a UK postcode, e.g. SW1A 1AA"},
			{"GET", "/api/v1/shipments/list?offset=-1", nil,
				func(a answer) string { return a.FieldError("offset") },
				msgWholeNumber.CS, msgWholeNumber.EN},
			{"POST", "/api/v1/pickups/add", listedPickup(1, nextWorkday, "noon"),
				func(a answer) string { return keyedError(a, "time_range") },
				msgTimeRangeShape.CS, msgTimeRangeShape.EN},
			{"POST", "/api/v1/pickups/add", map[string]any{"pickups": []any{}},
				firstErrorMessage, msgPickupsRequired.CS, msgPickupsRequired.EN},
			{"POST", "/api/v1/contacts/add", map[string]any{"contacts": []any{}},
				func(a answer) string { return a.FieldError("contacts") },
				msgContactsRequired.CS, msgContactsRequired.EN},
		}
		for _, c := range cases {
			for lang, want := range map[string]string{"cs": c.cs, "": c.en, "fr": c.en, "en": c.en} {
				e.api.Lang = lang
				a := e.call(c.method, c.path, key1, c.body)
				e.api.Lang = "en"
				got := c.read(a)
				if a.Status != 400 || !strings.HasPrefix(got, strings.SplitN(want, "%", 2)[0]) {
					t.Errorf("%s %s, Accept-Language %q: %q, want %q: %.300s", c.method, c.path, lang, got, want, a.Raw)
				}
			}
		}
	})
}

// Every phrase written in the package's sources (the message tables and the
// country table) has both languages with the same verbs in the same order.
func TestEveryPhraseHasBothLanguages(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(node ast.Node) bool {
			lit, ok := node.(*ast.CompositeLit)
			if !ok || len(lit.Elts) == 0 {
				return true
			}
			if sel, ok := lit.Type.(*ast.SelectorExpr); !ok || sel.Sel.Name != "Phrase" {
				return true
			}
			said := map[string]string{}
			for _, el := range lit.Elts {
				kv, _ := el.(*ast.KeyValueExpr)
				if kv == nil {
					return true
				}
				k, _ := kv.Key.(*ast.Ident)
				v, _ := kv.Value.(*ast.BasicLit)
				if k == nil || v == nil {
					return true // said by code (codPhrase), not written here
				}
				said[k.Name], _ = strconv.Unquote(v.Value)
			}
			n++
			if said["CS"] == "" || said["EN"] == "" || said["CS"] == said["EN"] || verbs(said["CS"]) != verbs(said["EN"]) {
				t.Errorf("%s: %q and %q", fset.Position(lit.Pos()), said["CS"], said["EN"])
			}
			return true
		})
	}
	if n < 100 {
		t.Errorf("only %d phrases found", n)
	}
}
