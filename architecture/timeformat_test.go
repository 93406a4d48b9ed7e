package architecture

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// shown are the packages whose code writes what a person reads: pages and
// their fragments (the templates' Go, _templ.go, included), messages,
// exports and PDFs.
var shown = []string{"views", "handlers", "workbench", "desk", "printout", "storage", "apperr", "serviceerr"}

// clockConsts are the time package's layouts that write a time of day.
var clockConsts = map[string]bool{"ANSIC": true, "UnixDate": true, "RubyDate": true, "RFC822": true, "RFC822Z": true,
	"RFC850": true, "RFC1123": true, "RFC1123Z": true, "RFC3339": true, "RFC3339Nano": true, "Kitchen": true,
	"Stamp": true, "StampMilli": true, "StampMicro": true, "StampNano": true, "DateTime": true, "TimeOnly": true}

// machineConsts are layouts for machines (a <time datetime> attribute), which
// may be written in UTC.
var machineConsts = map[string]bool{"RFC3339": true, "RFC3339Nano": true}

// A time of day a person reads is the shop's, in the reader's language:
// i18n writes it (DateTime, Clock, Deadline, AppendDateTime). Outside i18n a
// layout with a time of day ("15:04", "1504", time.RFC3339, …) is used only
// on a moment put into a zone right there: t.In(zone) (directly, or a
// variable of the same function assigned from an In call), or t.UTC() for a
// machine's layout. A bare t.Format("15:04:05") writes whatever zone t came
// in (the database's, the machine's: UTC) and is refused here.
func TestTimesOfDayAreWrittenInAZone(t *testing.T) {
	for _, dir := range shown {
		files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("package %s: no Go files (%v)", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			fset := token.NewFileSet()
			parsed, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range unzonedClocks(parsed) {
				t.Errorf("%s: a time of day formatted without a zone (use i18n.DateTime, i18n.Clock or i18n.Deadline)", fset.Position(bad))
			}
		}
	}
}

// unzonedClocks are the Format and AppendFormat calls of a file that write a
// time of day on a moment not put into a zone.
func unzonedClocks(f *ast.File) []token.Pos {
	consts := map[string]string{} // the file's string constants, for layouts named by one
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok {
			for i, name := range vs.Names {
				if i < len(vs.Values) {
					if s, ok := stringLit(vs.Values[i]); ok {
						consts[name.Name] = s
					}
				}
			}
		}
		return true
	})
	var bad []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		fn, ok := n.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			return true
		}
		zoned := zonedVars(fn.Body)
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "Format" && sel.Sel.Name != "AppendFormat") {
				return true
			}
			clock, machine := layoutKind(call.Args[len(call.Args)-1], consts)
			if !clock {
				return true
			}
			switch recv := sel.X.(type) {
			case *ast.CallExpr:
				if m, ok := recv.Fun.(*ast.SelectorExpr); ok && (m.Sel.Name == "In" || (m.Sel.Name == "UTC" && machine)) {
					return true
				}
			case *ast.Ident:
				if zoned[recv.Name] {
					return true
				}
			}
			bad = append(bad, call.Pos())
			return true
		})
		return false
	})
	return bad
}

// zonedVars are the variables of a function assigned from an In call.
func zonedVars(body *ast.BlockStmt) map[string]bool {
	out := map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, rhs := range as.Rhs {
			call, ok := rhs.(*ast.CallExpr)
			if !ok {
				continue
			}
			if m, ok := call.Fun.(*ast.SelectorExpr); ok && m.Sel.Name == "In" {
				if id, ok := as.Lhs[i].(*ast.Ident); ok {
					out[id.Name] = true
				}
			}
		}
		return true
	})
	return out
}

// layoutKind says whether a layout writes a time of day, and whether it is a
// machine's layout (RFC 3339, which may be written in UTC).
func layoutKind(e ast.Expr, consts map[string]string) (clock, machine bool) {
	switch x := e.(type) {
	case *ast.SelectorExpr:
		if pkg, ok := x.X.(*ast.Ident); ok && pkg.Name == "time" {
			return clockConsts[x.Sel.Name], machineConsts[x.Sel.Name]
		}
	case *ast.Ident:
		if s, ok := consts[x.Name]; ok {
			return clockLayout(s), false
		}
	default:
		if s, ok := stringLit(e); ok {
			return clockLayout(s), strings.HasPrefix(s, "2006-01-02T15:04:05") && strings.HasSuffix(s, "Z")
		}
	}
	return false, false
}

// clockLayout: the layout has an hour (15, 03 or 3 before :04) in it.
func clockLayout(s string) bool {
	return strings.Contains(s, "15") || strings.Contains(s, "3:04") || strings.Contains(s, "PM") || strings.Contains(s, "pm")
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// The check itself finds what it is there to find.
func TestUnzonedClocksAreFound(t *testing.T) {
	src := `package p
const layout = "15:04:05"
func a(t, u time.Time, zone *time.Location) {
	_ = t.Format("15:04:05")                      // bad
	_ = t.Format(layout)                          // bad
	_ = t.Format(time.RFC3339)                    // bad
	_ = t.UTC().Format("2. 1. 2006 15:04")         // bad: UTC for a person
	_ = t.In(zone).Format("15:04:05")
	_ = t.UTC().Format(time.RFC3339)
	_ = t.UTC().Format("2006-01-02T15:04:05Z")
	_ = t.Format("2006-01-02")
	local := u.In(zone)
	_ = local.Format("20060102-1504")
	_ = u.AppendFormat(nil, "1504")               // bad
}`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(unzonedClocks(f)); got != 5 {
		t.Errorf("found %d unzoned clocks, want 5", got)
	}
}
