package web

import (
	"crypto/sha256"
	"time"

	"github.com/gorilla/securecookie"

	"shipdesk/clock"
	"shipdesk/views"
)

// cookieValue is what the session cookie holds: the session's id (its
// token, checked against the session's row on every request), when the
// cookie was written on our clock, and the flashes waiting for the next
// page. Plain types only, so gob needs nothing registered.
type cookieValue struct {
	ID      string
	Issued  int64 // unix seconds
	Flashes []views.Flash
}

// cookieCodec signs and encrypts the cookie with securecookie, with keys
// derived from the session key, and dates it: one too old, or dated ahead of
// our clock, is refused even when its signature is good.
type cookieCodec struct {
	codecs []securecookie.Codec
	maxAge time.Duration
	clock  *clock.Clock // real time: a cookie ages as its session does
}

// cookieSkew is how far in the future a cookie's date may lie: the clocks of
// instances behind one balancer differ by less. securecookie's own date
// refuses only old cookies, so this check is ours.
const cookieSkew = time.Minute

// maxCookie bounds the cookie's value; older flashes give way to fit.
const maxCookie = 4000

func newCookieCodec(secret []byte, maxAge time.Duration, clk *clock.Clock) *cookieCodec {
	hashKey := sha256.Sum256(append([]byte("shipdesk session hash\x00"), secret...))
	blockKey := sha256.Sum256(append([]byte("shipdesk session block\x00"), secret...))
	codecs := securecookie.CodecsFromPairs(hashKey[:], blockKey[:])
	for _, c := range codecs {
		c.(*securecookie.SecureCookie).MaxAge(int(maxAge / time.Second)).MaxLength(maxCookie)
	}
	return &cookieCodec{codecs: codecs, maxAge: maxAge, clock: clk}
}

// encode writes the cookie named name holding v, dated now.
func (c *cookieCodec) encode(name string, v cookieValue) (string, error) {
	v.Issued = c.clock.Now().Unix()
	return securecookie.EncodeMulti(name, v, c.codecs...)
}

// decode reads the cookie named name; false for a forged, malformed, old or
// future one.
func (c *cookieCodec) decode(name, value string) (cookieValue, bool) {
	var v cookieValue
	if err := securecookie.DecodeMulti(name, value, &v, c.codecs...); err != nil {
		return cookieValue{}, false
	}
	age := c.clock.Since(time.Unix(v.Issued, 0))
	if age > c.maxAge || age < -cookieSkew {
		return cookieValue{}, false
	}
	return v, true
}
