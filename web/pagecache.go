package web

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/pagecache"
	"shipdesk/requestkey"
)

// cached answers a signed-in GET of a page that opts in (routes.go) from
// the page cache when nothing it shows has changed, and keeps what its
// handler answers otherwise (pagecache says when a copy is good). The key
// holds everything a page's handler and shell read from the request, so a
// copy goes only to a request its handler would answer the same:
//
//   - the method (GET only), host, path as escaped and raw query;
//   - every htmx header (HX-Request, HX-Target, HX-Trigger — a live part
//     asks for itself —, HX-Current-URL, …);
//   - the signed-in person: id, name, role, saved language; the language
//     and time zone the page is drawn in (a browser's choice among them);
//   - the minute on the dashboard's clock (ages, "checked 3 minutes ago",
//     the sandbox banner's time, and a moved sandbox clock);
//
// and is not asked at all while the session holds a flash message (the page
// shows and takes it). Not kept: an answer that sets a cookie, is not 200 or
// 404, marked by its handler (pagecache.Skip; pagecache.Until keeps it only
// so long), over the cache's share, or
// that carries a request key its render did not note (requestkey.NewIn);
// the keys it noted are replaced with fresh ones on every use.
func (s *Server) cached(next http.HandlerFunc) http.HandlerFunc {
	if s.pages == nil {
		return next
	}
	return func(w http.ResponseWriter, r *http.Request) {
		st := identity.From(r.Context())
		if r.Method != http.MethodGet || st == nil || s.pendingFlashes(r) {
			next(w, r)
			return
		}
		now := s.h.Clock.Now()
		key := s.pageKey(r, st, now)
		if e, ok := s.pages.Get(key, now); ok {
			h := w.Header()
			for k, v := range e.Header {
				h[k] = v
			}
			w.WriteHeader(e.Status)
			_, _ = s.pages.Write(w, e)
			return
		}
		gen := s.pages.Generation()
		ctx, minted := requestkey.Recording(r.Context())
		ctx, note := pagecache.Recording(ctx)
		before := make(map[string]bool, len(w.Header()))
		for k := range w.Header() {
			before[k] = true
		}
		cw := &captureWriter{statusWriter: statusWriter{ResponseWriter: w}, limit: maxKeptPage}
		next(cw, r.WithContext(ctx))
		skip, until := note.Said()
		if skip || cw.over || (cw.status != http.StatusOK && cw.status != http.StatusNotFound) {
			return
		}
		h := http.Header{}
		for k, v := range w.Header() {
			if !before[k] {
				h[k] = v
			}
		}
		if _, sets := h["Set-Cookie"]; sets {
			return
		}
		spots, ok := pagecache.KeySpots(cw.body, minted.Keys())
		if !ok {
			return
		}
		s.pages.Put(key, gen, &pagecache.Entry{Status: cw.status, Header: h, Body: cw.body, Keys: spots, Until: until})
	}
}

// maxKeptPage is the largest body kept (a long list of thousands of rows
// is drawn each time).
const maxKeptPage = 1 << 20

// pageKey is the cache's key of a request (cached lists what it holds).
func (s *Server) pageKey(r *http.Request, st *identity.Staff, now time.Time) string {
	var b strings.Builder
	uri := r.URL.RequestURI() // as the page's forms post it back: escaped as asked
	b.Grow(len(r.Host) + len(uri) + 128)
	b.WriteString(r.Host)
	b.WriteByte(0)
	b.WriteString(uri)
	var hx []string
	for k := range r.Header {
		if strings.HasPrefix(k, "Hx-") {
			hx = append(hx, k)
		}
	}
	slices.Sort(hx)
	for _, k := range hx {
		b.WriteByte(0)
		b.WriteString(k)
		for _, v := range r.Header[k] {
			b.WriteByte(':')
			b.WriteString(v)
		}
	}
	ctx := r.Context()
	b.WriteByte(0)
	b.WriteString(strconv.FormatInt(st.ID, 10))
	b.WriteByte(0)
	b.WriteString(st.Username)
	b.WriteByte(0)
	b.WriteString(string(st.Role))
	b.WriteByte(0)
	b.WriteString(st.Lang)
	b.WriteByte(0)
	b.WriteString(string(i18n.LangOf(ctx)))
	b.WriteByte(0)
	b.WriteString(i18n.ZoneOf(ctx).String())
	b.WriteByte(0)
	b.WriteString(strconv.FormatInt(now.Unix()/int64(time.Minute/time.Second), 10))
	return b.String()
}

// pendingFlashes says whether the request's session holds a flash message
// for the next page (gorilla's flashes are kept under "_flash").
func (s *Server) pendingFlashes(r *http.Request) bool {
	_, ok := s.sessions.session(r).Values["_flash"]
	return ok
}

// seeWrites drops every kept page when a signed-in person's post, or any
// request that is not a GET, has done its work: its answer is written after
// its change is committed, so the very next page (the redirect's) is drawn
// anew. Changes made elsewhere reach the cache through the change feed.
func (s *Server) seeWrites(next http.Handler) http.Handler {
	if s.pages == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead || identity.From(r.Context()) == nil {
			next.ServeHTTP(w, r)
			return
		}
		defer s.pages.Bump()
		next.ServeHTTP(&bumpWriter{ResponseWriter: w, bump: s.pages.Bump}, r)
	})
}

// captureWriter keeps a copy of what a handler writes, up to limit bytes,
// and its status.
type captureWriter struct {
	statusWriter
	body  []byte
	limit int
	over  bool
}

func (w *captureWriter) Write(b []byte) (int, error) {
	if !w.over {
		if len(w.body)+len(b) > w.limit {
			w.over, w.body = true, nil
		} else {
			w.body = append(w.body, b...)
		}
	}
	return w.statusWriter.Write(b)
}

// bumpWriter drops the kept pages when its answer begins, before the
// browser can ask for the next page.
type bumpWriter struct {
	http.ResponseWriter
	bump   func()
	bumped bool
}

func (w *bumpWriter) begin() {
	if !w.bumped {
		w.bumped = true
		w.bump()
	}
}

func (w *bumpWriter) WriteHeader(code int) {
	w.begin()
	w.ResponseWriter.WriteHeader(code)
}

func (w *bumpWriter) Write(b []byte) (int, error) {
	w.begin()
	return w.ResponseWriter.Write(b)
}

func (w *bumpWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *bumpWriter) Flush() {
	w.begin()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
