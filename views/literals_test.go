package views_test

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/a-h/templ/parser/v2"
)

// notYetTranslated are the templates whose texts are still being moved into the
// catalog on other branches; the check skips exactly these. Whoever merges
// those branches empties this list, so that every template is checked.
var notYetTranslated = []string{}

// notLanguage are words that read the same in every language and so may be
// written in a template. Keep it short: a word a person reads belongs in the
// catalog.
var notLanguage = map[string]bool{
	"shipdesk": true, // the brand (still taken from the catalog where shown)
}

// Every text a person reads in a template comes from the catalog: no text
// between tags and no placeholder, title, aria-label, alt, label or button
// value (an input button's label) holds words of its own; symbols, punctuation and numbers may.
func TestTemplatesHaveNoLiteralText(t *testing.T) {
	files, err := filepath.Glob("*.templ")
	if err != nil || len(files) == 0 {
		t.Fatalf("no templates found: %v", err)
	}
	for _, name := range notYetTranslated {
		if !slices.Contains(files, name) {
			t.Errorf("notYetTranslated names %s, which is no template here", name)
		}
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		found, err := literals(string(src))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if slices.Contains(notYetTranslated, name) {
			t.Logf("%s: not yet translated, %d literal texts left", name, len(found))
			continue
		}
		for _, f := range found {
			t.Errorf("%s:%s: literal text, put it in the catalog", name, f)
		}
	}
}

// The check itself: it finds what it should and passes what it should.
func TestLiteralsFindsText(t *testing.T) {
	src := `package views

templ Sample(on bool, xs []string) {
	<section title="Details">
		<h1>Hello { name }</h1>
		<p>{ T(ctx, "app.name") } · 12 % – 3 × 4 + 5:</p>
		<input type="search" placeholder="Type here"/>
		<input type="submit" value="Send"/>
		<input type="hidden" name="back" value="home"/>
		<button type="submit" name="minutes" value="15">{ T(ctx, "sandbox.15m") }</button>
		<button type="submit" name="go" value="now">{ T(ctx, "app.sign_out") }</button>
		<a href="/" aria-label="Home page">{ T(ctx, "nav.home") }</a>
		<img src="/static/x.svg" alt="A logo"/>
		<span class="brand">shipdesk</span>
		if on {
			<em>Still here</em>
		} else {
			<em>{ T(ctx, "app.skip") }</em>
		}
		for _, x := range xs {
			<i>Each { x }</i>
		}
		<span
			if on {
				title="Conditional title"
			}
		>&nbsp;&mdash;</span>
		<script>const s = "words in a script are not shown";</script>
	</section>
}
`
	got, err := literals(src)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, f := range got {
		texts = append(texts, f[strings.Index(f, " ")+1:])
	}
	want := []string{
		`title="Details"`, `text "Hello"`, `placeholder="Type here"`, `value="Send"`,
		`aria-label="Home page"`, `alt="A logo"`, `text "Still here"`, `text "Each"`, `title="Conditional title"`,
	}
	if !slices.Equal(texts, want) {
		t.Errorf("found\n%q\nwant\n%q", texts, want)
	}
}

// literals parses a template file and lists its person-facing literal texts as
// "line: what".
func literals(src string) ([]string, error) {
	tf, err := parser.ParseString(src)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range tf.Nodes {
		if t, ok := n.(*parser.HTMLTemplate); ok {
			walk(t.Children, &out)
		}
	}
	return out, nil
}

// shownAttrs are attributes whose value a person reads (or hears).
var shownAttrs = map[string]bool{"placeholder": true, "title": true, "aria-label": true, "alt": true, "label": true}

func walk(nodes []parser.Node, out *[]string) {
	for _, n := range nodes {
		switch n := n.(type) {
		case *parser.Text:
			if isLanguage(html.UnescapeString(n.Value)) {
				*out = append(*out, fmt.Sprintf("%d: text %q", n.Range.From.Line+1, strings.TrimSpace(html.UnescapeString(n.Value))))
			}
		case *parser.Element:
			attrs(n, n.Attributes, out)
			walk(n.Children, out)
		case *parser.RawElement:
			// script and style: code, not text
		case parser.CompositeNode:
			walk(n.ChildNodes(), out)
		}
	}
}

func attrs(e *parser.Element, as []parser.Attribute, out *[]string) {
	for _, a := range as {
		switch a := a.(type) {
		case *parser.ConstantAttribute:
			name := strings.ToLower(a.Key.String())
			if (shownAttrs[name] || name == "value" && isButton(e)) && isLanguage(html.UnescapeString(a.Value)) {
				*out = append(*out, fmt.Sprintf("%d: %s=%q", a.Range.From.Line+1, name, a.Value))
			}
		case *parser.ConditionalAttribute:
			attrs(e, a.Then, out)
			attrs(e, a.Else, out)
		}
	}
}

// isButton reports whether the element is an input button, whose value is
// the label a person reads. A <button>'s value is never shown: it is what the
// form sends (name="sort" value="price"), so it stays a code, and its label
// is its content, checked as text.
func isButton(e *parser.Element) bool {
	if e.Name != "input" {
		return false
	}
	for _, a := range e.Attributes {
		if c, ok := a.(*parser.ConstantAttribute); ok && strings.EqualFold(c.Key.String(), "type") {
			switch strings.ToLower(c.Value) {
			case "submit", "button", "reset":
				return true
			}
		}
	}
	return false
}

// isLanguage reports whether s holds a word: letters that are not in
// notLanguage. Symbols, punctuation, numbers and spaces are no language.
func isLanguage(s string) bool {
	words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) })
	for _, w := range words {
		if !notLanguage[strings.ToLower(w)] {
			return true
		}
	}
	return false
}
