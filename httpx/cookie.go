package httpx

import (
	"net/http"
	"strings"
)

// maxQuickCookieLine is the longest Cookie header CookieValue reads itself:
// it holds fewer cookies than net/http's limit on their number, so the two
// agree; a longer one is left to net/http.
const maxQuickCookieLine = 4096

// CookieValue is the value of the request's first valid cookie called name,
// as r.Cookie(name) gives it, read without copying the header into cookies:
// each request reads its session and language cookies, and net/http parses
// every cookie of the header into a new value each time it is asked for one.
func CookieValue(r *http.Request, name string) (string, bool) {
	lines := r.Header["Cookie"]
	if len(lines) != 1 || len(lines[0]) > maxQuickCookieLine {
		if len(lines) == 0 {
			return "", false
		}
		c, err := r.Cookie(name)
		if err != nil {
			return "", false
		}
		return c.Value, true
	}
	line := trimSpace(lines[0])
	for len(line) > 0 {
		var part string
		part, line, _ = strings.Cut(line, ";")
		got, val, _ := strings.Cut(trimSpace(part), "=")
		if trimSpace(got) != name {
			continue
		}
		if v, ok := cookieValue(val); ok {
			return v, true
		}
	}
	return "", false
}

// cookieValue is raw without its quotes, if it is a valid cookie value
// (net/http's rules).
func cookieValue(raw string) (string, bool) {
	if len(raw) > 1 && raw[0] == '"' && raw[len(raw)-1] == '"' {
		raw = raw[1 : len(raw)-1]
	}
	for i := 0; i < len(raw); i++ {
		b := raw[i]
		if b < 0x20 || b >= 0x7f || b == '"' || b == ';' || b == '\\' {
			return "", false
		}
	}
	return raw, true
}

// trimSpace trims what net/textproto trims around a header's parts.
func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }
