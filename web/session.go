package web

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/sessions"

	"shipdesk/clock"
	"shipdesk/views"
)

const cookieName = "shipdesk"

// Sessions is the handlers' view of the session layer (gorilla/sessions over
// cookieStore): the session's token (its ID) and its one-time flash messages.
type Sessions struct {
	store sessions.Store
}

// NewSessions derives the cookie's signing and encryption keys from secret. Cookies are dated and
// aged on clk, real time like the sessions they carry; their settings are
// gorilla's Options: HttpOnly, SameSite=Lax, Secure over HTTPS, MaxAge the
// session's absolute limit.
func NewSessions(secret []byte, maxAge time.Duration, trustProxy bool, clk *clock.Clock) (*Sessions, error) {
	if len(secret) < 32 {
		return nil, fmt.Errorf("session key must be at least 32 bytes, got %d", len(secret))
	}
	opts := sessions.Options{Path: "/", MaxAge: int(maxAge.Seconds()), HttpOnly: true, SameSite: http.SameSiteLaxMode}
	secure := opts
	secure.Secure = true
	return &Sessions{store: &cookieStore{codec: newCookieCodec(secret, maxAge, clk), trustProxy: trustProxy,
		options: opts, secure: secure}}, nil
}

// session is the request's session; a broken cookie reads as an empty one.
func (s *Sessions) session(r *http.Request) *sessions.Session {
	sess, _ := s.store.Get(r, cookieName)
	return sess
}

// Token returns the session token of the request, empty when there is none.
func (s *Sessions) Token(r *http.Request) string {
	return s.session(r).ID
}

// Start stores the token of a new session (replacing any old one and its flashes).
func (s *Sessions) Start(w http.ResponseWriter, r *http.Request, token string) error {
	sess := s.session(r)
	clear(sess.Values)
	sess.ID = token
	if err := sess.Save(r, w); err != nil {
		return fmt.Errorf("save session cookie: %w", err)
	}
	return nil
}

// End removes the token, keeping the cookie for a flash.
func (s *Sessions) End(w http.ResponseWriter, r *http.Request) error {
	sess := s.session(r)
	sess.ID = ""
	if err := sess.Save(r, w); err != nil {
		return fmt.Errorf("clear session cookie: %w", err)
	}
	return nil
}

// AddFlash queues a message for the next page. Within one answer, flashes
// added earlier (and a token set by Start or cleared by End) are kept.
func (s *Sessions) AddFlash(w http.ResponseWriter, r *http.Request, f views.Flash) {
	sess := s.session(r)
	sess.AddFlash(f)
	_ = sess.Save(r, w)
}

// TakeFlashes returns and removes the queued messages.
func (s *Sessions) TakeFlashes(w http.ResponseWriter, r *http.Request) []views.Flash {
	sess := s.session(r)
	taken := sess.Flashes()
	if len(taken) == 0 {
		return nil
	}
	out := make([]views.Flash, 0, len(taken))
	for _, f := range taken {
		if flash, ok := f.(views.Flash); ok {
			out = append(out, flash)
		}
	}
	_ = sess.Save(r, w)
	return out
}
