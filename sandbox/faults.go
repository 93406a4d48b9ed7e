package sandbox

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"time"

	"shipdesk/sandbox/apijson"
	"shipdesk/sandbox/shoptet"
)

// Fault is an injected misbehaviour for requests whose path starts with Path.
type Fault struct {
	Path          string  `json:"path"`            // prefix; "" matches every interface path
	LatencyMS     int     `json:"latency_ms"`      // added before answering
	LatencyMaxMS  int     `json:"latency_max_ms"`  // when above latency_ms: each request waits a random time between the two
	ErrorRate     float64 `json:"error_rate"`      // share answered 503
	DropRate      float64 `json:"drop_rate"`       // share whose connection is closed unanswered, unprocessed
	DropAfterRate float64 `json:"drop_after_rate"` // share processed, then closed unanswered (outcome unknown)
	Hold          bool    `json:"hold"`            // the answer waits until the faults are cleared or the caller gives up (a hung service)
	Count         int     `json:"count"`           // applies to the next Count matching requests; 0: until cleared
	Used          int     `json:"used"`            // how many requests it has applied to
}

type faults struct {
	mu      sync.Mutex
	list    []*Fault
	rng     *rand.Rand
	cleared chan struct{} // closed and replaced by each clear: the held answers go
}

func newFaults(seed int64) *faults {
	return &faults{rng: rand.New(rand.NewPCG(uint64(seed), 0xfa17)), cleared: make(chan struct{})}
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
	close(f.cleared)
	f.cleared = make(chan struct{})
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

// verdict is what a fault does to one request.
type verdict struct {
	latency               time.Duration
	held                  <-chan struct{} // nil: not held; else answer when it closes
	fail, drop, dropAfter bool
}

// pick decides what happens to a request: the fault that applies (consuming
// one of its count) and the rolls for each misbehaviour.
func (f *faults) pick(path string) verdict {
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
		ms := x.LatencyMS
		if x.LatencyMaxMS > x.LatencyMS {
			ms += f.rng.IntN(x.LatencyMaxMS - x.LatencyMS + 1)
		}
		v := verdict{latency: time.Duration(ms) * time.Millisecond}
		if x.Hold {
			v.held = f.cleared
		}
		// One roll decides how a request fails, so the shares add up: 15 %
		// dropped before and 15 % after processing are 30 % dropped in all.
		r := f.rng.Float64()
		v.drop = x.DropRate >= 1 || r < x.DropRate
		v.fail = !v.drop && (x.ErrorRate >= 1 || r < x.DropRate+x.ErrorRate)
		v.dropAfter = !v.drop && !v.fail && (x.DropAfterRate >= 1 || r < x.DropRate+x.ErrorRate+x.DropAfterRate)
		return v
	}
	return verdict{}
}

// wrap applies faults to the interfaces, never to the controls themselves.
func (f *faults) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/sandbox/") {
			next.ServeHTTP(w, r)
			return
		}
		v := f.pick(r.URL.Path)
		if v.latency > 0 || v.held != nil {
			// A slow service keeps working when the caller stops waiting: the
			// order it creates late is what exactly-once must survive. The body
			// is read first, as a service would, so it outlives the connection.
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 16<<20))
			if err != nil {
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			time.Sleep(v.latency)
			if v.held != nil {
				select {
				case <-v.held:
				case <-r.Context().Done():
				}
			}
			if r.Context().Err() != nil {
				if !v.drop && !v.fail {
					next.ServeHTTP(discard{header: http.Header{}}, r.WithContext(context.WithoutCancel(r.Context())))
				}
				return
			}
		}
		switch {
		case v.drop:
			hangUp(w)
		case v.fail && strings.HasPrefix(r.URL.Path, "/shoptet/"):
			shoptet.WriteUnavailable(w, r) // in the shop's own error shape
		case v.fail:
			apijson.WriteProblem(w, r, apijson.Fail(http.StatusServiceUnavailable, msgUnavailable))
		case v.dropAfter:
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
