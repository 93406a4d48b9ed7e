package handlers

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
)

// searchPoints fills the pickers of the chosen offer's carrier.
func (h *Handlers) searchPoints(ctx context.Context, f desk.Form, v url.Values, st *shipmentState) {
	if f.Handover == desk.HandoverPoint {
		st.pickup = h.findPoints(ctx, f, v, "pickup")
	}
	if f.Offer.DeliveryRequired {
		st.delivery = h.findPoints(ctx, f, v, "delivery")
	}
}

// findPoints searches one picker: what the clerk typed, or while nothing is
// typed the town the package most likely goes from (the sender's, for a
// hand-over) or to (the recipient's). A failed search shows no points.
func (h *Handlers) findPoints(ctx context.Context, f desk.Form, v url.Values, kind string) pointSearch {
	s := pointSearch{query: pointQuery(v, kind+"_q")}
	country := ""
	if kind == "delivery" {
		s.town, country = f.To.City, f.To.Country
	} else {
		s.town = h.senderTown(ctx, f.SenderID)
	}
	found, err := h.ShipDesk.SearchPoints(ctx, f.Offer.Carrier, country, cmp.Or(s.query, s.town), f.Packages)
	if err != nil {
		h.Log.Warn("search points", "kind", kind, "err", err)
	}
	s.found = found
	return s
}

// pointsView is a picker's list as the page shows it.
func pointsView(ctx context.Context, kind string, s pointSearch, selected string) views.PointsView {
	return views.PointsView{Kind: kind, Points: pointRows(ctx, s.found.Points), Total: s.found.Total, TooMany: s.found.More,
		Query: s.query, Town: s.town, Selected: selected}
}

// pointQuery is what the clerk typed into a point picker; text that cannot
// be read is ignored (the default search runs) rather than failing the page.
func pointQuery(v url.Values, name string) string {
	q, problem := textin.Line(v.Get(name), 100)
	if textin.IsUnreadable(problem) {
		return ""
	}
	return strings.TrimSpace(q)
}

// senderTown is where the clerk most likely takes packages: the sender's town.
func (h *Handlers) senderTown(ctx context.Context, id int64) string {
	if s, err := h.ShipReads.SenderByID(ctx, id); err == nil {
		return s.City
	}
	return ""
}

// Points answers the picker as the clerk types: the points of the chosen
// offer's carrier that the packages fit.
func (h *Handlers) Points(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	f, _ := desk.ParseForm(r.PostForm)
	kind := r.URL.Query().Get("for")
	if kind != "pickup" && kind != "delivery" {
		h.NotFound(w, r)
		return
	}
	h.render(w, r, http.StatusOK, views.PointList(pointsView(r.Context(), kind, h.findPoints(r.Context(), f, r.PostForm, kind), "")))
}

func pointRows(ctx context.Context, points []storage.ParcelPoint) []views.PointRow {
	out := make([]views.PointRow, 0, len(points))
	for _, p := range points {
		out = append(out, views.PointRow{Code: p.Code, Name: p.Name, Address: fmt.Sprintf("%s, %s %s", p.Street, p.Zip, p.City),
			Locker: p.IsLocker, Limits: pointLimits(ctx, p)})
	}
	return out
}

// pointLimits describes a point's size limits when they are known; the
// service does not publish them, so usually they are not.
func pointLimits(ctx context.Context, p storage.ParcelPoint) string {
	if p.MaxLength == 0 {
		return ""
	}
	return i18n.T(ctx, "ship.point_limits", num(ctx, p.MaxLength), num(ctx, p.MaxWidth), num(ctx, p.MaxHeight), num(ctx, p.MaxWeight))
}
