package web

import (
	"net/http"

	"shipdesk/identity"
)

// routes is the whole surface of the dashboard and who may use each part.
// Reading this file tells a newcomer everything the server answers.
func (s *Server) routes() *http.ServeMux {
	mux := http.NewServeMux()
	h := s.h
	var (
		shipping = identity.RolesFor(identity.Shipping)
		tracking = identity.RolesFor(identity.Tracking)
		returns  = identity.RolesFor(identity.Returns)
		reports  = identity.RolesFor(identity.Reports)
		users    = identity.RolesFor(identity.Users)
		conn     = identity.RolesFor(identity.Connection)
	)

	// Anyone: probes, static files, sign-in.
	mux.HandleFunc("GET /healthz", h.Healthz)
	mux.HandleFunc("GET /readyz", h.Readyz)
	mux.Handle("GET /static/", s.static)
	mux.HandleFunc("GET /login", h.LoginForm)
	mux.HandleFunc("POST /login", h.Login)

	// Every signed-in role.
	mux.Handle("GET /{$}", s.signedIn(h.Home))
	mux.Handle("POST /logout", s.signedIn(h.Logout))
	// The simulator's clock, for every role; the handler refuses it outside sandbox mode.
	mux.Handle("POST /sandbox-clock", s.signedIn(h.AdvanceClock))

	// Areas.
	mux.Handle("GET /shipping", s.only(shipping, h.AreaPage(identity.Shipping)))
	mux.Handle("GET /tracking", s.only(tracking, h.AreaPage(identity.Tracking)))
	mux.Handle("GET /returns", s.only(returns, h.AreaPage(identity.Returns)))
	mux.Handle("GET /reports", s.only(reports, h.AreaPage(identity.Reports)))

	// Staff accounts: managers.
	mux.Handle("GET /users", s.only(users, h.Users))
	mux.Handle("POST /users", s.only(users, h.AddUser))
	mux.Handle("GET /users/{id}", s.only(users, h.UserDetail))
	mux.Handle("POST /users/{id}/password", s.only(users, h.ResetPassword))
	mux.Handle("POST /users/{id}/disable", s.only(users, h.SetDisabled(true)))
	mux.Handle("POST /users/{id}/enable", s.only(users, h.SetDisabled(false)))

	// The link to the shipping service: managers, and a metrics scraper with its token.
	mux.Handle("GET /connection", s.only(conn, h.Connection))
	mux.Handle("GET /metrics", s.scraper(conn, h.MetricsText))

	// Anything else: sign in first, then 404, so unknown paths reveal nothing.
	mux.Handle("/", s.signedIn(h.NotFound))
	return mux
}
