package handlers

import (
	"context"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/textin"
	"shipdesk/upstream"
	"shipdesk/views"
)

// sandboxPost reads a post on the simulator's controls and the page to
// return to; outside sandbox mode there is nothing to control (404).
func (h *Handlers) sandboxPost(w http.ResponseWriter, r *http.Request) (back string, ok bool) {
	if !h.Link.IsSandbox() {
		h.NotFound(w, r)
		return "", false
	}
	if !h.readForm(w, r) {
		return "", false
	}
	return httpx.LocalPath(r.PostFormValue("back")), true
}

// maxAdvanceMinutes is a year, the sandbox's own limit.
const maxAdvanceMinutes = 525600

// AdvanceClock moves the simulated time so shipments and commissions move on,
// then returns to the page the person came from.
func (h *Handlers) AdvanceClock(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	back, ok := h.sandboxPost(w, r)
	if !ok {
		return
	}
	minutes, err := strconv.Atoi(r.PostFormValue("minutes"))
	if err != nil || minutes < 1 || minutes > maxAdvanceMinutes {
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "error", Text: i18n.T(ctx, "sandbox.bad_minutes", maxAdvanceMinutes)})
		redirect(w, r, back)
		return
	}
	callCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	now, err := h.Link.AdvanceClock(callCtx, minutes)
	if err != nil {
		h.Log.Warn("advance sandbox clock", "err", err)
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "error", Text: i18n.T(ctx, "sandbox.advance_failed")})
		redirect(w, r, back)
		return
	}
	h.Sessions.AddFlash(w, r, views.Flash{Kind: "info", Text: i18n.T(ctx, "sandbox.advanced", minutes, i18n.DateTime(ctx, now))})
	redirect(w, r, back)
}

// maxLatencyMS is the longest delay the sandbox plays, its own limit.
const maxLatencyMS = 120000

// SandboxFaults shows the faults form for a demonstration, with the faults in
// force; setting them comes back to the page the banner's link was followed
// from (its Referer, as a post's page is found). Outside sandbox mode there
// is nothing to set (404).
func (h *Handlers) SandboxFaults(w http.ResponseWriter, r *http.Request) {
	if !h.Link.IsSandbox() {
		h.NotFound(w, r)
		return
	}
	back := httpx.LocalPath(postedFrom(r).RequestURI())
	if strings.HasPrefix(back, "/sandbox-faults") { // opened again from itself (or after a language switch)
		back = "/"
	}
	h.render(w, r, http.StatusOK, views.SandboxFaultsPage(h.page(w, r, i18n.T(r.Context(), "faults.title"), identity.Connection), back))
}

// SetSandboxFaults sets the faults the sandbox plays on every interface for
// a demonstration, or turns them off ("off"), then returns to the page the
// manager came from. Outside sandbox mode there is nothing to set.
func (h *Handlers) SetSandboxFaults(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	back, ok := h.sandboxPost(w, r)
	if !ok {
		return
	}
	var f upstream.Faults
	if r.PostFormValue("off") == "" {
		var problem string
		if f, problem = faultsOf(ctx, r.PostForm); problem != "" {
			h.Sessions.AddFlash(w, r, views.Flash{Kind: "error", Text: problem})
			redirect(w, r, back)
			return
		}
	}
	callCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := h.Link.SetFaults(callCtx, f); err != nil {
		h.Log.Warn("set sandbox faults", "err", err)
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "error", Text: i18n.T(ctx, "faults.failed")})
		redirect(w, r, back)
		return
	}
	done := i18n.T(ctx, "faults.done_off")
	if f.On() {
		done = views.FaultsText(ctx, sandboxFaults(f)) + "."
	}
	h.Sessions.AddFlash(w, r, views.Flash{Kind: "info", Text: done})
	redirect(w, r, back)
}

// faultsOf reads the faults form: a delay in whole milliseconds and two
// shares in per cent (an empty field is none); at least one fault.
func faultsOf(ctx context.Context, form url.Values) (upstream.Faults, string) {
	var f upstream.Faults
	if s := strings.TrimSpace(form.Get("latency_ms")); s != "" {
		ms, problem := textin.Decimal(s, textin.Range{OrEqual: true, Max: maxLatencyMS})
		if !problem.IsZero() || ms != math.Trunc(ms) {
			return f, i18n.T(ctx, "faults.bad_latency", maxLatencyMS)
		}
		f.LatencyMS = int(ms)
	}
	for _, share := range []struct {
		field, label string
		to           *float64
	}{{"error_percent", "faults.errors", &f.ErrorPercent}, {"lost_percent", "faults.lost", &f.LostPercent}} {
		s := strings.TrimSpace(form.Get(share.field))
		if s == "" {
			continue
		}
		x, problem := textin.Decimal(s, textin.Range{OrEqual: true, Max: 100})
		if !problem.IsZero() {
			return f, i18n.T(ctx, "faults.bad_percent", i18n.T(ctx, share.label))
		}
		*share.to = x
	}
	switch {
	case f.ErrorPercent+f.LostPercent > 100:
		return f, i18n.T(ctx, "faults.bad_total")
	case !f.On():
		return f, i18n.T(ctx, "faults.none")
	}
	return f, ""
}

// sandboxFaults are the faults as the banner shows them.
func sandboxFaults(f upstream.Faults) views.SandboxFaults {
	return views.SandboxFaults{LatencyMS: f.LatencyMS, ErrorPercent: f.ErrorPercent, LostPercent: f.LostPercent}
}

// sandboxState is what the banner says of the simulator on this page: the
// time on the dashboard's clock (the simulator's) and the faults it plays,
// read without waiting long (upstream.FaultsMaxAge keeps them a moment).
func (h *Handlers) sandboxState(ctx context.Context) views.SandboxState {
	s := views.SandboxState{Now: h.now()}
	f, err := h.Link.Faults(ctx)
	s.Faults, s.FaultsFailed = sandboxFaults(f), err != nil
	return s
}
