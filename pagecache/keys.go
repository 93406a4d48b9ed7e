package pagecache

import (
	"bytes"
	"io"

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

// AppendFresh appends body to dst with a fresh request key in each spot;
// body itself is left as it is (others may be writing it out).
func AppendFresh(dst, body []byte, spots []KeySpot) []byte {
	start := len(dst)
	dst = append(dst, body...)
	var few [4]string
	fresh := few[:0]
	for _, s := range spots {
		for len(fresh) <= s.Key {
			fresh = append(fresh, "")
		}
		if fresh[s.Key] == "" {
			fresh[s.Key] = requestkey.New()
		}
		copy(dst[start+s.At:start+s.At+keyLen], fresh[s.Key])
	}
	return dst
}

// Write writes a kept answer's body, with fresh keys, to w. Its buffers
// are the cache's, so a copy served costs no new page-sized buffer.
func (c *Cache) Write(w io.Writer, e *Entry) (int64, error) {
	if len(e.Keys) == 0 {
		n, err := w.Write(e.Body)
		return int64(n), err
	}
	buf, ok := c.bodies.Get().(*[]byte)
	if !ok {
		buf = new([]byte)
	}
	b := AppendFresh((*buf)[:0], e.Body, e.Keys)
	n, err := w.Write(b)
	if cap(b) <= 1<<20 {
		*buf = b[:0]
		c.bodies.Put(buf)
	}
	return int64(n), err
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
