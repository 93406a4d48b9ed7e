// Package architecture holds the tests of the import rules that keep the
// layers of ARCHITECTURE.md apart.
package architecture

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "shipdesk/"

// imports lists the packages a package's own (non-test) files import directly.
func imports(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("package %s: no Go files (%v)", dir, err)
	}
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, module) && !slices.Contains(out, path) {
				out = append(out, strings.TrimPrefix(path, module))
			}
		}
	}
	return out
}

// packages lists every package directory of the module.
func packages(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && path != ".." && (strings.HasPrefix(name, ".") || name == "var" || name == "bin" || name == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			dir, _ := filepath.Rel("..", filepath.Dir(path))
			if !slices.Contains(out, dir) {
				out = append(out, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func under(pkg string, prefixes ...string) bool {
	for _, p := range prefixes {
		if pkg == p || strings.HasPrefix(pkg, p+"/") {
			return true
		}
	}
	return false
}

// The layers of ARCHITECTURE.md, as import rules.
func TestImportRules(t *testing.T) {
	rules := []struct {
		name      string
		pkg       string
		forbidden []string
	}{
		{"the route table knows no domain package", "web", []string{"desk", "workbench", "staff", "storage", "jobs", "client", "cod"}},
		{"handlers never see the upstream clients", "handlers", []string{"client", "jobs", "sandbox"}},
		{"the returns desk stands beside the shipping desk", "workbench", []string{"desk", "handlers", "views", "web", "jobs"}},
		{"the shipping desk knows no HTTP of ours", "desk", []string{"handlers", "views", "web", "jobs", "workbench"}},
		{"storage knows only the database", "storage", []string{"client", "desk", "workbench", "handlers", "views", "web", "jobs", "sandbox"}},
		{"the claim page works through the desks, never the service's wire", "claims", []string{"client", "handlers", "views", "web", "jobs", "sandbox"}},
		{"nothing but the wiring and the route handlers knows the claim page", "desk", []string{"claims"}},
		{"the shipping desk knows no shop: the shop's writes are recorded in storage", "desk", []string{"shop"}},
		{"the shop's domain knows no wire of its platforms", "shop", []string{"client", "handlers", "views", "web", "jobs", "sandbox", "shop/shoptet"}},
		{"views only render", "views", []string{"client", "desk", "workbench", "storage", "handlers", "web", "jobs", "sandbox", "claims"}},
		{"the throttle's rules are arithmetic: where counts live is the caller's", "throttle", []string{"app", "client", "desk", "workbench", "storage", "handlers", "views", "web", "jobs", "sandbox", "staff", "claims", "i18n", "apperr"}},
		{"the shipping rules are pure logic the desk may use", "shiprules", []string{"app", "client", "desk", "workbench", "storage", "handlers", "views", "web", "jobs", "sandbox", "staff", "i18n"}},
	}
	for _, r := range rules {
		t.Run(r.name, func(t *testing.T) {
			for _, imp := range imports(t, r.pkg) {
				if under(imp, r.forbidden...) {
					t.Errorf("%s imports %s", r.pkg, imp)
				}
			}
		})
	}
	t.Run("nothing imports jobs but app and cmd", func(t *testing.T) {
		for _, pkg := range packages(t) {
			if under(pkg, "app", "cmd", "jobs") {
				continue
			}
			if slices.Contains(imports(t, pkg), "jobs") {
				t.Errorf("%s imports jobs", pkg)
			}
		}
	})
	t.Run("only the sandbox's own packages, the wiring and tests import the sandbox", func(t *testing.T) {
		for _, pkg := range packages(t) {
			if under(pkg, "sandbox", "app", "cmd") || strings.HasSuffix(pkg, "test") { // test helpers: desktest, pgtest
				continue
			}
			for _, imp := range imports(t, pkg) {
				if under(imp, "sandbox") {
					t.Errorf("%s imports %s", pkg, imp)
				}
			}
		}
	})
}
