package web

import (
	"bufio"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"shipdesk/apperr"
	"shipdesk/clock"
	"shipdesk/handlers"
	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/identity"
)

// statusWriter remembers the status and size of an answer for the request log.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if h, ok := w.ResponseWriter.(http.Hijacker); ok {
		return h.Hijack()
	}
	return nil, nil, errors.New("hijack not supported")
}

var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// logRequests gives every request an id (kept from a proxy's X-Request-Id when it
// is well-formed) and logs one line per request: method, path without query (a
// query may hold a customer's name) as loggable gives it (a customer's key
// replaced; nil: as it is), status, size, duration and who. Never cookies, form
// values or keys. Other lines about a request name its id, not its path.
func logRequests(log *slog.Logger, loggable func(string) string, next http.Handler) http.Handler {
	if loggable == nil {
		loggable = func(p string) string { return p }
	}
	ids := newRequestIDs()
	handler := log.Handler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		watch := clock.Start()
		id := r.Header.Get("X-Request-Id")
		if id == "" || !requestIDPattern.MatchString(id) {
			id = ids.next()
		}
		w.Header()["X-Request-Id"] = []string{id}
		r, c := newRequestContext(r)
		state, sw := &c.state, &c.sw
		state.id, sw.ResponseWriter = id, w
		next.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK // net/http answers 200 when a handler writes nothing
		}
		level := slog.LevelInfo
		if sw.status >= 500 {
			level = slog.LevelError
		}
		ctx := r.Context()
		if !handler.Enabled(ctx, level) {
			return
		}
		// The record is made here, as Logger.LogAttrs makes it, but without
		// asking the runtime for the caller: no line says where it was logged.
		at, took := watch.Stop()
		rec := slog.NewRecord(at, level, "request", 0)
		rec.AddAttrs(
			slog.String("request_id", id),
			slog.String("method", r.Method),
			slog.String("path", loggable(r.URL.Path)),
			slog.Int("status", sw.status),
			slog.Int("bytes", sw.bytes),
			slog.Duration("duration", took),
			slog.String("user", state.who),
		)
		_ = handler.Handle(ctx, rec)
	})
}

// requestIDs makes request ids: a random prefix per process and a counter,
// unique without asking the kernel for randomness on every request.
type requestIDs struct {
	prefix [8]byte
	n      atomic.Uint64
}

func newRequestIDs() *requestIDs {
	ids := &requestIDs{}
	var b [4]byte
	_, _ = rand.Read(b[:])
	hex.Encode(ids.prefix[:], b[:])
	return ids
}

func (ids *requestIDs) next() string {
	var id [16]byte
	copy(id[:8], ids.prefix[:])
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(ids.n.Add(1)))
	hex.Encode(id[8:], n[:])
	return string(id[:])
}

// recoverPanics turns a panic into a 500 page and a logged stack, so one bad
// request never takes the server down.
func recoverPanics(log *slog.Logger, fail func(http.ResponseWriter, *http.Request, error), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			if v == http.ErrAbortHandler {
				panic(v)
			}
			log.Error("panic", "request_id", httpx.RequestID(r.Context()), "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			fail(w, r, fmt.Errorf("panic: %v", v))
		}()
		next.ServeHTTP(w, r)
	})
}

// contentSecurityPolicy allows only our own scripts and styles: no inline script,
// no eval, no framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"connect-src 'self'; font-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; " +
	"form-action 'self'; frame-ancestors 'none'"

// securityHeaders are the same on every answer; their values are shared
// (net/http only reads them), so setting them allocates nothing, and kept in
// a list, so setting them walks no map.
var securityHeaderValues = []struct {
	name  string
	value []string
}{
	{"Content-Security-Policy", []string{contentSecurityPolicy}},
	{"X-Content-Type-Options", []string{"nosniff"}},
	{"Referrer-Policy", []string{"same-origin"}},
	{"X-Frame-Options", []string{"DENY"}},
	{"Cross-Origin-Opener-Policy", []string{"same-origin"}},
	{"Permissions-Policy", []string{"camera=(), microphone=(), geolocation=(), payment=()"}},
}

var hstsValue = []string{"max-age=31536000"}

func securityHeaders(trustProxy bool, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for _, hv := range securityHeaderValues {
			h[hv.name] = hv.value
		}
		if httpx.IsHTTPS(r, trustProxy) {
			h["Strict-Transport-Security"] = hstsValue
		}
		next.ServeHTTP(w, r)
	})
}

// localize puts the request's language and the shop's time zone into its
// context: the language chosen in this browser (a cookie), else the browser's
// Accept-Language, else the installation's default. A signed-in staff
// member's saved language wins later (authenticate).
func localize(fallback i18n.Lang, zone *time.Location, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lang := i18n.Negotiate(r.Header.Get("Accept-Language"), fallback)
		if c, ok := httpx.CookieValue(r, handlers.LangCookie); ok {
			if l, ok := i18n.Parse(c); ok {
				lang = l
			}
		}
		r, state := stateFor(r)
		state.lang, state.zone = lang, zone
		next.ServeHTTP(w, r)
	})
}

