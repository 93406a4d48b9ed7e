package handlers

import (
	"context"
	"net/http"
	"time"

	"shipdesk/attention"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/views"
)

// Home shows the areas the signed-in role may use and what needs attention in
// them today.
func (h *Handlers) Home(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var alerts []views.Alert
	checked := ""
	now := h.now()
	if a, err := h.ShipReads.Attention(ctx, now.In(i18n.ZoneOf(ctx))); err != nil {
		h.Log.Warn("attention counts", "err", err) // the home page works without them
	} else {
		role := identity.From(ctx).Role
		if a.ToPrint > 0 && role.May(identity.Shipping) {
			alerts = append(alerts, views.Alert{Text: i18n.N(ctx, "home.attention.to_print", a.ToPrint), Href: "/shipping/print"})
		}
		// The queue's kinds of the role's areas, each to the queue filtered by it.
		for _, kind := range attention.KindsFor(role) {
			for _, c := range a.Queue {
				if c.Kind == kind && c.Count > 0 {
					alerts = append(alerts, views.Alert{Text: i18n.N(ctx, "attn.count."+kind, c.Count), Href: "/attention?kind=" + kind, Kind: kind})
				}
			}
		}
		if role.May(identity.Tracking) && a.Checked != nil {
			checked = i18n.T(ctx, "live.home.checked", views.Age(ctx, a.Checked, now))
		}
	}
	h.render(w, r, http.StatusOK, views.Home(h.page(w, r, i18n.T(ctx, "home.title"), ""), alerts, checked))
}

// Shortcuts is the list of keyboard shortcuts for the signed-in person's role,
// in their language: the page script asks for it when "?" is first pressed.
func (h *Handlers) Shortcuts(w http.ResponseWriter, r *http.Request) {
	h.render(w, r, http.StatusOK, views.Shortcuts(views.Page{Staff: identity.From(r.Context())}))
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
