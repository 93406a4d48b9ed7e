package web

import (
	"fmt"
	"net/http"

	"github.com/gorilla/sessions"

	"shipdesk/httpx"
	"shipdesk/views"
)

// cookieStore is the session layer's gorilla/sessions Store: a session's
// Values hold its token (tokenKey) and its flashes (AddFlash/Flashes), kept
// in a signed cookie by cookieCodec. Whether the session behind a token is
// live is never the cookie's to say: the staff service checks every token
// against the live sessions (kept in memory and revoked on every instance
// through the database's change feed).
type cookieStore struct {
	codec      *cookieCodec
	options    sessions.Options // over plain HTTP
	secure     sessions.Options // the same, Secure, over HTTPS
	trustProxy bool
}

// tokenKey is the Values key of the session's token.
const tokenKey = "token"

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
	v := st.codec.decode(value)
	if v.token != "" {
		s.Values[tokenKey] = v.token
	}
	for _, f := range v.flashes {
		s.AddFlash(f)
	}
	s.IsNew = len(s.Values) == 0
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
		if v.token == "" && len(v.flashes) == 0 {
			opts.MaxAge = -1
			break
		}
		if value = st.codec.encode(v); len(value) <= maxCookie {
			break
		}
		v.flashes = v.flashes[1:]
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

// valuesOf is what a session's Values hold that the cookie keeps: its token
// and its flashes, nothing else.
func valuesOf(s *sessions.Session) (cookieState, error) {
	var v cookieState
	for k, val := range s.Values {
		switch k {
		case tokenKey:
			token, ok := val.(string)
			if !ok || len(token) > 255 {
				return v, fmt.Errorf("session token %T of %d bytes", val, len(token))
			}
			v.token = token
		case flashesKey:
			list, _ := val.([]any)
			for _, f := range list {
				flash, ok := f.(views.Flash)
				if !ok {
					return v, fmt.Errorf("session flash of type %T", f)
				}
				v.flashes = append(v.flashes, flash)
			}
		default:
			return v, fmt.Errorf("session value %v: the cookie keeps only the token and flashes", k)
		}
	}
	return v, nil
}

// flashesKey is gorilla's Values key of the flashes (Session.AddFlash).
const flashesKey = "_flash"
