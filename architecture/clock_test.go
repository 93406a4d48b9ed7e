package architecture

import (
	"go/ast"
	"go/token"
	"strconv"
	"testing"
)

// wallClock are the functions of package time that read the machine's clock.
var wallClock = map[string]bool{"Now": true, "Since": true, "Until": true}

// TestOnlyTheClockReadsTheWallClock: every time shipdesk records or shows is
// read from the one clock (package clock), handed down from app; our own
// work is timed with clock.Start, I/O deadlines come from clock.Deadline.
// Tests may read the wall clock; nothing else may.
func TestOnlyTheClockReadsTheWallClock(t *testing.T) {
	eachGoFile(t, []string{"clock"}, func(fset *token.FileSet, f *ast.File) {
		timePkg := ""
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "time" {
				timePkg = "time"
				if imp.Name != nil {
					timePkg = imp.Name.Name
				}
			}
		}
		if timePkg == "" {
			return
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == timePkg && wallClock[sel.Sel.Name] {
				t.Errorf("%s: time.%s reads the wall clock: take the dashboard's clock (clock.Clock), or clock.Start to time our own work",
					fset.Position(sel.Pos()), sel.Sel.Name)
			}
			return true
		})
	})
}
