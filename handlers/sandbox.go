package handlers

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/views"
)

// maxAdvanceMinutes is a year, the sandbox's own limit.
const maxAdvanceMinutes = 525600

// AdvanceClock moves the simulated time so shipments and commissions move on,
// then returns to the page the person came from.
func (h *Handlers) AdvanceClock(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if !h.Link.IsSandbox() {
		h.NotFound(w, r)
		return
	}
	if !h.readForm(w, r) {
		return
	}
	back := httpx.LocalPath(r.PostFormValue("back"))
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
