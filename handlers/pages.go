package handlers

import (
	"context"
	"net/http"
	"time"

	"shipdesk/i18n"
	"shipdesk/views"
)

// Home shows the areas the signed-in role may use.
func (h *Handlers) Home(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusOK, views.Home(h.page(w, r, i18n.T(r.Context(), "home.title"), "")))
}

// Healthz says the process is up.
func (h *Handlers) Healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("ok\n"))
}

// Readyz says whether the database answers, so a load balancer sends no traffic to
// an instance that cannot serve it.
func (h *Handlers) Readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := h.Database.Ping(ctx); err != nil {
		h.Log.Warn("readiness: database unreachable", "err", err)
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("database unreachable\n"))
		return
	}
	_, _ = w.Write([]byte("ready\n"))
}
