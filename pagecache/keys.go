package pagecache

import (
	"bytes"

	"shipdesk/requestkey"
)

// keyLen is the length of a request key (requestkey: a UUID, lower-case hex).
const keyLen = 36

// KeySpot is where a request key its render made stands in a kept body:
// Key numbers the key, so a key written twice gets the same fresh one twice.
type KeySpot struct{ At, Key int }

// KeySpots finds where each of minted stands in body. ok is false when body
// holds something shaped like a request key that the render did not make
// (one that would go to everyone the copy is served to): such a page is not
// kept.
func KeySpots(body []byte, minted []string) (spots []KeySpot, ok bool) {
	last := 0
	for p := 0; p < len(body); {
		j := bytes.IndexByte(body[p:], '-')
		if j < 0 {
			break
		}
		p += j
		start := p - 8
		if start < last || !looksLikeKey(body[start:]) {
			p++
			continue
		}
		n := mintedIndex(body[start:start+keyLen], minted)
		if n < 0 {
			return nil, false
		}
		spots = append(spots, KeySpot{At: start, Key: n})
		last = start + keyLen
		p = last
	}
	return spots, true
}

// WithFreshKeys is body with a fresh request key in each spot; body itself
// is left as it is (others may be writing it out).
func WithFreshKeys(body []byte, spots []KeySpot) []byte {
	if len(spots) == 0 {
		return body
	}
	out := bytes.Clone(body)
	fresh := map[int]string{}
	for _, s := range spots {
		k, ok := fresh[s.Key]
		if !ok {
			k = requestkey.New()
			fresh[s.Key] = k
		}
		copy(out[s.At:s.At+keyLen], k)
	}
	return out
}

func mintedIndex(k []byte, minted []string) int {
	for i, m := range minted {
		if string(k) == m {
			return i
		}
	}
	return -1
}

// looksLikeKey says whether b begins with the 8-4-4-4-12 hex shape of a key.
func looksLikeKey(b []byte) bool {
	if len(b) < keyLen {
		return false
	}
	for i := range keyLen {
		switch i {
		case 8, 13, 18, 23:
			if b[i] != '-' {
				return false
			}
		default:
			if !isHex(b[i]) {
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
