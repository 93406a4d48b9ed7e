package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash"
	"net/http"
	"shipdesk/clock"
	"slices"
	"sync"
	"time"

	"shipdesk/httpx"
	"shipdesk/views"
)

const cookieName = "shipdesk"

// Sessions keeps the session cookie: the session token (checked against the
// live sessions on every request) and flash messages, signed with HMAC-SHA256
// so nobody can forge or alter one, and dated so an old one is refused.
//
// The value is base64url of: version 1 | issued (unix seconds, 8 bytes) |
// token length (1 byte) | token | for each flash: kind length (1 byte) | kind
// | text length (2 bytes) | text; followed by the 32-byte MAC of the cookie's
// name and all of that. It is not encrypted: the token is the credential
// itself and the flashes are what the page will say, so there is nothing in
// it to hide from whoever holds the cookie; the cookie is HttpOnly. Reading
// it is one MAC and no decoding of types (gorilla's gob-encoded, encrypted
// cookies cost more than the rest of a page).
type Sessions struct {
	key        []byte
	scratch    sync.Pool // *macScratch
	maxAge     time.Duration
	trustProxy bool
	clock      *clock.Clock // real time: a cookie's age is measured as its session's
}

// cookieSkew is how far in the future a cookie's issue time may lie: the
// clocks of instances behind one balancer differ by less. A cookie dated
// further ahead was not issued by us, whatever its signature says.
const cookieSkew = time.Minute

// maxCookie bounds the cookie's value; older flashes give way to fit.
const maxCookie = 4000

const cookieVersion = 1

// NewSessions derives the signing key from secret.
// Cookies are dated and aged on clk, real time like the sessions they carry.
func NewSessions(secret []byte, maxAge time.Duration, trustProxy bool, clk *clock.Clock) (*Sessions, error) {
	if len(secret) < 32 {
		return nil, fmt.Errorf("session key must be at least 32 bytes, got %d", len(secret))
	}
	auth := sha256.Sum256(append([]byte("shipdesk session auth\x00"), secret...))
	s := &Sessions{key: auth[:], maxAge: maxAge, trustProxy: trustProxy, clock: clk}
	s.scratch.New = func() any { return &macScratch{mac: hmac.New(sha256.New, s.key)} }
	return s, nil
}

// macScratch is what reading a cookie needs, kept for the next request.
type macScratch struct {
	mac hash.Hash // HMAC-SHA256 with the key
	buf [192]byte // a decoded cookie without flashes fits
	sum [sha256.Size]byte
}

var macPrefix = []byte(cookieName + "\x00")

// cookieState is what the cookie holds.
type cookieState struct {
	token   string
	flashes []views.Flash
}

// sign appends the MAC of the cookie's name and payload to out.
func (sc *macScratch) sign(payload []byte, out []byte) []byte {
	sc.mac.Reset()
	sc.mac.Write(macPrefix)
	sc.mac.Write(payload)
	return sc.mac.Sum(out)
}

// read returns what the request's cookie holds; a missing, forged, malformed
// or old cookie holds nothing.
func (s *Sessions) read(r *http.Request) cookieState {
	state := stateOf(r.Context())
	if !state.cookieRead {
		state.cookie, state.cookieRead = cookieState{}, true
		if c, err := r.Cookie(cookieName); err == nil {
			state.cookie = s.decode(c.Value)
		}
	}
	st := state.cookie
	st.flashes = slices.Clip(st.flashes) // an append makes a copy
	return st
}

// current is what the cookie holds after this answer: what the answer sets
// already (a token cleared by End, a flash added), else the request's.
func (s *Sessions) current(w http.ResponseWriter, r *http.Request) cookieState {
	for _, line := range slices.Backward(w.Header()["Set-Cookie"]) {
		if c, err := http.ParseSetCookie(line); err == nil && c.Name == cookieName {
			return s.decode(c.Value)
		}
	}
	return s.read(r)
}

