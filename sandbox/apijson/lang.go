package apijson

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Lang is the language of an answer's texts. The provider documents the
// service's messages (the envelope's message, the validation messages) in
// English, in the Czech and the English version of its documentation alike;
// what it reports as data (tracking events and places, a commission's
// history, product names, the words on a label) it writes in Czech, as for
// Czech shipments. A client may ask for the other language of either
// (Accept-Language).
type Lang uint8

const (
	Czech Lang = iota
	English
)

// Tag is the language's tag for Content-Language.
func (l Lang) Tag() string {
	if l == English {
		return "en"
	}
	return "cs"
}

// LangOf is the language of the messages a request is answered with:
// English, unless the client's Accept-Language puts Czech before it.
func LangOf(r *http.Request) Lang { return preferred(r, English) }

// DataLangOf is the language of the data a request is answered with: Czech,
// unless the client's Accept-Language puts English before it.
func DataLangOf(r *http.Request) Lang { return preferred(r, Czech) }

// preferred is the first of Czech and English in the order of the client's
// Accept-Language preferences, or fallback when it names neither.
func preferred(r *http.Request, fallback Lang) Lang {
	best, bestQ := fallback, 0.0
	for _, part := range strings.Split(r.Header.Get("Accept-Language"), ",") {
		tag, q := preference(part)
		lang, known := langOfTag(tag)
		if known && q > bestQ {
			best, bestQ = lang, q
		}
	}
	return best
}

// preference splits "en-GB;q=0.8" into its primary language and its weight.
func preference(part string) (string, float64) {
	tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
	q := 1.0
	if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			q = f
		}
	}
	primary, _, _ := strings.Cut(strings.ToLower(tag), "-")
	return primary, q
}

func langOfTag(primary string) (Lang, bool) {
	switch primary {
	case "cs":
		return Czech, true
	case "en":
		return English, true
	}
	return Czech, false
}

// Phrase is one message of the service in both languages: fmt formats with
// the same verbs in the same order. Each package keeps its phrases in one
// table (messages.go), so a new message is one line there.
type Phrase struct{ CS, EN string }

// With is the phrase with its arguments, said once the answer's language is
// known.
func (p Phrase) With(args ...any) Text { return Text{phrase: p, args: args} }

// In says the phrase, without arguments, in lang.
func (p Phrase) In(lang Lang) string { return p.With().In(lang) }

// Text is a message to be said in the answer's language. An argument that is
// itself a Text is said in the same language.
type Text struct {
	phrase Phrase
	args   []any
}

// Verbatim is a phrase that passes its one argument on in both languages: a
// name, a code, or an error of our own code that has no translation.
var Verbatim = Phrase{CS: "%s", EN: "%s"}

// Same is text that reads the same in both languages.
func Same(s string) Text { return Verbatim.With(s) }

// IsZero reports whether t says nothing.
func (t Text) IsZero() bool { return t.phrase == Phrase{} }

// In says t in lang.
func (t Text) In(lang Lang) string {
	format := t.phrase.CS
	if lang == English {
		format = t.phrase.EN
	}
	if len(t.args) == 0 {
		return format
	}
	args := make([]any, len(t.args))
	for i, a := range t.args {
		if at, ok := a.(Text); ok {
			a = at.In(lang)
		}
		args[i] = a
	}
	return fmt.Sprintf(format, args...)
}

// String is the English text, for logs and errors.
func (t Text) String() string { return t.In(English) }
