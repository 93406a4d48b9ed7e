package web

import (
	"net/http"
	"net/url"
	"path"
	"strings"
)

// tokenWildcard names a path segment that is a customer's key (a claim's
// one-time link, its status page): whoever has the path has the key.
const tokenWildcard = "{token}"

// redactedToken stands in for a key in what is written down.
const redactedToken = ":token"

// routeTable is the mux, and what its patterns say of the paths they take:
// after which segments a customer's key comes. The request log and the
// sign-in redirect ask it, so no key is written where it should not be,
// and a route added with a {token} is covered as it is added.
type routeTable struct {
	*http.ServeMux
	keyed [][]string // the literal segments before a {token}: {"claim", "status"}
}

func newRouteTable() *routeTable { return &routeTable{ServeMux: http.NewServeMux()} }

// Handle registers pattern, noting where its key is.
func (t *routeTable) Handle(pattern string, h http.Handler) {
	t.note(pattern)
	t.ServeMux.Handle(pattern, h)
}

// HandleFunc registers pattern, noting where its key is.
func (t *routeTable) HandleFunc(pattern string, h func(http.ResponseWriter, *http.Request)) {
	t.note(pattern)
	t.ServeMux.HandleFunc(pattern, h)
}

func (t *routeTable) note(pattern string) {
	p := pattern
	if i := strings.IndexByte(p, '/'); i >= 0 {
		p = p[i:] // without the method and host
	}
	before, _, ok := strings.Cut(p, "/"+tokenWildcard)
	if !ok {
		return
	}
	segs := strings.Split(strings.Trim(before, "/"), "/")
	for _, k := range t.keyed {
		if equalFold(k, segs) {
			return
		}
	}
	t.keyed = append(t.keyed, segs)
}

// loggable is p as it may be written down: the segment after a keyed prefix
// (and everything under it) carries the key, so it is replaced, whatever
// follows it, however the prefix is spelled (any case, doubled slashes, dot
// segments: the path is cleaned first, as the mux would clean it).
func (t *routeTable) loggable(p string) string {
	if t == nil {
		return p
	}
	c := p
	if !isCleanPath(c) {
		c = path.Clean("/" + c)
	}
	segs := strings.Split(c[1:], "/")
	for _, k := range t.keyed {
		if len(segs) > len(k) && equalFold(segs[:len(k)], k) && segs[len(k)] != "" {
			segs[len(k)] = redactedToken
			return "/" + strings.Join(segs, "/")
		}
	}
	return c
}

// plain says whether p may be written down as it is: it holds no key and
// is clean (a path the mux would clean may hide one behind "..").
func (t *routeTable) plain(p string) bool { return t.loggable(p) == p }

// plainURL says whether u may be written down as it is: its path plain,
// its query naming no path that carries a key (as written or decoded).
func (t *routeTable) plainURL(u *url.URL) bool {
	q, _ := url.QueryUnescape(u.RawQuery)
	return t.plain(u.Path) && !t.mentionsKey(u.RawQuery) && !t.mentionsKey(q)
}

// mentionsKey says whether s (a query, decoded) names a path that carries a
// key, anywhere in it: "next=/claim/status/…" or a whole address.
func (t *routeTable) mentionsKey(s string) bool {
	s = strings.ToLower(s)
	for _, k := range t.keyed {
		if strings.Contains(s, strings.ToLower("/"+strings.Join(k, "/")+"/")) {
			return true
		}
	}
	return false
}

func equalFold(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}
