package shiprules

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"shipdesk/i18n"
)

var keyUse = regexp.MustCompile(`"(rules\.[a-z_.]+)"`)

// Every key the package uses is in the catalog, and every key of the
// package's catalog file is used.
func TestEveryKeyIsInTheCatalog(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range keyUse.FindAllStringSubmatch(string(b), -1) {
			used[m[1]] = true
			if !i18n.Has(m[1]) {
				t.Errorf("%s uses %s, which the catalog lacks", f, m[1])
			}
		}
	}
	for _, lang := range i18n.Langs {
		b, err := os.ReadFile(filepath.Join("..", "i18n", "messages", string(lang), "rules.json"))
		if err != nil {
			t.Fatal(err)
		}
		var catalog map[string]string
		if err := json.Unmarshal(b, &catalog); err != nil {
			t.Fatal(err)
		}
		for key, text := range catalog {
			if !used[key] {
				t.Errorf("%s/rules.json: %s is used nowhere", lang, key)
			}
			if strings.Contains(strings.ReplaceAll(text, "%s", ""), "%") {
				t.Errorf("%s/rules.json: %s: arguments are written in with %%s only: %q", lang, key, text)
			}
		}
	}
	if err := i18n.Check(); err != nil {
		t.Fatal(err)
	}
}

// Every text of every decision and every problem reads whole in both
// languages: the key exists and the arguments fit the text.
func TestEveryTextReads(t *testing.T) {
	var texts []Text
	for _, c := range chooseCases {
		texts = append(texts, textsOf(c.chooser.Choose(c.rules, c.ship, c.offers))...)
	}
	for _, c := range validationCases {
		r := validRule()
		c.change(&r)
		for _, x := range r.Validate(shopCountries) {
			texts = append(texts, x)
		}
	}
	seen := map[string]bool{}
	for _, x := range texts {
		seen[x.Key] = true
		for _, lang := range i18n.Langs {
			ctx := i18n.WithLang(context.Background(), lang)
			got := i18n.T(ctx, x.Key, x.ArgsWith(func(v float64) string { return i18n.Number(ctx, v, Decimals(v)) })...)
			if strings.HasPrefix(got, "[") || strings.Contains(got, "%!") {
				t.Errorf("%s %v in %s reads %q", x.Key, x.Args, lang, got)
			}
		}
	}
	// The tests reach every text the package has.
	var missed []string
	for _, key := range i18n.Keys() {
		if strings.HasPrefix(key, "rules.") && !seen[key] {
			missed = append(missed, key)
		}
	}
	if len(missed) > 0 {
		slices.Sort(missed)
		t.Errorf("no test case shows %v", missed)
	}
}

func TestNumbersReadInTheLanguage(t *testing.T) {
	x := Text{Key: "rules.skip.weight_above", Args: []any{5.25, 5.0}}
	for lang, want := range map[i18n.Lang]string{i18n.Czech: "Hmotnost 5,25 kg je víc než 5 kg podle pravidla", i18n.English: "Weight 5.25 kg is more than the rule's 5 kg"} {
		ctx := i18n.WithLang(context.Background(), lang)
		if got := i18n.T(ctx, x.Key, x.ArgsWith(func(v float64) string { return i18n.Number(ctx, v, Decimals(v)) })...); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}
