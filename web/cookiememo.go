package web

import (
	"strings"
	"sync"
	"time"
)

// maxMemoCookies bounds the cookies cookieMemo keeps (a signed-in browser
// each, about a hundred bytes each); past it the memo starts again empty.
const maxMemoCookies = 4096

// cookieMemo keeps the token of each session cookie value whose signature
// was checked, so a browser's next requests with the same cookie skip the
// base64 and the MAC. It keeps only what the signature vouched for (a forged
// value never enters) and the issue date, so the cookie's age is judged on
// every request as before. Whether the session is live is never its to say:
// the token still goes to the staff service on every request, which refuses a
// revoked or expired session exactly as it would without the memo.
type cookieMemo struct {
	mu sync.RWMutex
	m  map[string]memoCookie
}

type memoCookie struct {
	token  string
	issued time.Time
}

func newCookieMemo() *cookieMemo { return &cookieMemo{m: map[string]memoCookie{}} }

func (cm *cookieMemo) get(value string) (memoCookie, bool) {
	cm.mu.RLock()
	c, ok := cm.m[value]
	cm.mu.RUnlock()
	return c, ok
}

func (cm *cookieMemo) put(value string, c memoCookie) {
	cm.mu.Lock()
	if len(cm.m) >= maxMemoCookies {
		clear(cm.m)
	}
	cm.m[strings.Clone(value)] = c // not the request's header it was cut from
	cm.mu.Unlock()
}

func (cm *cookieMemo) len() int {
	cm.mu.RLock()
	defer cm.mu.RUnlock()
	return len(cm.m)
}
