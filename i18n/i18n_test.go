package i18n_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"shipdesk/i18n"
	"shipdesk/identity"
)

// Every literal key used in templates and Go code must be in the catalog.
func TestEveryUsedKeyIsInTheCatalog(t *testing.T) {
	use := regexp.MustCompile(`\bT\(ctx, "([a-z0-9_.]+)"\s*[,)]`)
	root := ".."
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "var" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, ".templ") && !(strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_templ.go")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range use.FindAllStringSubmatch(string(b), -1) {
			if !i18n.Has(m[1]) {
				t.Errorf("%s uses %q, which the catalog lacks", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Keys built from names (navigation, roles, home tiles) exist for every value.
func TestComposedKeysExist(t *testing.T) {
	for _, a := range identity.Areas {
		for _, k := range []string{"nav." + string(a), "home." + string(a)} {
			if !i18n.Has(k) {
				t.Errorf("missing %s", k)
			}
		}
	}
	for _, r := range identity.Roles {
		if !i18n.Has("role." + string(r)) {
			t.Errorf("missing role.%s", r)
		}
	}
}

func TestMissingKeyIsVisible(t *testing.T) {
	if got := i18n.T(context.Background(), "no.such.key"); got != "[no.such.key]" {
		t.Fatalf("got %q", got)
	}
}

func TestNegotiate(t *testing.T) {
	if i18n.Negotiate("cs-CZ,cs;q=0.9,en;q=0.8") != i18n.English {
		t.Fatal("falls back to English while no Czech catalog exists")
	}
}
