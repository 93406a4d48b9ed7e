package shoptet

import (
	"crypto/subtle"
	"fmt"
	"math"
	"mime"
	"net/http"
	"strings"
	"sync"
	"time"
)

// limiter counts each token's connections in flight and keeps its leaky
// bucket: Shoptet's nginx refuses a token's fourth connection at once, and
// its rate limiter refuses a request that finds the bucket full.
type limiter struct {
	mu       sync.Mutex
	inFlight map[string]int
	level    map[string]float64
	at       map[string]time.Time // when level was last leaked
}

func newLimiter() *limiter { l := &limiter{}; l.reset(); return l }

func (l *limiter) reset() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inFlight, l.level, l.at = map[string]int{}, map[string]float64{}, map[string]time.Time{}
}

// enter takes one of the token's connections; false when all are taken.
func (l *limiter) enter(token string, max int) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inFlight[token] >= max {
		return false
	}
	l.inFlight[token]++
	return true
}

func (l *limiter) leave(token string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.inFlight[token]--
}

// drip adds a request's drop to the token's bucket at now (simulated time):
// the level after it, or, when the bucket has no room, the level and how
// long until it has.
func (l *limiter) drip(token string, now time.Time, st Settings) (level float64, wait time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	level = l.level[token]
	if last, ok := l.at[token]; ok && now.After(last) {
		level = math.Max(0, level-now.Sub(last).Seconds()*st.LeakPerSecond)
	}
	l.at[token] = now
	l.level[token] = level
	if level+1 > st.Bucket {
		if st.LeakPerSecond <= 0 {
			return level, time.Hour
		}
		return level, time.Duration(math.Ceil((level+1-st.Bucket)/st.LeakPerSecond)) * time.Second
	}
	l.level[token] = level + 1
	return level + 1, 0
}

// InFlight is how many of token's requests the shop is answering now.
func (s *Service) InFlight(token string) int {
	s.limit.mu.Lock()
	defer s.limit.mu.Unlock()
	return s.limit.inFlight[token]
}

// api guards a route as Shoptet does: the private token, its rights (write:
// the route changes the shop), its connections, its bucket, the shop's own
// time to answer; then the route.
func (s *Service) api(write bool, h func(http.ResponseWriter, *http.Request) *problem) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if p := s.guard(w, r, write, h); p != nil {
			writeProblem(w, r, p)
		}
	}
}

func (s *Service) guard(w http.ResponseWriter, r *http.Request, write bool, h func(http.ResponseWriter, *http.Request) *problem) *problem {
	token := r.Header.Get("Shoptet-Private-Api-Token")
	if token == "" {
		return fail(http.StatusUnauthorized, "missing-access-token", "unknown", "Missing access token. Please add `Shoptet-Private-Api-Token` header to your request.")
	}
	full, readOnly := same(token, Token), same(token, ReadOnlyToken)
	if !full && !readOnly {
		return fail(http.StatusUnauthorized, "invalid-token", "access-token", "Invalid access token.")
	}
	if write && !full {
		return fail(http.StatusForbidden, "invalid-token-no-rights", "access-token", "Your access token \"%s..%s\" has no defined rights for this resource.", token[:3], token[len(token)-3:])
	}
	st := s.Settings()
	if !s.limit.enter(token, st.Connections) {
		p := fail(http.StatusTooManyRequests, "too-many-connections", "access-token", "Too many connections at once for this token (at most %d).", st.Connections)
		p.header = map[string]string{"Retry-After": "1"}
		return p
	}
	defer s.limit.leave(token)
	now := s.clock.Now()
	level, wait := s.limit.drip(token, now, st)
	w.Header().Set("X-RateLimit-Bucket-Filling", fmt.Sprintf("%d/%d", int(math.Ceil(level)), int(st.Bucket)))
	if wait > 0 {
		p := fail(http.StatusTooManyRequests, "too-many-requests", "access-token", "The rate limit bucket is full. Try again after the time in Retry-After.")
		p.header = map[string]string{"Retry-After": now.Add(wait).UTC().Format(http.TimeFormat)}
		return p
	}
	if st.LatencyMS > 0 {
		select {
		case <-time.After(time.Duration(st.LatencyMS) * time.Millisecond):
		case <-r.Context().Done():
			return nil
		}
	}
	if r.Method != http.MethodGet && r.ContentLength != 0 && !jsonType(r.Header.Get("Content-Type")) {
		return fail(http.StatusUnsupportedMediaType, "unsupported-content-type", "Content-Type", "Send the body as application/vnd.shoptet.v1.0 or application/json.")
	}
	return h(w, r)
}

// jsonType accepts Shoptet's own media type, JSON, and none.
func jsonType(ct string) bool {
	if ct == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasPrefix(mt, "application/vnd.shoptet."))
}

func same(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// Settings are the limits in force.
func (s *Service) Settings() Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings
}

// SetSettings changes the limits (a test raises the bucket for a large sync,
// or slows the shop down to hold its connections).
func (s *Service) SetSettings(st Settings) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settings = st
}

// locked reports whether the same write came within the lock's seconds
// (simulated time), and locks it from now on when it did not.
func (s *Service) locked(key string, now time.Time) bool {
	if until, ok := s.locks[key]; ok && now.Before(until) {
		return true
	}
	for k, until := range s.locks {
		if !now.Before(until) {
			delete(s.locks, k)
		}
	}
	s.locks[key] = now.Add(time.Duration(s.settings.LockSeconds) * time.Second)
	return false
}

func lockedProblem() *problem {
	return fail(http.StatusLocked, "locked", "lock", "The same request is being processed. Try again later.")
}
