package apperr_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"shipdesk/i18n"
)

// keyArgs are the calls whose argument at the index is a key of the message
// catalog: apperr's constructors, the problems of a form, the service's
// failures (serviceerr's "doing" phrase) and storage's not-found and conflict
// helpers. A method (".Add") counts only on a plain variable (p.Add), not on
// a call's result (w.Header().Add).
var keyArgs = map[string][]int{
	"apperr.New": {1}, "apperr.Fields": {0}, "apperr.Msg": {0}, "apperr.Count": {0},
	".Add": {1}, ".Err": {0}, ".Map": {0},
	"UpstreamError": {0}, "mapError": {0},
	"notFound": {1}, "conflict": {1}, "affectedOne": {2},
}

// keyFields are the fields of composite literals that hold keys.
var keyFields = map[string][]string{
	"Mapper":     {"NoAnswer", "Lost", "Failed", "NotFound", "Refused"},
	"notMissing": {"exists", "waiting", "unsettled"},
	"Text":       {"Key"},
}

// A key domain code passes where the catalog is read (apperr.New,
// Problems.Add, apperr.Fields, Problems.Err, serviceerr's Mapper and its
// "doing" phrase, …) must be in the catalog: a missing one would show as
// "[key]", an English sentence would show in English to a Czech clerk.
func TestDomainCodeUsesCatalogKeys(t *testing.T) {
	found, err := scanModule("..")
	if err != nil {
		t.Fatal(err)
	}
	if len(found) < 100 {
		t.Fatalf("found only %d keys: the scan does not see the code", len(found))
	}
	for _, f := range found {
		if !i18n.Has(f.key) {
			t.Errorf("%s: %q is not in the message catalog", f.at, f.key)
		}
	}
}

// The scan itself: it finds what it should and passes what it should.
func TestScanFindsKeys(t *testing.T) {
	src := `package desk

const fixFields = "ship.err.fix_fields"

var upstream = serviceerr.Mapper{Field: FormField, NoAnswer: NoAnswer, NotFound: "ship.err.gone", Refused: "Refused our key."}

func f(p apperr.Problems, w http.ResponseWriter, key string) error {
	p.Add("to_surname", "ship.err.recipient_name")
	p.Add("packages", "At most %d packages.", 20)
	p.Add("cod", "text.sentence", apperr.Msg("cod.minimum", 30, "CZK"))
	w.Header().Add("Vary", "HX-Request")
	_ = apperr.New(apperr.Conflict, "Shipment %d is cancelled.", 5)
	_ = apperr.Fields(fixFields, p)
	_ = apperr.New(apperr.Conflict, key)
	return UpstreamError("ship.doing.order", nil)
}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "sample.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, f := range scanFile(fset, file, constsOf([]*ast.File{file})) {
		keys = append(keys, f.key)
	}
	want := []string{"ship.err.gone", "Refused our key.", "ship.err.recipient_name", "At most %d packages.", "text.sentence",
		"cod.minimum", "Shipment %d is cancelled.", "ship.err.fix_fields", "ship.doing.order"}
	if !slices.Equal(keys, want) {
		t.Errorf("found\n%q\nwant\n%q", keys, want)
	}
}

type use struct {
	at  string // file:line
	key string
}

// scanModule reads every non-test Go file of the module except the
// sandbox's (which speaks as the service does, in English) and lists the
// keys passed where the catalog is read.
func scanModule(root string) ([]use, error) {
	pkgs := map[string][]*ast.File{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "var" || name == "sandbox" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || strings.HasSuffix(name, "_templ.go") {
			return nil
		}
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		pkgs[filepath.Dir(path)] = append(pkgs[filepath.Dir(path)], file)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []use
	for _, files := range pkgs {
		consts := constsOf(files)
		for _, file := range files {
			out = append(out, scanFile(fset, file, consts)...)
		}
	}
	return out, nil
}

// constsOf maps a package's string constants to their values, so that a key
// passed by its constant (desk.NoAnswer) is checked too.
func constsOf(files []*ast.File) map[string]string {
	out := map[string]string{}
	for _, file := range files {
		for _, decl := range file.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i < len(vs.Values) {
						if s, ok := literal(vs.Values[i], nil); ok {
							out[name.Name] = s
						}
					}
				}
			}
		}
	}
	return out
}

// literal is the string an expression is written as: a literal or a constant
// of the package.
func literal(e ast.Expr, consts map[string]string) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			s, err := strconv.Unquote(e.Value)
			return s, err == nil
		}
	case *ast.Ident:
		s, ok := consts[e.Name]
		return s, ok
	}
	return "", false
}

func scanFile(fset *token.FileSet, file *ast.File, consts map[string]string) []use {
	var out []use
	note := func(e ast.Expr) {
		if s, ok := literal(e, consts); ok {
			out = append(out, use{at: fmt.Sprint(fset.Position(e.Pos())), key: s})
		}
	}
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			for _, i := range keyArgs[callee(n.Fun)] {
				if i < len(n.Args) {
					note(n.Args[i])
				}
			}
		case *ast.CompositeLit:
			name := ""
			switch typ := n.Type.(type) {
			case *ast.Ident:
				name = typ.Name
			case *ast.SelectorExpr:
				name = typ.Sel.Name
			}
			for _, elt := range n.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					if field, ok := kv.Key.(*ast.Ident); ok && slices.Contains(keyFields[name], field.Name) {
						note(kv.Value)
					}
				}
			}
		}
		return true
	})
	return out
}

// callee names a call as keyArgs does: "apperr.New", ".Add" (a method on a
// variable), "notFound" (a function of the package).
func callee(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok && x.Name == "apperr" {
			return "apperr." + f.Sel.Name
		}
		if _, ok := f.X.(*ast.Ident); ok {
			return "." + f.Sel.Name
		}
		if _, ok := f.X.(*ast.CallExpr); ok && f.Sel.Name == "Map" { // upstream.WithField(…).Map("…", err)
			return ".Map"
		}
	}
	return ""
}
