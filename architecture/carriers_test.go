package architecture

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"shipdesk/sandbox/shipping"
)

// TestNoCarrierCodeInCode: the dashboard knows no carrier by name. Carriers
// come from the service (its offers, points and shipments) and from the
// carrier table the managers edit; a carrier code written into the code
// (PPL, ZASILKOVNA, … or the sandbox's former neutral G1, G3A, …) is a rule
// the real service would not follow. Only the sandbox, which plays the
// carriers, and tests may name them.
func TestNoCarrierCodeInCode(t *testing.T) {
	codes := map[string]bool{}
	for _, c := range shipping.CarrierCodes() {
		codes[strings.ToUpper(c)] = true
	}
	if !codes["PPL"] || !codes["G3A"] {
		t.Fatalf("the sandbox's carrier codes: %v", shipping.CarrierCodes())
	}
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != ".." && (strings.HasPrefix(name, ".") || name == "var" || name == "bin" || name == "node_modules" || path == filepath.Join("..", "sandbox")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && codes[strings.ToUpper(strings.TrimSpace(s))] {
				t.Errorf("%s: %s names a carrier: take carriers from the service's answers and the carrier table",
					fset.Position(lit.Pos()), lit.Value)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d files checked: is the walk rooted at the module?", checked)
	}
}
