package handlers

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"strconv"

	"shipdesk/desk"
	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/orderfile"
	"shipdesk/views"
)

// The point picker of a batch row: the new-shipment form's picker, searching
// the points of the carrier the row most likely means (the clerk may choose
// another), in the row's town while nothing is typed. The chosen point is
// posted as point_pick and replaces the row's point code when it is saved.

// pickedPoint is the name the row picker's chosen point is posted under.
const pickedPoint = "point_pick"

// rowPickerKind names a row's picker (its fields and ids), unique on the page.
func rowPickerKind(row int64) string { return "row-" + strconv.FormatInt(row, 10) + "-point" }

// wantsPicker says whether a row's editor offers the point picker: the row
// names a point, has a problem with it, or its offer delivers to one.
func wantsPicker(r desk.BatchRow) bool {
	if r.Cells[orderfile.PointCode] != "" {
		return true
	}
	for _, p := range r.RowProblems {
		if p.Field == string(orderfile.PointCode) {
			return true
		}
	}
	o, ok := r.Chosen()
	return ok && o.Offer.DeliveryRequired
}

// rowPicker is the point picker of an opened row, searched by what the
// clerk typed (q), or nil when the row needs none or no carrier has points.
func (h *Handlers) rowPicker(ctx context.Context, r desk.BatchRow, q url.Values) *views.PointSearchView {
	if !wantsPicker(r) {
		return nil
	}
	kind := rowPickerKind(r.ID)
	rp, err := h.ShipDesk.RowPointsOf(ctx, r, q.Get(kind+"_carrier"))
	if err != nil || len(rp.Carriers) == 0 {
		if err != nil {
			h.Log.Warn("batch row points", "row", r.ID, "err", err)
		}
		return nil
	}
	s := pointSearch{query: pointQuery(q, kind+"_q"), town: r.Order.City}
	country := cmp.Or(r.Order.Country, "CZ")
	if s.found, err = h.ShipDesk.SearchPoints(ctx, rp.Carrier, country, cmp.Or(s.query, s.town), rp.Packages); err != nil {
		h.Log.Warn("search points", "row", r.ID, "err", err)
	}
	pv := pointsView(ctx, kind, s, "")
	pv.Field = pickedPoint
	search := "/shipping/batches/" + strconv.FormatInt(r.BatchID, 10) + "/rows/" + strconv.FormatInt(r.ID, 10) + "/points"
	ps := &views.PointSearchView{List: pv, Label: i18n.T(ctx, "batch.picker.label"), Search: search, Find: search,
		Hint: i18n.T(ctx, "batch.picker.hint"), Carrier: rp.Carrier}
	for _, c := range rp.Carriers {
		ps.Carriers = append(ps.Carriers, views.Option{Value: c.Code, Label: cmp.Or(c.Name, c.Code)})
	}
	return ps
}

// RowPoints answers a row's point picker as the clerk types or picks a
// carrier: its list of points for htmx; without htmx, the batch page with the
// row opened and searched.
func (h *Handlers) RowPoints(w http.ResponseWriter, r *http.Request) {
	b, id, ok := h.postedRow(w, r, 64<<10)
	if !ok {
		return
	}
	ctx := r.Context()
	kind := rowPickerKind(id)
	if !httpx.IsHTMX(r) {
		q := url.Values{"open": {strconv.FormatInt(id, 10)}}
		for _, name := range []string{kind + "_q", kind + "_carrier"} {
			if v := pointQuery(r.PostForm, name); v != "" {
				q.Set(name, v)
			}
		}
		if filter, _ := rowFilter(r.PostForm); filter != desk.RowsAll {
			q.Set("state", filter)
		}
		redirect(w, r, "/shipping/batches/"+strconv.FormatInt(b.ID, 10)+"?"+q.Encode()+"#"+kind+"-picker")
		return
	}
	stored, err := h.ShipReads.BatchRow(ctx, b.ID, id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	ps := h.rowPicker(ctx, desk.ReadBatchRow(stored), r.PostForm)
	if ps == nil {
		h.NotFound(w, r)
		return
	}
	h.render(w, r, http.StatusOK, views.PointList(ps.List))
}
