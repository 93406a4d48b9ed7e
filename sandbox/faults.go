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
)

// Fault is an injected misbehaviour for requests whose path starts with Path.
type Fault struct {
	Path          string  `json:"path"`            // prefix; "" matches every interface path
	LatencyMS     int     `json:"latency_ms"`      // added before answering
	LatencyMaxMS  int     `json:"latency_max_ms"`  // when above latency_ms: each request waits a random time between the two
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
		ms := x.LatencyMS
		if x.LatencyMaxMS > x.LatencyMS {
			ms += f.rng.IntN(x.LatencyMaxMS - x.LatencyMS + 1)
		}
		// One roll decides how a request fails, so the shares add up: 15 %
		// dropped before and 15 % after processing are 30 % dropped in all.
		r := f.rng.Float64()
		drop = x.DropRate >= 1 || r < x.DropRate
		fail = !drop && (x.ErrorRate >= 1 || r < x.DropRate+x.ErrorRate)
		dropAfter = !drop && !fail && (x.DropAfterRate >= 1 || r < x.DropRate+x.ErrorRate+x.DropAfterRate)
		return time.Duration(ms) * time.Millisecond, fail, drop, dropAfter
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
			// A slow service keeps working when the caller stops waiting: the
			// order it creates late is what exactly-once must survive. The body
			// is read first, as a service would, so it outlives the connection.
			body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 16<<20))
			if err != nil {
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			time.Sleep(latency)
			if r.Context().Err() != nil {
				if !drop && !fail {
					next.ServeHTTP(discard{header: http.Header{}}, r.WithContext(context.WithoutCancel(r.Context())))
				}
				return
			}
		}
		switch {
		case drop:
			hangUp(w)
		case fail:
			apijson.WriteProblem(w, r, apijson.Fail(http.StatusServiceUnavailable, msgUnavailable))
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
