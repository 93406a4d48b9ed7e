package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"hash"
	"sync"
	"time"

	"shipdesk/clock"
	"shipdesk/views"
)

// cookieCodec writes and reads the session cookie's value: the session token
// (checked against the live sessions on every request) and flash messages,
// signed with HMAC-SHA256 so nobody can forge or alter one, and dated so an
// old one, or one dated ahead of our clock, is refused.
//
// The value is base64url of: version 1 | issued (unix seconds, 8 bytes) |
// token length (1 byte) | token | for each flash: kind length (1 byte) | kind
// | text length (2 bytes) | text; followed by the 32-byte MAC of the cookie's
// name and all of that. It is not encrypted: the token is the credential
// itself and the flashes are what the page will say, so there is nothing in
// it to hide from whoever holds the cookie; the cookie is HttpOnly. Reading
// it is one MAC and no decoding of types: securecookie's gob-encoded,
// encrypted values cost more than the rest of a page.
type cookieCodec struct {
	key     []byte
	scratch sync.Pool // *macScratch
	maxAge  time.Duration
	clock   *clock.Clock // real time: a cookie's age is measured as its session's
	memo    *cookieMemo  // values already verified that carry a token only
}

// cookieSkew is how far in the future a cookie's issue time may lie: the
// clocks of instances behind one balancer differ by less. A cookie dated
// further ahead was not issued by us, whatever its signature says.
const cookieSkew = time.Minute

// maxCookie bounds the cookie's value; older flashes give way to fit.
const maxCookie = 4000

const cookieVersion = 1

func newCookieCodec(secret []byte, maxAge time.Duration, clk *clock.Clock) *cookieCodec {
	auth := sha256.Sum256(append([]byte("shipdesk session auth\x00"), secret...))
	c := &cookieCodec{key: auth[:], maxAge: maxAge, clock: clk, memo: newCookieMemo()}
	c.scratch.New = func() any { return &macScratch{mac: hmac.New(sha256.New, c.key)} }
	return c
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

// decode reads a cookie's value; a forged, malformed, old or future one
// holds nothing.
func (c *cookieCodec) decode(value string) cookieState {
	if len(value) > maxCookie {
		return cookieState{}
	}
	if m, ok := c.memo.get(value); ok {
		if !c.fresh(m.issued) {
			return cookieState{}
		}
		return cookieState{token: m.token}
	}
	sc := c.scratch.Get().(*macScratch)
	defer c.scratch.Put(sc)
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
	if !c.fresh(issued) {
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
	if len(st.flashes) == 0 && st.token != "" { // a cookie with flashes is read once
		c.memo.put(value, memoCookie{token: st.token, issued: issued})
	}
	return st
}

// fresh says whether a cookie issued then is neither too old nor dated ahead
// of our clock.
func (c *cookieCodec) fresh(issued time.Time) bool {
	age := c.clock.Since(issued)
	return age <= c.maxAge && age >= -cookieSkew
}

// encode writes a cookie's value, dated now.
func (c *cookieCodec) encode(st cookieState) string {
	p := make([]byte, 0, 1+8+1+len(st.token)+64)
	p = append(p, cookieVersion)
	p = binary.BigEndian.AppendUint64(p, uint64(c.clock.Now().Unix()))
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
	sc := c.scratch.Get().(*macScratch)
	p = sc.sign(p, p)
	c.scratch.Put(sc)
	return base64.RawURLEncoding.EncodeToString(p)
}
