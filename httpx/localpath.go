package httpx

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxLocalPath bounds a return target: no page of ours needs a longer one.
const maxLocalPath = 2048

// LocalPath returns p when it is a clean path on this site (for ?next= after
// sign-in and the sandbox clock's way back), otherwise "/": an open redirect
// would let a phishing link borrow our address. Browsers drop tabs and newlines
// from a Location and read "\" as "/", so "/\t/evil" or "/\evil" would lead to
// another host; p is refused when any of that appears, before or after
// percent-decoding.
func LocalPath(p string) string {
	if plainPath(p) { // every page's own path: nothing to decode or parse
		return p
	}
	return checkedLocalPath(p)
}

// plainPath says whether p is a path of one leading "/" and only letters,
// digits and "/-_.~?=&", which LocalPath keeps as it is: no escapes to
// decode, nothing a browser reads differently, nothing that makes a host.
func plainPath(p string) bool {
	if len(p) == 0 || len(p) > maxLocalPath || p[0] != '/' || (len(p) > 1 && p[1] == '/') {
		return false
	}
	for i := 1; i < len(p); i++ {
		switch b := p[i]; {
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		case b == '/', b == '-', b == '_', b == '.', b == '~', b == '?', b == '=', b == '&':
		default:
			return false
		}
	}
	return true
}

func checkedLocalPath(p string) string {
	if p == "" || len(p) > maxLocalPath || !cleanPath(p) {
		return "/"
	}
	decoded := p
	for range 3 { // "%2509" hides "%09" one level down
		next, err := url.PathUnescape(decoded)
		if err != nil || !cleanPath(next) {
			return "/"
		}
		if next == decoded {
			break
		}
		decoded = next
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return "/"
	}
	return p
}

// cleanPath: one leading "/" (never "//" or "/\"), valid UTF-8, and no
// backslash, control character, invisible formatting or whitespace anywhere.
func cleanPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || !utf8.ValidString(p) {
		return false
	}
	for _, r := range p {
		if r == '\\' || unicode.IsControl(r) || unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}
