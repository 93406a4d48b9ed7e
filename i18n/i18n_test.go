package i18n_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"shipdesk/i18n"
	"shipdesk/identity"
)

func in(l i18n.Lang) context.Context { return i18n.WithLang(context.Background(), l) }

func TestCatalogsAreComplete(t *testing.T) {
	if err := i18n.Check(); err != nil {
		t.Fatal(err)
	}
}

// Every literal key used in templates and Go code must be in the catalog.
func TestEveryUsedKeyIsInTheCatalog(t *testing.T) {
	use := regexp.MustCompile(`\b(?:T|N)\(ctx, "([a-z0-9_.]+)"\s*[,)]`)
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

func TestCzechPluralsByCLDR(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{1, "1 štítek k tisku"}, {2, "2 štítky k tisku"}, {4, "4 štítky k tisku"}, {5, "5 štítků k tisku"}, {21, "21 štítků k tisku"}, {0, "0 štítků k tisku"}} {
		if got := i18n.N(in(i18n.Czech), "home.attention.to_print", c.n); got != c.want {
			t.Errorf("cs %d: %q, want %q", c.n, got, c.want)
		}
	}
	if got := i18n.N(in(i18n.English), "home.attention.to_print", 1); got != "1 label ready to print" {
		t.Errorf("en 1: %q", got)
	}
	if got := i18n.N(in(i18n.English), "home.attention.to_print", 21); got != "21 labels ready to print" {
		t.Errorf("en 21: %q", got)
	}
}

func TestNegotiate(t *testing.T) {
	for header, want := range map[string]i18n.Lang{
		"cs-CZ,cs;q=0.9,en;q=0.8": i18n.Czech, "en-GB,en;q=0.9": i18n.English, "sk,cs;q=0.8": i18n.Czech,
		"de-DE": i18n.English, "": i18n.English, "\x00garbage": i18n.English,
	} {
		if got := i18n.Negotiate(header, i18n.English); got != want {
			t.Errorf("Negotiate(%q) = %s, want %s", header, got, want)
		}
	}
}

func TestFormatsOut(t *testing.T) {
	cs, en := in(i18n.Czech), in(i18n.English)
	nbsp := "\u00a0"
	for _, c := range []struct{ got, want string }{
		{i18n.Money(cs, 1299.5, "CZK"), "1" + nbsp + "299,50" + nbsp + "Kč"},
		{i18n.Money(cs, 1299, "CZK"), "1" + nbsp + "299" + nbsp + "Kč"},
		{i18n.Money(cs, 12.5, "EUR"), "12,50" + nbsp + "€"},
		{i18n.Money(en, 1299.5, "CZK"), "CZK" + nbsp + "1,299.50"},
		{i18n.Money(en, 12.5, "EUR"), "€12.50"},
		{i18n.Number(cs, 1234567.891, 2), "1" + nbsp + "234" + nbsp + "567,89"},
		{i18n.Int(en, 12345), "12,345"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	// 22 Nov 2026 13:05 UTC is 14:05 in Prague (winter time).
	at := time.Date(2026, 11, 22, 13, 5, 0, 0, time.UTC)
	if got := i18n.DateTime(cs, at); got != "22. 11. 2026 14:05" {
		t.Errorf("cs date and time: %q", got)
	}
	if got := i18n.DateTime(en, at); got != "22 Nov 2026, 14:05" {
		t.Errorf("en date and time: %q", got)
	}
	if got := i18n.Date(cs, at); got != "22. 11. 2026" {
		t.Errorf("cs date: %q", got)
	}
	if got := i18n.Day(cs, "2026-11-22"); got != "22. 11. 2026" {
		t.Errorf("cs day: %q", got)
	}
	summer := time.Date(2026, 7, 1, 22, 30, 0, 0, time.UTC) // 00:30 the next day in Prague (summer time)
	if got := i18n.DateTime(cs, summer); got != "2. 7. 2026 00:30" {
		t.Errorf("summer time: %q", got)
	}
}
