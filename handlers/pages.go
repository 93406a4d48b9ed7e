package handlers

import (
	"context"
	"net/http"
	"time"

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
	if a, err := h.ShipReads.Attention(ctx, now); err != nil {
		h.Log.Warn("attention counts", "err", err) // the home page works without them
	} else {
		role := identity.From(ctx).Role
		add := func(area identity.Area, n int, key, href string) {
			if n > 0 && role.May(area) {
				alerts = append(alerts, views.Alert{Text: i18n.N(ctx, key, n), Href: href})
			}
		}
		add(identity.Shipping, a.ToPrint, "home.attention.to_print", "/shipping/print")
		add(identity.Tracking, a.Unsettled, "home.attention.unsettled", "/tracking?status=UNKNOWN")
		add(identity.Shipping, a.Duplicates, "home.attention.duplicates", "/tracking?status=DUPLICATE")
		add(identity.Returns, a.CommissionDuplicates, "home.attention.commission_duplicates", "/returns?duplicates=1")
		add(identity.Tracking, a.LabelsFailed, "home.attention.labels_failed", "/tracking?status=LABEL_FAILED")
		add(identity.Returns, a.ClaimsOverdue, "home.attention.claims_overdue", "/returns?type=warranty")
		add(identity.Returns, a.ClaimsDue, "home.attention.claims_due", "/returns?type=warranty")
		if role.May(identity.Tracking) && a.Checked != nil {
			checked = i18n.T(ctx, "live.home.checked", views.Age(ctx, a.Checked, now))
		}
	}
	h.render(w, r, http.StatusOK, views.Home(h.page(w, r, i18n.T(ctx, "home.title"), ""), alerts, checked))
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
