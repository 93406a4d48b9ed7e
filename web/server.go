// Package web assembles the dashboard's HTTP server: every route in routes.go, the
// middleware around them (request log, panic recovery, security headers, cross-origin
// protection, language, authentication, role guards), sessions and static files.
package web

import (
	"cmp"
	"context"
	"log/slog"
	"net/http"
	"time"

	"shipdesk/handlers"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/throttle"
)

// Authenticator resolves a session token to the staff member (staff.Service).
type Authenticator interface {
	Authenticate(ctx context.Context, token string) (*identity.Staff, error)
}

// Deps is what the server is built from.
type Deps struct {
	Handlers   *handlers.Handlers
	Staff      Authenticator
	Sessions   *Sessions
	Log        *slog.Logger
	TrustProxy bool
	// MetricsToken lets a scraper read /metrics with "Authorization: Bearer
	// TOKEN"; without it only signed-in managers may.
	MetricsToken string
	// Lang is the installation's language, for staff who chose none and browsers
	// that ask for none of ours; Zone is where times are shown.
	Lang i18n.Lang
	Zone *time.Location
	// Public turns away a client that asks the customers' pages too often,
	// before they cost the database anything (nil: no such limit).
	Public *throttle.InMemory
}

// publicAtOnce is how many customers' requests are served at once; a person
// filling a form is one of them for a few milliseconds.
const publicAtOnce = 4

// Server is the dashboard's HTTP handler.
type Server struct {
	h        *handlers.Handlers
	staff    Authenticator
	sessions *Sessions
	log      *slog.Logger
	static   *staticFiles
	handler  http.Handler
	table    *routeTable // the routes, and where their paths carry a customer's key
	metrics  string
	lang     i18n.Lang          // the installation's language
	limiter  *throttle.InMemory // the customers' pages' (Deps.Public)
	// publicSlots bound the customers' requests served at once: a flood
	// waits in line, parked, and cannot take the staff's CPU or connections.
	publicSlots chan struct{}
	trust       bool // believe a proxy's X-Forwarded-For for the client's address
}

// New builds the server and its middleware chain.
func New(d Deps) (*Server, error) {
	st, err := newStaticFiles()
	if err != nil {
		return nil, err
	}
	s := &Server{h: d.Handlers, staff: d.Staff, sessions: d.Sessions, log: d.Log, static: st, metrics: d.MetricsToken,
		lang: cmp.Or(d.Lang, i18n.Czech), limiter: d.Public, trust: d.TrustProxy,
		publicSlots: make(chan struct{}, publicAtOnce)}

	// Cross-site form posts are refused before anything else looks at them.
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.h.ErrorStatus(w, r, http.StatusForbidden, i18n.T(r.Context(), "error.cross_origin"))
	}))

	var h http.Handler = s.routes()
	h = s.authenticate(h)
	h = cop.Handler(h)
	h = localize(cmp.Or(d.Lang, i18n.Czech), cmp.Or(d.Zone, i18n.Prague), h)
	h = s.sessionless(h)
	h = securityHeaders(d.TrustProxy, h)
	h = recoverPanics(d.Log, s.h.Fail, h)
	h = logRequests(d.Log, s.table.loggable, h)
	s.handler = h
	return s, nil
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }
