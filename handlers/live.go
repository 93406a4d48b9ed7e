package handlers

import (
	"context"
	"net/http"
	"time"

	"shipdesk/desk"
	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/views"
	"shipdesk/workbench"
)

// Pages that show a state that may still change ask for their live part
// again (views.LiveDetail, LiveList) and read it from the database, which the
// pollers keep current: one statement a refresh where it can be. Only the
// pollers' paths ask the service: a shipment's page whose pending label is
// stale has the stale pending labels checked in the label poller's batches
// (desk.Refresher.RefreshDue), a commission's page has its commission read
// when it is due, once however many pages show it (workbench.RefreshDue);
// tracking is the tracking poller's alone. Lists never ask the service.

// labelChecked has the stale pending labels checked when the page's
// shipment is one of them, and says whether its own was.
func (h *Handlers) labelChecked(ctx context.Context, s storage.Shipment) bool {
	if !desk.LabelStale(s, h.now(), h.RefreshAfter) {
		return false
	}
	done, err := h.Tracker.RefreshDue(ctx, s.ID, h.now(), h.RefreshAfter)
	if err != nil {
		h.Log.Warn("check pending labels", "shipment", s.ID, "err", err)
	}
	return done
}

// aged fills a shipment's row with how long ago it was checked, against the
// dashboard's clock, and whether it may still change.
func aged(ctx context.Context, row *views.ShipmentRow, s storage.Shipment, now time.Time) {
	row.Age = views.Age(ctx, s.LastCheckedAt, now)
	if s.LastCheckedAt != nil {
		row.CheckedAt = i18n.DateTime(ctx, *s.LastCheckedAt)
	}
	row.Changing = desk.Changing(s)
}

// liveRows are shipments as the lists show them, each with its age.
func (h *Handlers) liveRows(ctx context.Context, list []storage.Shipment) []views.ShipmentRow {
	rows := shipmentRows(ctx, list, h.carrierNames(ctx))
	now := h.now()
	for i := range rows {
		aged(ctx, &rows[i], list[i], now)
	}
	return rows
}

// refreshedIfDue has a commission shown on its page read again from the
// service when it is due (workbench.Detail.SyncDue), and returns it as it
// stands then, read again with read. One not due costs its page nothing
// more; a failed read is logged and the page shows what was stored.
func (h *Handlers) refreshedIfDue(ctx context.Context, d workbench.Detail,
	read func(context.Context, int64) (workbench.Detail, error)) (workbench.Detail, error) {
	if !d.SyncDue(h.now()) {
		return d, nil
	}
	refreshed, err := h.Returns.RefreshDue(ctx, d.ID, h.now())
	if err != nil {
		h.Log.Warn("refresh commission", "commission", d.ID, "err", err)
	}
	if !refreshed {
		return d, nil
	}
	return read(ctx, d.ID)
}

// commissionAge says how long ago a commission was read from the service.
func commissionAge(ctx context.Context, row *views.CommissionRow, synced *time.Time, now time.Time) {
	row.Age = views.Age(ctx, synced, now)
	if synced != nil {
		row.CheckedAt = i18n.DateTime(ctx, *synced)
	}
	row.Changing = workbench.Changing(row.State, row.Status)
}

// CommissionLive is the live part of a commission's page, for its polling.
func (h *Handlers) CommissionLive(w http.ResponseWriter, r *http.Request) {
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	d, err := h.Returns.LiveDetail(r.Context(), id)
	if err == nil {
		d, err = h.refreshedIfDue(r.Context(), d, h.Returns.LiveDetail)
	}
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := commissionView(r.Context(), d, h.now())
	h.render(w, r, http.StatusOK, views.CommissionLive(v))
}

// liveURL is the page the request asked for, for its live part to ask again.
func liveURL(r *http.Request) string { return httpx.LocalPath(r.URL.RequestURI()) }
