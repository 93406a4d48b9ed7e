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
// pollers keep current. A record's own page, when the record is due, has it
// refreshed through the pollers' path (desk.Refresher.RefreshDue,
// workbench.RefreshDue): claimed first, so the service is asked once per
// record however many pages show it. Lists never ask the service.

// refreshDue has a shipment shown on its page refreshed when it is due (a
// pending label: when last checked more than RefreshAfter ago) and returns
// it as stored then.
func (h *Handlers) refreshDue(ctx context.Context, s storage.Shipment) storage.Shipment {
	if !desk.Changing(s) || s.State != storage.StateCreated {
		return s
	}
	done, err := h.Tracker.RefreshDue(ctx, s.ID, h.now(), h.RefreshAfter)
	if err != nil {
		h.Log.Warn("refresh shipment", "shipment", s.ID, "err", err)
	}
	if !done {
		return s
	}
	if fresh, err := h.ShipReads.ShipmentByID(ctx, s.ID); err == nil {
		return fresh
	}
	return s
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
	rows := shipmentRows(ctx, list)
	now := h.now()
	for i := range rows {
		aged(ctx, &rows[i], list[i], now)
	}
	return rows
}

// refreshCommissionDue has a commission shown on its page read again from the
// service when it is due.
func (h *Handlers) refreshCommissionDue(ctx context.Context, id int64) {
	if _, err := h.Returns.RefreshDue(ctx, id, h.now()); err != nil {
		h.Log.Warn("refresh commission", "commission", id, "err", err)
	}
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
	h.refreshCommissionDue(r.Context(), id)
	d, err := h.Returns.Detail(r.Context(), id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := commissionView(r.Context(), d, h.now())
	h.render(w, r, http.StatusOK, views.CommissionLive(v))
}

// liveURL is the page the request asked for, for its live part to ask again.
func liveURL(r *http.Request) string { return httpx.LocalPath(r.URL.RequestURI()) }