func (s *Sessions) decode(value string) cookieState {
	if len(value) > maxCookie {
		return cookieState{}
	}
	sc := s.scratch.Get().(*macScratch)
	defer s.scratch.Put(sc)
	buf := sc.buf[:]
	if need := base64.RawURLEncoding.DecodedLen(len(value)); need > len(buf) {
		buf = make([]byte, need)
	}
	n, err := base64.RawURLEncoding.Decode(buf, []byte(value))
	if err != nil || n < 1+8+1+sha256.Size {
		return cookieState{}
	}
	payload, sum := buf[:n-sha256.Size], buf[n-sha256.Size:n]
	if !hmac.Equal(sc.sign(payload, sc.sum[:0]), sum) || payload[0] != cookieVersion {
		return cookieState{}
	}
	issued := time.Unix(int64(binary.BigEndian.Uint64(payload[1:9])), 0)
	if age := s.clock.Since(issued); age > s.maxAge || age < -cookieSkew {
		return cookieState{}
	}
	p := payload[9:]
	tl := int(p[0])
	if len(p) < 1+tl {
		return cookieState{}
	}
	st := cookieState{token: string(p[1 : 1+tl])}
	for p = p[1+tl:]; len(p) > 0; {
		kl := int(p[0])
		if len(p) < 1+kl+2 {
			return cookieState{}
		}
		kind := string(p[1 : 1+kl])
		p = p[1+kl:]
		tl := int(binary.BigEndian.Uint16(p))
		if len(p) < 2+tl {
			return cookieState{}
		}
		st.flashes = append(st.flashes, views.Flash{Kind: kind, Text: string(p[2 : 2+tl])})
		p = p[2+tl:]
	}
	return st
}

// write sets the cookie to st (or removes it when st holds nothing), with
// safe options: HttpOnly, SameSite=Lax, Secure over HTTPS.
func (s *Sessions) write(w http.ResponseWriter, r *http.Request, st cookieState) error {
	if len(st.token) > 255 {
		return fmt.Errorf("session token of %d bytes", len(st.token))
	}
	c := &http.Cookie{Name: cookieName, Path: "/", MaxAge: int(s.maxAge.Seconds()), HttpOnly: true,
		Secure: httpx.IsHTTPS(r, s.trustProxy), SameSite: http.SameSiteLaxMode}
	for {
		if st.token == "" && len(st.flashes) == 0 {
			c.MaxAge = -1
			break
		}
		if v := s.encode(st); len(v) <= maxCookie {
			c.Value = v
			break
		}
		st.flashes = st.flashes[1:] // the oldest gives way
	}
	// One Set-Cookie of ours per answer: this one replaces any set before.
	h := w.Header()
	var lines []string
	for _, line := range h["Set-Cookie"] {
		if c, err := http.ParseSetCookie(line); err != nil || c.Name != cookieName {
			lines = append(lines, line)
		}
	}
	h["Set-Cookie"] = lines
	http.SetCookie(w, c)
	return nil
}

func (s *Sessions) encode(st cookieState) string {
	p := make([]byte, 0, 1+8+1+len(st.token)+64)
	p = append(p, cookieVersion)
	p = binary.BigEndian.AppendUint64(p, uint64(s.clock.Now().Unix()))
	p = append(p, byte(len(st.token)))
	p = append(p, st.token...)
	for _, f := range st.flashes {
		kind, text := f.Kind, f.Text
		if len(kind) > 255 {
			kind = kind[:255]
		}
		if len(text) > maxCookie {
			text = text[:maxCookie]
		}
		p = append(p, byte(len(kind)))
		p = append(p, kind...)
		p = binary.BigEndian.AppendUint16(p, uint16(len(text)))
		p = append(p, text...)
	}
	sc := s.scratch.Get().(*macScratch)
	p = sc.sign(p, p)
	s.scratch.Put(sc)
	return base64.RawURLEncoding.EncodeToString(p)
}

// Token returns the session token of the request, empty when there is none.
func (s *Sessions) Token(r *http.Request) string { return s.read(r).token }

// Start stores the token of a new session (replacing any old one).
func (s *Sessions) Start(w http.ResponseWriter, r *http.Request, token string) error {
	if err := s.write(w, r, cookieState{token: token}); err != nil {
		return fmt.Errorf("save session cookie: %w", err)
	}
	return nil
}

// End removes the token, keeping the cookie for a flash.
func (s *Sessions) End(w http.ResponseWriter, r *http.Request) error {
	st := s.current(w, r)
	st.token = ""
	if err := s.write(w, r, st); err != nil {
		return fmt.Errorf("clear session cookie: %w", err)
	}
	return nil
}

// AddFlash queues a message for the next page. Within one answer, flashes
// added earlier (and a token set by Start or cleared by End) are kept.
func (s *Sessions) AddFlash(w http.ResponseWriter, r *http.Request, f views.Flash) {
	st := s.current(w, r)
	st.flashes = append(st.flashes, f)
	_ = s.write(w, r, st)
}

// TakeFlashes returns and removes the queued messages.
func (s *Sessions) TakeFlashes(w http.ResponseWriter, r *http.Request) []views.Flash {
	st := s.current(w, r)
	if len(st.flashes) == 0 {
		return nil
	}
	out := st.flashes
	st.flashes = nil
	_ = s.write(w, r, st)
	return out
}
