package web

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gorilla/sessions"

	"shipdesk/httpx"
	"shipdesk/views"
)

const cookieName = "shipdesk"

// Sessions keeps the session cookie with gorilla/sessions: the cookie is signed
// and encrypted and holds only the session token (checked against the database on
// every request) and flash messages.
type Sessions struct {
	store      *sessions.CookieStore
	maxAge     time.Duration
	trustProxy bool
}

// NewSessions derives the signing and encryption keys from secret.
func NewSessions(secret []byte, maxAge time.Duration, trustProxy bool) (*Sessions, error) {
	if len(secret) < 32 {
		return nil, fmt.Errorf("session key must be at least 32 bytes, got %d", len(secret))
	}
	auth := sha256.Sum256(append([]byte("shipdesk session auth\x00"), secret...))
	enc := sha256.Sum256(append([]byte("shipdesk session enc\x00"), secret...))
	store := sessions.NewCookieStore(auth[:], enc[:])
	store.MaxAge(int(maxAge.Seconds()))
	return &Sessions{store: store, maxAge: maxAge, trustProxy: trustProxy}, nil
}

// get returns the session with safe cookie options for this request: gorilla's
// defaults are neither HttpOnly nor SameSite nor Secure.
func (s *Sessions) get(r *http.Request) *sessions.Session {
	sess, _ := s.store.Get(r, cookieName) // a bad or old cookie gives a new session
	sess.Options = &sessions.Options{
		Path:     "/",
		MaxAge:   int(s.maxAge.Seconds()),
		HttpOnly: true,
		Secure:   httpx.IsHTTPS(r, s.trustProxy),
		SameSite: http.SameSiteLaxMode,
	}
	return sess
}

// Token returns the session token of the request, empty when there is none.
func (s *Sessions) Token(r *http.Request) string {
	t, _ := s.get(r).Values["token"].(string)
	return t
}

// Start stores the token of a new session (replacing any old one).
func (s *Sessions) Start(w http.ResponseWriter, r *http.Request, token string) error {
	sess := s.get(r)
	sess.Values = map[any]any{"token": token}
	if err := sess.Save(r, w); err != nil {
		return fmt.Errorf("save session cookie: %w", err)
	}
	return nil
}

// End removes the token, keeping the cookie for a flash.
func (s *Sessions) End(w http.ResponseWriter, r *http.Request) error {
	sess := s.get(r)
	delete(sess.Values, "token")
	if err := sess.Save(r, w); err != nil {
		return fmt.Errorf("clear session cookie: %w", err)
	}
	return nil
}

// AddFlash queues a message for the next page.
func (s *Sessions) AddFlash(w http.ResponseWriter, r *http.Request, f views.Flash) {
	sess := s.get(r)
	sess.AddFlash(f.Kind + "|" + f.Text)
	_ = sess.Save(r, w)
}

// TakeFlashes returns and removes the queued messages.
func (s *Sessions) TakeFlashes(w http.ResponseWriter, r *http.Request) []views.Flash {
	sess := s.get(r)
	raw := sess.Flashes()
	if len(raw) == 0 {
		return nil
	}
	_ = sess.Save(r, w)
	out := make([]views.Flash, 0, len(raw))
	for _, x := range raw {
		str, _ := x.(string)
		kind, text, ok := strings.Cut(str, "|")
		if ok {
			out = append(out, views.Flash{Kind: kind, Text: text})
		}
	}
	return out
}
