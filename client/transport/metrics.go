package transport

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"shipdesk/clock"
)

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }

// Metrics counts upstream calls per interface, operation and outcome (an HTTP
// status, "transport_error" or "bad_answer") and keeps the last errors for the
// connection page. A nil *Metrics counts nothing.
type Metrics struct {
	clock  *clock.Clock // failures are dated on it
	mu     sync.Mutex
	counts map[counterKey]*Counter
	recent []Failure
}

type counterKey struct{ Interface, Op, Outcome string }

// Counter is the tally of one interface, operation and outcome.
type Counter struct {
	Interface, Op, Outcome string
	Calls                  int64
	Total                  time.Duration
}

// Failure is a recent failed call.
type Failure struct {
	At        time.Time
	Interface string
	Op        string
	Error     string
}

const keepFailures = 20

// NewMetrics returns empty counters.
// NewMetrics returns empty counters; failures are dated on clk, the dashboard's clock.
func NewMetrics(clk *clock.Clock) *Metrics {
	return &Metrics{counts: map[counterKey]*Counter{}, clock: clk}
}

func (m *Metrics) observe(iface, op, outcome string, d time.Duration, err error) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := counterKey{iface, op, outcome}
	c := m.counts[k]
	if c == nil {
		c = &Counter{Interface: iface, Op: op, Outcome: outcome}
		m.counts[k] = c
	}
	c.Calls++
	c.Total += d
	if err != nil {
		m.recent = append(m.recent, Failure{At: m.clock.Now(), Interface: iface, Op: op, Error: err.Error()})
		if len(m.recent) > keepFailures {
			m.recent = m.recent[len(m.recent)-keepFailures:]
		}
	}
}

// Counters returns a sorted copy of the counters.
func (m *Metrics) Counters() []Counter {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	out := make([]Counter, 0, len(m.counts))
	for _, c := range m.counts {
		out = append(out, *c)
	}
	m.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Interface != b.Interface {
			return a.Interface < b.Interface
		}
		if a.Op != b.Op {
			return a.Op < b.Op
		}
		return a.Outcome < b.Outcome
	})
	return out
}

// Failures returns the last failed calls, newest first, optionally of one interface.
func (m *Metrics) Failures(iface string) []Failure {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Failure
	for i := len(m.recent) - 1; i >= 0; i-- {
		if iface == "" || m.recent[i].Interface == iface {
			out = append(out, m.recent[i])
		}
	}
	return out
}

// WritePrometheus writes the counters in the Prometheus text format.
func (m *Metrics) WritePrometheus(w io.Writer) error {
	cs := m.Counters()
	if _, err := fmt.Fprintln(w, "# HELP shipdesk_upstream_calls_total Upstream calls by interface, operation and outcome.\n# TYPE shipdesk_upstream_calls_total counter"); err != nil {
		return err
	}
	for _, c := range cs {
		fmt.Fprintf(w, "shipdesk_upstream_calls_total{interface=%q,op=%q,outcome=%q} %d\n", c.Interface, c.Op, c.Outcome, c.Calls)
	}
	fmt.Fprintln(w, "# HELP shipdesk_upstream_call_seconds_total Time spent in upstream calls.\n# TYPE shipdesk_upstream_call_seconds_total counter")
	for _, c := range cs {
		fmt.Fprintf(w, "shipdesk_upstream_call_seconds_total{interface=%q,op=%q,outcome=%q} %.6f\n", c.Interface, c.Op, c.Outcome, c.Total.Seconds())
	}
	return nil
}
