package web

import (
	"context"
	"net/http"
	"time"

	"github.com/gorilla/sessions"

	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/views"
)

// requestState is what the middleware learns about a request as it goes, in
// one value of the request's context (set by logRequests): its id; its
// language and time zone (localize); who asked
// (authenticate), also for the request log; whether the request came with a
// session that is no longer live, so the sign-in page can say why the person
// has to sign in again; and the session, read from its cookie once.
//
// The middleware fill it in place rather than each wrapping the context
// again: a new context per layer is a copy of the whole request per layer.
type requestState struct {
	id      string
	lang    i18n.Lang // "": not set here
	zone    *time.Location
	staff   *identity.Staff
	who     string
	ended   bool
	session *sessions.Session
}

// requestContext is a request's context with its state: it answers the keys
// the state holds (the id, language, zone, staff member) itself,
// and everything else from the context it wraps. A value put on top of it
// later (i18n.WithLang in a handler) still wins, as context values do.
type requestContext struct {
	context.Context
	state requestState
	sw    statusWriter // the request log's, in the same allocation
}

type stateKey struct{}

func (c *requestContext) Value(key any) any {
	s := &c.state
	switch key.(type) {
	case stateKey:
		return s
	case i18n.LangKey:
		if s.lang != "" {
			return langValue(s.lang)
		}
	case identity.ContextKey:
		if s.staff != nil {
			return s.staff
		}
	case httpx.RequestIDKey:
		if s.id != "" {
			return s.id
		}
	case i18n.ZoneKey:
		if s.zone != nil {
			return s.zone
		}
	}
	return c.Context.Value(key)
}

// withState is r carrying a new state of its own, in one copy of r.
func withState(r *http.Request) (*http.Request, *requestState) {
	r, c := newRequestContext(r)
	return r, &c.state
}

func newRequestContext(r *http.Request) (*http.Request, *requestContext) {
	c := &requestContext{Context: r.Context()}
	return r.WithContext(c), c
}

// stateFor is r's state and r; outside logRequests (a middleware tested
// alone) a new state in a copy of r, so what is set in it is still seen by
// what comes after.
func stateFor(r *http.Request) (*http.Request, *requestState) {
	if s, ok := r.Context().Value(stateKey{}).(*requestState); ok {
		return r, s
	}
	return withState(r)
}

// stateOf is the request's state; outside logRequests (tests of one
// middleware) a fresh one, so writes to it go nowhere.
func stateOf(ctx context.Context) *requestState {
	if s, ok := ctx.Value(stateKey{}).(*requestState); ok {
		return s
	}
	return &requestState{}
}

func sessionEnded(ctx context.Context) bool { return stateOf(ctx).ended }

func flashSessionEnded(r *http.Request) views.Flash {
	return views.Flash{Kind: "info", Text: i18n.T(r.Context(), "login.session_ended")}
}

// langValue is l as a context value: each of our languages a constant, so
// asking for the language (every text of a page does) allocates nothing.
func langValue(l i18n.Lang) any {
	switch l {
	case i18n.Czech:
		return i18n.Czech
	case i18n.English:
		return i18n.English
	}
	return l
}
