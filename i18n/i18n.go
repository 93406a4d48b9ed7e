// Package i18n is the one message catalog of the dashboard: every text a person
// reads comes from here by key, in Czech or English. The catalogs are JSON
// files under messages/ that a translator edits without touching Go code; they
// are checked when the program starts (every key in every language, plural
// forms by each language's rules, the same format verbs). Plural rules and
// number formats come from golang.org/x/text (CLDR data).
package i18n

import (
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// Lang is a language with a catalog.
type Lang string

const (
	Czech   Lang = "cs"
	English Lang = "en"
)

// Langs are the languages with a catalog; Czech first, the shop's own.
var Langs = []Lang{Czech, English}

// Tag is the language's BCP 47 tag.
func (l Lang) Tag() language.Tag {
	if l == English {
		return language.English
	}
	return language.Czech
}

// Parse reads a language code ("cs", "en-GB"); ok is false for other languages.
func Parse(s string) (Lang, bool) {
	first, _, _ := strings.Cut(strings.TrimSpace(s), "-")
	for _, l := range Langs {
		if strings.EqualFold(first, string(l)) {
			return l, true
		}
	}
	return Lang(strings.ToLower(first)), false
}

// message is one entry: a text, or plural forms by CLDR category.
type message struct {
	text  string
	forms map[string]string // one, few, many, other
}

func (m *message) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &m.text); err == nil {
		return nil
	}
	return json.Unmarshal(b, &m.forms)
}

//go:embed messages
var files embed.FS

// catalogs are read from the embedded files once; Check says what is wrong.
var catalogs, loadErr = load()

// load reads messages/<lang>/*.json: one file per part of the dashboard, so
// translators (and engineers) work on one part at a time; a key may be in one
// file only.
func load() (map[Lang]map[string]message, error) {
	out := map[Lang]map[string]message{}
	for _, l := range Langs {
		out[l] = map[string]message{}
		names, err := fs.Glob(files, "messages/"+string(l)+"/*.json")
		if err != nil || len(names) == 0 {
			return nil, fmt.Errorf("catalog %s: no files (%v)", l, err)
		}
		for _, name := range names {
			b, err := files.ReadFile(name)
			if err != nil {
				return nil, fmt.Errorf("catalog %s: %w", name, err)
			}
			m := map[string]message{}
			if err := json.Unmarshal(b, &m); err != nil {
				return nil, fmt.Errorf("catalog %s: %w", name, err)
			}
			for k, v := range m {
				if _, dup := out[l][k]; dup {
					return nil, fmt.Errorf("catalog %s: %q is in another file too", name, k)
				}
				out[l][k] = v
			}
		}
	}
	return out, nil
}

// pluralForms are the CLDR categories each language needs for whole numbers
// and decimals: Czech one (1), few (2–4), many (decimals), other (0, 5+).
var pluralForms = map[Lang][]string{Czech: {"one", "few", "many", "other"}, English: {"one", "other"}}

var verb = regexp.MustCompile(`%[-+# 0]*[0-9*]*(?:\.[0-9*]+)?[a-zA-Z%]`)

// Check verifies the catalogs: every key in every language, plural entries
// with every form the language needs, the same format verbs everywhere.
// The program refuses to start when it fails.
func Check() error {
	if loadErr != nil {
		return loadErr
	}
	var problems []string
	for _, key := range Keys() {
		var want []string
		for _, l := range Langs {
			m, ok := catalogs[l][key]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: no %s text", key, l))
				continue
			}
			texts := []string{m.text}
			if m.forms != nil {
				texts = nil
				for _, f := range pluralForms[l] {
					t, ok := m.forms[f]
					if !ok {
						problems = append(problems, fmt.Sprintf("%s: %s lacks the plural form %q", key, l, f))
					}
					texts = append(texts, t)
				}
			}
			for _, t := range texts {
				got := verb.FindAllString(t, -1)
				if want == nil {
					want = got
				} else if t != "" && !slices.Equal(got, want) {
					problems = append(problems, fmt.Sprintf("%s: %s uses %v, expected %v", key, l, got, want))
				}
				if strings.TrimSpace(t) == "" {
					problems = append(problems, fmt.Sprintf("%s: %s text is empty", key, l))
				}
			}
		}
	}
	for _, l := range Langs {
		for key := range catalogs[l] {
			if _, ok := catalogs[English][key]; !ok {
				problems = append(problems, fmt.Sprintf("%s: only in %s", key, l))
			}
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("message catalogs: %s", strings.Join(problems, "; "))
	}
	return nil
}

