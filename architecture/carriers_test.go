package architecture

import (
	"go/ast"
	"go/token"
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
	eachGoFile(t, []string{"sandbox"}, func(fset *token.FileSet, f *ast.File) {
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
	})
}
