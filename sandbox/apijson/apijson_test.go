package apijson

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestDecodeProblems(t *testing.T) {
	type pkg struct {
		Weight float64 `json:"weight"`
	}
	type body struct {
		Shipments []struct {
			Packages []pkg `json:"packages"`
		} `json:"shipments"`
	}
	cases := []struct {
		name, in   string
		status     int
		wantField  string
		wantPhrase string
	}{
		{"Empty", "", 400, "", "empty"},
		{"Malformed", `{"shipments": [`, 400, "", "malformed"},
		{"WrongType", `{"shipments":[{"packages":[{"weight":"heavy"}]}]}`, 400, "shipments.packages.weight", "number"},
		{"Trailing", `{} {}`, 400, "", "exactly one"},
		{"TooLarge", `{"x":"` + strings.Repeat("a", 2000) + `"}`, 413, "", "larger"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(c.in))
			w := httptest.NewRecorder()
			var dst body
			p := Decode(w, r, 1000, &dst)
			if p == nil {
				t.Fatalf("no problem for %q", c.in)
			}
			if p.Status != c.status {
				t.Errorf("status %d, want %d", p.Status, c.status)
			}
			if !strings.Contains(strings.ToLower(p.Error()), c.wantPhrase) {
				t.Errorf("message %q lacks %q", p.Error(), c.wantPhrase)
			}
			if c.wantField != "" && (len(p.Errors) == 0 || p.Errors[0].Field != c.wantField) {
				t.Errorf("errors %+v, want field %s", p.Errors, c.wantField)
			}
		})
	}
}

func TestDecodeRefusesOtherContentType(t *testing.T) {
	r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{}`))
	r.Header.Set("Content-Type", "text/html")
	var dst map[string]any
	if p := Decode(httptest.NewRecorder(), r, 100, &dst); p == nil || p.Status != 415 {
		t.Fatalf("got %v, want 415", p)
	}
}
