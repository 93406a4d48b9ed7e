package handlers

import (
	"context"
	"net/http"
	"time"

	"shipdesk/upstream"
	"shipdesk/views"
)

// Upstream is the connection to the shipping service (upstream.Clients).
type Upstream interface {
	Check(ctx context.Context) []upstream.Result
}

// Connection checks both keys now and shows the base URLs, the counters and the
// last errors. Each visit checks again: the check is two cheap reads.
func (h *Handlers) Connection(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	var checks []views.ConnectionCheck
	for _, c := range h.Upstream.Check(ctx) {
		checks = append(checks, views.ConnectionCheck{Interface: c.Interface, BaseURL: c.BaseURL, OK: c.OK, Message: c.Message, Took: c.Took.Round(time.Millisecond).String()})
	}
	var counts []views.CallCount
	for _, c := range h.Metrics.Counters() {
		counts = append(counts, views.CallCount{Interface: c.Interface, Op: c.Op, Outcome: c.Outcome, Calls: c.Calls,
			Average: (c.Total / time.Duration(max(c.Calls, 1))).Round(time.Millisecond).String()})
	}
	var failures []views.CallFailure
	for _, f := range h.Metrics.Failures("") {
		failures = append(failures, views.CallFailure{When: views.FormatTime(f.At), Interface: f.Interface, Op: f.Op, Error: f.Error})
	}
	var simulatedNow string
	if h.Controls != nil {
		if clock, err := h.Controls.Now(ctx); err == nil {
			simulatedNow = views.FormatTime(clock.Now)
		}
	}
	carriers, err := h.ShipReads.Carriers(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	p := h.page(w, r, views.T(r.Context(), "connection.heading"), "connection")
	h.render(w, r, http.StatusOK, views.Connection(p, h.Sandbox, simulatedNow, checks, counts, failures, carrierRows(carriers)))
}

// Metrics writes the upstream counters in the Prometheus text format.
func (h *Handlers) MetricsText(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = h.Metrics.WritePrometheus(w)
}
