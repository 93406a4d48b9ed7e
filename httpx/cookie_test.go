package httpx

import (
	"net/http"
	"strings"
	"testing"
)

// CookieValue answers as r.Cookie does, for well-formed and hostile headers.
func TestCookieValueAgreesWithNetHTTP(t *testing.T) {
	headers := [][]string{
		nil,
		{""},
		{"shipdesk=abc"},
		{"a=1; shipdesk=abc-_9; b=2"},
		{"  shipdesk = abc ;lang=en"},
		{"shipdesk=\"quoted\""},
		{"shipdesk=\"half"},
		{"shipdesk=bad\\value; shipdesk=good"},
		{"shipdesk=bad\x00nul; shipdesk=second"},
		{"shipdesk=with space"},
		{"shipdeskx=1; xshipdesk=2"},
		{"shipdesk"},
		{"shipdesk="},
		{";;; ; shipdesk=x;;"},
		{"a=1", "shipdesk=two-lines"},
		{"shipdesk=\xff\xfe"},
		{"shipdesk=<script>alert(1)</script>"},
		{strings.Repeat("a=1; ", 1000) + "shipdesk=long"},
		{"SHIPDESK=upper"},
	}
	for _, h := range headers {
		r, _ := http.NewRequest(http.MethodGet, "/", nil)
		if h != nil {
			r.Header["Cookie"] = h
		}
		want, err := r.Cookie("shipdesk")
		got, ok := CookieValue(r, "shipdesk")
		if (err == nil) != ok || (ok && got != want.Value) {
			t.Errorf("Cookie %q: CookieValue %q, %v; r.Cookie %v, %v", h, got, ok, want, err)
		}
	}
}
