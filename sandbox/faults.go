package sandbox

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"shipdesk/sandbox/apijson"
)

// Fault is an injected misbehaviour for requests whose path starts with Path.
type Fault struct {
	Path          string  `json:"path"`            // prefix; "" matches every interface path
	LatencyMS     int     `json:"latency_ms"`      // added before answering
	ErrorRate     float64 `json:"error_rate"`      // share answered 503
	DropRate      float64 `json:"drop_rate"`       // share whose connection is closed unanswered, unprocessed
	DropAfterRate float64 `json:"drop_after_rate"` // share processed, then closed unanswered (outcome unknown)
	Count         int     `json:"count"`           // applies to the next Count matching requests; 0: until cleared
	Used          int     `json:"used"`            // how many requests it has applied to
}

type faults struct {
	mu   sync.Mutex
	list []*Fault
	rng  *rand.Rand
}

func newFaults(seed int64) *faults {
	return &faults{rng: rand.New(rand.NewPCG(uint64(seed), 0xfa17))}
}

func (f *faults) set(x Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.list = append(f.list, &x)
}

func (f *faults) clear() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.list = nil
}

func (f *faults) snapshot() []Fault {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []Fault{}
	for _, x := range f.list {
		out = append(out, *x)
	}
	return out
}

// pick decides what happens to a request: the fault that applies (consuming
// one of its count) and the rolls for each misbehaviour.
func (f *faults) pick(path string) (latency time.Duration, fail, drop, dropAfter bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, x := range f.list {
		if !strings.HasPrefix(path, x.Path) {
			continue
		}
		x.Used++
		if x.Count > 0 && x.Used >= x.Count {
			f.list = append(f.list[:i:i], f.list[i+1:]...)
		}
		roll := func(rate float64) bool { return rate >= 1 || (rate > 0 && f.rng.Float64() < rate) }
		return time.Duration(x.LatencyMS) * time.Millisecond, roll(x.ErrorRate), roll(x.DropRate), roll(x.DropAfterRate)
	}
	return 0, false, false, false
}

// wrap applies faults to the interfaces, never to the controls themselves.
func (f *faults) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/sandbox/") {
			next.ServeHTTP(w, r)
			return
		}
		latency, fail, drop, dropAfter := f.pick(r.URL.Path)
		if latency > 0 {
			select {
			case <-time.After(latency):
			case <-r.Context().Done():
				return
			}
		}
		switch {
		case drop:
			hangUp(w)
		case fail:
			apijson.WriteProblem(w, apijson.Fail(http.StatusServiceUnavailable, "Service temporarily unavailable (injected fault)"))
		case dropAfter:
			next.ServeHTTP(discard{header: http.Header{}}, r)
			hangUp(w)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// hangUp closes the connection without an answer.
func hangUp(w http.ResponseWriter) {
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		conn.Close()
		return
	}
	panic(http.ErrAbortHandler)
}

// discard takes an answer nobody will receive.
type discard struct{ header http.Header }

func (d discard) Header() http.Header         { return d.header }
func (d discard) Write(b []byte) (int, error) { return len(b), nil }
func (d discard) WriteHeader(int)             {}