// authenticate puts the signed-in staff member (if any) into the request context.
// It never refuses: guards decide what an anonymous request may see.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := s.sessions.Token(r)
		if token == "" {
			next.ServeHTTP(w, r)
			return
		}
		st, err := s.staff.Authenticate(r.Context(), token)
		switch {
		case err == nil:
			var state *requestState
			r, state = stateFor(r)
			state.who, state.staff = st.Username, st
			// Signed in, a person reads the language they chose, else the one
			// they picked on this browser, else the installation's: the
			// browser's own language decides only the sign-in page.
			l, ok := i18n.Parse(st.Lang)
			if !ok {
				l = s.lang
				if c, ok := httpx.CookieValue(r, handlers.LangCookie); ok {
					if picked, ok := i18n.Parse(c); ok {
						l = picked
					}
				}
			}
			state.lang = l
		case apperr.Is(err, apperr.Unauthorized):
			stateOf(r.Context()).ended = true
		default:
			// Sessions live in the database: it is not answering.
			s.h.Fail(w, r, apperr.New(apperr.Unavailable, "error.unavailable"))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// only guards a route by area: the roles that may use it go through,
// anonymous requests go to sign-in (with the page to come back to), other
// roles get 403.
func (s *Server) only(area identity.Area, next http.HandlerFunc) http.Handler {
	return s.allow(identity.RolesFor(area), next)
}

// allow lets the given roles through, as only does.
func (s *Server) allow(roles []identity.Role, next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := identity.From(r.Context())
		if st == nil {
			s.toSignIn(w, r)
			return
		}
		for _, role := range roles {
			if st.Role == role {
				next(w, r)
				return
			}
		}
		s.h.Forbidden(w, r)
	})
}

// public is a customers' page: anyone may use it, but a client that asks
// too often is turned away here, in memory, with nothing stored. Its address
// may be the customer's key, so it is never sent on as a referrer (whatever
// the page says, and on its refusals too).
func (s *Server) public(next http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Referrer-Policy"] = noReferrer
		if s.limiter == nil {
			next(w, r)
			return
		}
		if wait := s.limiter.Take(httpx.ClientAddress(r, s.trust)); wait > 0 {
			s.h.ClaimThrottled(w, r, wait)
			return
		}
		select {
		case s.publicSlots <- struct{}{}:
			defer func() { <-s.publicSlots }()
		case <-r.Context().Done():
			return
		}
		next(w, r)
	})
}

var noReferrer = []string{"no-referrer"}

// signedIn lets every signed-in staff member through.
// scraper lets a request with the metrics bearer token through, and otherwise
// only the given roles.
func (s *Server) scraper(area identity.Area, next http.HandlerFunc) http.Handler {
	byRole := s.only(area, next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if ok && s.metrics != "" && subtle.ConstantTimeCompare([]byte(got), []byte(s.metrics)) == 1 {
			next(w, r)
			return
		}
		byRole.ServeHTTP(w, r)
	})
}

func (s *Server) signedIn(next http.HandlerFunc) http.Handler {
	return s.allow(identity.Roles, next)
}

func (s *Server) toSignIn(w http.ResponseWriter, r *http.Request) {
	target := "/login"
	// The page to come back to, unless its address holds a customer's key:
	// the sign-in page's address is a staff page's, and is logged by proxies.
	if r.Method == http.MethodGet && r.URL.Path != "/" && s.table.plainURL(r.URL) {
		target += "?next=" + url.QueryEscape(r.URL.RequestURI())
	}
	if sessionEnded(r.Context()) {
		s.sessions.AddFlash(w, r, flashSessionEnded(r))
	}
	if httpx.IsHTMX(r) {
		w.Header().Set("HX-Redirect", target)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// sessionless answers, before any session or database is looked at, what must
// work during a database outage: static files (or every page loses its style)
// and the probes. They never read or set a cookie. Everything else goes on to
// app, the routes above behind the session middleware: a clean path that is
// none of these goes there straight, as the mux would send it.
func (s *Server) sessionless(app http.Handler) http.Handler {
	mux := s.sessionlessRoutes(app)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if strings.HasPrefix(p, "/static/") || p == "/healthz" || p == "/readyz" ||
			r.Method == http.MethodConnect || r.RequestURI == "*" || !isCleanPath(p) {
			mux.ServeHTTP(w, r)
			return
		}
		app.ServeHTTP(w, r)
	})
}

// isCleanPath says whether the mux would take p as it is (not redirect to a
// cleaner one): rooted, without empty, "." or ".." segments.
func isCleanPath(p string) bool {
	if p == "" || p[0] != '/' {
		return false
	}
	c := path.Clean(p)
	if p[len(p)-1] == '/' && c != "/" {
		c += "/"
	}
	return c == p
}