// LangKey is the context key of the request's language (WithLang); the web
// server's request state answers it itself.
type LangKey struct{}

// WithLang returns ctx carrying the language of the request.
func WithLang(ctx context.Context, l Lang) context.Context {
	return context.WithValue(ctx, LangKey{}, l)
}

// LangOf returns the request's language, Czech by default.
func LangOf(ctx context.Context) Lang {
	if l, ok := ctx.Value(LangKey{}).(Lang); ok {
		return l
	}
	return Czech
}

func lookup(ctx context.Context, key string) (message, bool) {
	m, ok := catalogs[LangOf(ctx)][key]
	if !ok {
		m, ok = catalogs[English][key]
	}
	return m, ok
}

// T returns the message for key in the request's language, formatted with args
// (fmt verbs). A missing key shows itself in brackets so it is noticed, never
// an empty string; a test keeps every key in use present in the catalog.
func T(ctx context.Context, key string, args ...any) string {
	m, ok := lookup(ctx, key)
	if !ok {
		return "[" + key + "]"
	}
	text := m.text
	if m.forms != nil {
		text = m.forms["other"]
	}
	if len(args) > 0 {
		return fmt.Sprintf(text, args...)
	}
	return text
}

// N returns the plural form of key for the count n, formatted with n and then
// args: "%d labels" is "1 label", "2 štítky", "5 štítků".
func N(ctx context.Context, key string, n int, args ...any) string {
	m, ok := lookup(ctx, key)
	if !ok {
		return "[" + key + "]"
	}
	text := m.text
	if m.forms != nil {
		text = m.forms[pluralForm(LangOf(ctx), n)]
	}
	return fmt.Sprintf(text, append([]any{n}, args...)...)
}

// pluralForm is the CLDR category of a whole number in a language.
func pluralForm(l Lang, n int) string {
	if n < 0 {
		n = -n
	}
	switch plural.Cardinal.MatchPlural(l.Tag(), n, 0, 0, 0, 0) {
	case plural.One:
		return "one"
	case plural.Few:
		return "few"
	case plural.Many:
		return "many"
	}
	return "other"
}

// Has reports whether the catalog has key.
func Has(key string) bool {
	_, ok := catalogs[English][key]
	return ok
}

// Keys lists the keys of the catalog, sorted.
func Keys() []string {
	ks := make([]string, 0, len(catalogs[English]))
	for k := range catalogs[English] {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

var matcher = language.NewMatcher([]language.Tag{language.Czech, language.English})

// Negotiate picks the best catalog for an Accept-Language header; fallback
// when the header names none of ours.
func Negotiate(acceptLanguage string, fallback Lang) Lang {
	if l, ok := negotiated(acceptLanguage); ok {
		return cmp.Or(l, fallback)
	}
	l := negotiate(acceptLanguage)
	remember(acceptLanguage, l)
	return cmp.Or(l, fallback)
}

// negotiate is Negotiate without a fallback: "" when no catalog fits.
func negotiate(acceptLanguage string) Lang {
	tags, _, err := language.ParseAcceptLanguage(acceptLanguage)
	if err != nil || len(tags) == 0 {
		return ""
	}
	_, index, confidence := matcher.Match(tags...)
	if confidence == language.No {
		return ""
	}
	return Langs[index]
}

// The few Accept-Language headers the staff's browsers send are negotiated
// once each, not on every request.
var negotiations struct {
	sync.RWMutex
	m map[string]Lang
}

const maxNegotiations, maxNegotiatedHeader = 256, 200

func negotiated(header string) (Lang, bool) {
	negotiations.RLock()
	defer negotiations.RUnlock()
	l, ok := negotiations.m[header]
	return l, ok
}

func remember(header string, l Lang) {
	if len(header) > maxNegotiatedHeader {
		return
	}
	negotiations.Lock()
	defer negotiations.Unlock()
	if negotiations.m == nil || len(negotiations.m) >= maxNegotiations {
		negotiations.m = map[string]Lang{}
	}
	negotiations.m[header] = l
}
