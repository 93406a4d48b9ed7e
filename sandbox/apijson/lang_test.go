package apijson

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Czech unless the client prefers English to Czech.
func TestLangOf(t *testing.T) {
	for header, want := range map[string]Lang{
		"": Czech, "cs": Czech, "cs-CZ,cs;q=0.9": Czech, "fr, de": Czech, "*": Czech, "cs, en": Czech,
		"en": English, "EN-gb": English, "en-US,en;q=0.9,cs;q=0.8": English, "de, en;q=0.7, cs;q=0.5": English,
		"cs;q=0.5, en;q=0.6": English, "en;q=0": Czech,
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Accept-Language", header)
		if got := LangOf(r); got != want {
			t.Errorf("Accept-Language %q: %s, want %s", header, got.Tag(), want.Tag())
		}
	}
}

// An answer says its language, and so do its field errors.
func TestAnswersInTheRequestsLanguage(t *testing.T) {
	p := Invalid(Err("to.zip", Phrase{CS: "PSČ %q", EN: "Postal code %q"}, "1"))
	for lang, want := range map[string][]string{"": {`"message":"Kontrola údajů selhala"`, `PSČ \"1\"`}, "en": {`"message":"Validation failed"`, `Postal code \"1\"`}} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Accept-Language", lang)
		w := httptest.NewRecorder()
		WriteProblem(w, r, p)
		for _, s := range want {
			if !strings.Contains(w.Body.String(), s) {
				t.Errorf("%q: %s lacks %s", lang, w.Body, s)
			}
		}
		if got := w.Header().Get("Content-Language"); got != LangOf(r).Tag() {
			t.Errorf("%q: Content-Language %q", lang, got)
		}
	}
}
