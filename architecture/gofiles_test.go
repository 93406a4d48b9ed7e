package architecture

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eachGoFile parses every non-test Go file of the module outside the given
// top-level folders and hands it to fn; it fails when the walk found too few
// files to be rooted at the module.
func eachGoFile(t *testing.T, skip []string, fn func(fset *token.FileSet, f *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path == ".." {
				return nil
			}
			if strings.HasPrefix(name, ".") || name == "var" || name == "bin" || name == "node_modules" {
				return filepath.SkipDir
			}
			for _, s := range skip {
				if path == filepath.Join("..", s) {
					return filepath.SkipDir
				}
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
		fn(fset, f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d files checked: is the walk rooted at the module?", checked)
	}
}
