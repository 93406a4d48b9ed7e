package apijson

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Messages are English, as the provider documents them, unless the client
// prefers Czech to English; data is Czech unless it prefers English.
func TestLangOf(t *testing.T) {
	for header, want := range map[string][2]Lang{ // messages, data
		"": {English, Czech}, "fr, de": {English, Czech}, "*": {English, Czech}, "en;q=0": {English, Czech},
		"cs": {Czech, Czech}, "cs-CZ,cs;q=0.9": {Czech, Czech}, "cs, en": {Czech, Czech}, "cs;q=0": {English, Czech},
		"en": {English, English}, "EN-gb": {English, English}, "en-US,en;q=0.9,cs;q=0.8": {English, English},
		"de, en;q=0.7, cs;q=0.5": {English, English}, "cs;q=0.5, en;q=0.6": {English, English},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Accept-Language", header)
		if got := [2]Lang{LangOf(r), DataLangOf(r)}; got != want {
			t.Errorf("Accept-Language %q: messages %s and data %s, want %s and %s", header, got[0].Tag(), got[1].Tag(), want[0].Tag(), want[1].Tag())
		}
	}
}

// An answer says its language, and so do its field errors.
func TestAnswersInTheRequestsLanguage(t *testing.T) {
	p := Invalid(Err("to.zip", Phrase{CS: "PSČ %q", EN: "Postal code %q"}, "1"))
	for lang, want := range map[string][]string{"cs": {`"message":"Kontrola údajů selhala"`, `PSČ \"1\"`}, "": {`"message":"Validation failed"`, `Postal code \"1\"`}, "en": {`"message":"Validation failed"`, `Postal code \"1\"`}} {
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
