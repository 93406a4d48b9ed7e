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
)

// wallClock are the functions of package time that read the machine's clock.
var wallClock = map[string]bool{"Now": true, "Since": true, "Until": true}

// TestOnlyTheClockReadsTheWallClock: every time shipdesk records or shows is
// read from the one clock (package clock), handed down from app; our own
// work is timed with clock.Start, I/O deadlines come from clock.Deadline.
// Tests may read the wall clock; nothing else may.
func TestOnlyTheClockReadsTheWallClock(t *testing.T) {
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != ".." && (strings.HasPrefix(name, ".") || name == "var" || name == "bin" || name == "node_modules" || path == filepath.Join("..", "clock")) {
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
			return nil
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
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d files checked: is the walk rooted at the module?", checked)
	}
}
