package handlers

import (
	"context"
	"io"
	"net/http"
	"time"

	"shipdesk/i18n"
	"shipdesk/upstream"
	"shipdesk/views"
)

// Upstream is the connection to the shipping service (upstream.Clients).
// Link is the connection to the shipping service as the pages see it, in
// plain values (upstream.Clients): the key check, the call counters, and the
// sandbox's clock when the dashboard talks to the simulator.
type Link interface {
	Check(ctx context.Context) []upstream.Result
	Counters() []upstream.Counter
	Failures() []upstream.Failure
	WritePrometheus(w io.Writer) error
	IsSandbox() bool
	SimulatedNow(ctx context.Context) (time.Time, error)
	AdvanceClock(ctx context.Context, minutes int) (time.Time, error)
	StoredBank(ctx context.Context) (upstream.Bank, error)
	Faults(ctx context.Context) (upstream.Faults, error)
	SetFaults(ctx context.Context, f upstream.Faults) error
}

// Connection checks both keys now and shows the base URLs, the counters and the
// last errors. Each visit checks again: the check is two cheap reads.
func (h *Handlers) Connection(w http.ResponseWriter, r *http.Request) {
	h.connectionPage(w, r, http.StatusOK, views.Form{}, nil)
}

// connectionPage draws the Connection page with the shop's connection form
// as typed and the shop's forms' problems (a refused post's).
func (h *Handlers) connectionPage(w http.ResponseWriter, r *http.Request, status int, connect views.Form, shopErrors map[string]string) {
	ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
	defer cancel()
	var checks []views.ConnectionCheck
	for _, c := range h.Link.Check(ctx) {
		checks = append(checks, views.ConnectionCheck{Interface: c.Interface, BaseURL: c.BaseURL, OK: c.OK, Message: c.Message.In(ctx), Took: c.Took.Round(time.Millisecond).String()})
	}
	var counts []views.CallCount
	for _, c := range h.Link.Counters() {
		counts = append(counts, views.CallCount{Interface: c.Interface, Op: c.Op, Outcome: c.Outcome, Calls: c.Calls,
			Average: (c.Total / time.Duration(max(c.Calls, 1))).Round(time.Millisecond).String()})
	}
	var failures []views.CallFailure
	for _, f := range h.Link.Failures() {
		failures = append(failures, views.CallFailure{When: i18n.DateTime(ctx, f.At), Interface: f.Interface, Op: f.Op, Error: f.Error})
	}
	var simulatedNow, storedBank string
	if h.Link.IsSandbox() {
		if now, err := h.Link.SimulatedNow(ctx); err == nil {
			simulatedNow = i18n.DateTime(ctx, now)
		}
		if b, err := h.Link.StoredBank(ctx); err == nil && b.Account != "" {
			storedBank = b.Account + "/" + b.Code + " (" + b.Currency + ")"
		}
	}
	carriers, err := h.ShipReads.Carriers(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	shopSec, err := h.shopSection(ctx, carriers, connect, shopErrors)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	p := h.page(w, r, views.T(r.Context(), "connection.heading"), "connection")
	h.render(w, r, status, views.Connection(p, h.Link.IsSandbox(), simulatedNow, storedBank, checks, counts, failures, carrierRows(carriers), shopSec))
}

// Metrics writes the upstream counters in the Prometheus text format.
func (h *Handlers) MetricsText(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = h.Link.WritePrometheus(w)
}
