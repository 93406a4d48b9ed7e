package shipping_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"shipdesk/client/shipping"
	"shipdesk/sandbox/openapi"
	"shipdesk/sandbox/sandboxtest"
)

// sandboxOnly reads the sandbox's OpenAPI document and returns its properties
// marked x-sandbox-only by schema, and every property name the document uses
// elsewhere without the mark.
func sandboxOnly(t *testing.T) (bySchema map[string]map[string]bool, names map[string]bool, plain map[string]bool) {
	t.Helper()
	env := sandboxtest.Start(t)
	resp, err := http.Get(env.URL + "/sandbox/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	bySchema, names = map[string]map[string]bool{}, map[string]bool{}
	for _, p := range openapi.SandboxOnlyProperties(doc) {
		if bySchema[p.Schema] == nil {
			bySchema[p.Schema] = map[string]bool{}
		}
		bySchema[p.Schema][p.Property] = true
		names[p.Property] = true
	}
	if len(names) == 0 {
		t.Fatal("the document marks no sandbox-only property: the check below would prove nothing")
	}
	plain = map[string]bool{}
	var walk func(x any)
	walk = func(x any) {
		switch v := x.(type) {
		case map[string]any:
			if props, ok := v["properties"].(map[string]any); ok {
				for name, s := range props {
					if m, ok := s.(map[string]any); !ok || !openapi.IsSandboxOnly(m) {
						plain[name] = true
					}
				}
			}
			for _, sub := range v {
				walk(sub)
			}
		case []any:
			for _, sub := range v {
				walk(sub)
			}
		}
	}
	walk(doc)
	return bySchema, names, plain
}

// The client's answer types, by the schema of the document they decode.
var answerTypes = map[string][]any{
	"Rate":        {shipping.Rate{}},
	"Shipment":    {shipping.ShipmentInfo{}},
	"Package":     {shipping.Package{}},
	"ParcelPoint": {shipping.ParcelPoint{}},
}

// jsonNames are the names encoding/json reads into a struct type, embedded
// structs included.
func jsonNames(t reflect.Type) []string {
	var out []string
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "":
			out = append(out, jsonNames(f.Type)...)
		case name != "":
			out = append(out, name)
		case f.IsExported():
			out = append(out, f.Name)
		}
	}
	return out
}

// Nothing the real service does not send may be read by the dashboard: no
// client answer type decodes a sandbox-only property of its schema, no Go code
// outside sandbox/ decodes one by a JSON tag, and the client does not look one
// up by name (where the name is not also an ordinary property).
func TestNothingOutsideTheSandboxReadsSandboxOnlyFields(t *testing.T) {
	bySchema, names, plain := sandboxOnly(t)
	for schema, types := range answerTypes {
		for _, v := range types {
			for _, name := range jsonNames(reflect.TypeOf(v)) {
				if bySchema[schema][name] {
					t.Errorf("%T reads %q, which the %s schema marks sandbox-only", v, name, schema)
				}
			}
		}
	}
	root := moduleRoot(t)
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "sandbox" || rel == "var" || rel == "bin" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		checked++
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for name := range names {
				if plain[name] {
					continue // also an ordinary property: the typed check above decides
				}
				tagged := strings.Contains(s, `json:"`+name+`"`) || strings.Contains(s, `json:"`+name+`,`)
				if tagged || s == name && strings.HasPrefix(rel, "client"+string(filepath.Separator)) {
					t.Errorf("%s names the sandbox-only field %q", rel, name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil || checked < 50 {
		t.Fatalf("walked %d Go files: %v", checked, err)
	}
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}
