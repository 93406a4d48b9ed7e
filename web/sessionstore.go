package web

import (
	"fmt"
	"net/http"

	"github.com/gorilla/sessions"

	"shipdesk/httpx"
	"shipdesk/views"
)

// cookieStore is the session layer's gorilla/sessions Store: a session's ID
// is its token and its Values hold only its flashes (AddFlash/Flashes), both
// kept in a cookie that securecookie signs and encrypts (cookieCodec).
// Whether the session behind a token is live is never the cookie's to say:
// the staff service reads the session's row on every request.
type cookieStore struct {
	codec      *cookieCodec
	options    sessions.Options // over plain HTTP
	secure     sessions.Options // the same, Secure, over HTTPS
	trustProxy bool
}

// Get returns the request's session, read from its cookie once per request
// (the middleware's request state keeps it, as gorilla's registry would, at
// no cost of a new request per lookup).
func (st *cookieStore) Get(r *http.Request, name string) (*sessions.Session, error) {
	state := stateOf(r.Context())
	if s := state.session; s != nil && s.Name() == name {
		return s, nil
	}
	s, err := st.New(r, name)
	state.session = s
	return s, err
}

// New reads the session from the request's cookie; a missing, forged, old or
// malformed cookie gives a new, empty session.
func (st *cookieStore) New(r *http.Request, name string) (*sessions.Session, error) {
	s := sessions.NewSession(st, name)
	// The settings are shared and read only: Save works on a copy.
	s.Options, s.IsNew = &st.options, true
	if httpx.IsHTTPS(r, st.trustProxy) {
		s.Options = &st.secure
	}
	value, ok := httpx.CookieValue(r, name)
	if !ok {
		return s, nil
	}
	v, ok := st.codec.decode(name, value)
	if !ok {
		return s, nil
	}
	s.ID = v.ID
	for _, f := range v.Flashes {
		s.AddFlash(f)
	}
	s.IsNew = s.ID == "" && len(v.Flashes) == 0
	return s, nil
}

// Save writes the session into its cookie, or removes the cookie when the
// session holds nothing. One Set-Cookie of a name per answer: it replaces any
// set before in the same answer. Older flashes give way when the cookie would
// grow too large.
func (st *cookieStore) Save(_ *http.Request, w http.ResponseWriter, s *sessions.Session) error {
	v, err := valuesOf(s)
	if err != nil {
		return err
	}
	opts := *s.Options
	value := ""
	for {
		if v.ID == "" && len(v.Flashes) == 0 {
			opts.MaxAge = -1
			break
		}
		if value, err = st.codec.encode(s.Name(), v); err == nil {
			break
		}
		if len(v.Flashes) == 0 {
			return fmt.Errorf("session cookie: %w", err)
		}
		v.Flashes = v.Flashes[1:]
	}
	h := w.Header()
	var lines []string
	for _, line := range h["Set-Cookie"] {
		if c, err := http.ParseSetCookie(line); err != nil || c.Name != s.Name() {
			lines = append(lines, line)
		}
	}
	h["Set-Cookie"] = lines
	http.SetCookie(w, sessions.NewCookie(s.Name(), value, &opts))
	return nil
}

// valuesOf is what the cookie keeps of a session: its ID and its flashes,
// nothing else.
func valuesOf(s *sessions.Session) (cookieValue, error) {
	v := cookieValue{ID: s.ID}
	for k, val := range s.Values {
		if k != flashesKey {
			return v, fmt.Errorf("session value %v: the cookie keeps only the session's id and flashes", k)
		}
		list, _ := val.([]any)
		for _, f := range list {
			flash, ok := f.(views.Flash)
			if !ok {
				return v, fmt.Errorf("session flash of type %T", f)
			}
			v.Flashes = append(v.Flashes, flash)
		}
	}
	return v, nil
}

// flashesKey is gorilla's Values key of the flashes (Session.AddFlash).
const flashesKey = "_flash"
