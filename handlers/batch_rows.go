package handlers

import (
	"net/http"
	"net/url"
	"strconv"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/orderfile"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
)

// rowCells reads a row's edit form: each field's text as typed, the point
// code replaced by the point chosen in the picker.
func rowCells(r *http.Request) map[orderfile.Field]string {
	cells := map[orderfile.Field]string{}
	for _, f := range orderfile.Fields {
		if s := r.PostFormValue(string(f)); s != "" {
			cells[f] = s
		}
	}
	if code := r.PostFormValue(pickedPoint); code != "" {
		cells[orderfile.PointCode] = code // the point chosen in the picker
	}
	return cells
}

// EditBatchRow stores a row's corrected cells and checks it again; htmx gets
// the row back, a plain post the batch page.
func (h *Handlers) EditBatchRow(w http.ResponseWriter, r *http.Request) {
	b, id, ok := h.postedRow(w, r, 64<<10)
	if !ok {
		return
	}
	ctx := r.Context()
	row, err := h.ShipDesk.EditRow(ctx, b.ID, id, rowCells(r))
	h.rowAnswer(w, r, b, row, err)
}

// rowAnswer answers a post on one row: the row for htmx, the page
// otherwise. A row that still has problems stays open; one that is priced
// or ordered now asks for itself until it is done.
func (h *Handlers) rowAnswer(w http.ResponseWriter, r *http.Request, b storage.Batch, row desk.BatchRow, err error) {
	ctx := r.Context()
	filter, _ := rowFilter(r.PostForm)
	switch {
	case err != nil && (apperr.CodeOf(err) == apperr.Internal || apperr.Is(err, apperr.NotFound)):
		h.Fail(w, r, err)
		return
	case err != nil && !httpx.IsHTMX(r):
		text := apperr.MessageOf(ctx, err, "")
		if ref := apperr.FieldsOf(ctx, err)["reference"]; ref != "" && row.State == storage.RowKnown {
			text = ref // the new parcel's reference, the only field of its form
		}
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "error", Text: text})
	case err == nil && !httpx.IsHTMX(r):
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "ok", Text: i18n.T(ctx, "batch.row_saved", row.Line)})
	}
	open := err != nil || len(row.RowProblems) > 0
	if !httpx.IsHTMX(r) {
		to := "/shipping/batches/" + strconv.FormatInt(b.ID, 10)
		q := url.Values{}
		if filter != desk.RowsAll {
			q.Set("state", filter)
		}
		if open {
			q.Set("open", strconv.FormatInt(row.ID, 10))
		}
		if len(q) > 0 {
			to += "?" + q.Encode()
		}
		redirect(w, r, to+"#row-"+strconv.FormatInt(row.ID, 10))
		return
	}
	v := h.rowItem(ctx, row, open, r.PostForm, h.carrierNames(ctx))
	v.Filter = filter
	if ref := apperr.FieldsOf(ctx, err)["reference"]; ref != "" && v.Known {
		v.NewReference, v.NewReferenceError = textin.Safe(r.PostFormValue("reference"), false), ref
	}
	v.Poll = !open && working(row.State)
	v.FocusToggle = !open
	status := http.StatusOK
	if err != nil {
		v.Message = apperr.MessageOf(ctx, err, "")
		status = statusOf(apperr.CodeOf(err))
		w.Header().Set("HX-Reswap", "outerHTML")
	}
	h.render(w, r, status, views.BatchRowItem(v))
}

// working says whether a row in this state is being priced or ordered.
func working(state string) bool { return state == storage.RowPricing || state == storage.RowOrdering }

// BatchRow is one row of a batch page for htmx: opened (open=1) with its
// offers and edit form, or closed; a row being priced or ordered after a
// change (poll=1) asks again until it is done. A browser without htmx is
// sent to the page with the row opened.
func (h *Handlers) BatchRow(w http.ResponseWriter, r *http.Request) {
	b, id, ok := h.batchRowOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	stored, err := h.ShipReads.BatchRow(ctx, b.ID, id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	q := r.URL.Query()
	filter, _ := rowFilter(q)
	open := q.Get("open") == "1"
	w.Header().Set("Vary", "HX-Request")
	if !httpx.IsHTMX(r) {
		to := url.Values{}
		if filter != desk.RowsAll {
			to.Set("state", filter)
		}
		if open {
			to.Set("open", strconv.FormatInt(id, 10))
		}
		path := "/shipping/batches/" + strconv.FormatInt(b.ID, 10)
		if len(to) > 0 {
			path += "?" + to.Encode()
		}
		redirect(w, r, path+"#row-"+strconv.FormatInt(id, 10))
		return
	}
	v := h.rowItem(ctx, desk.ReadBatchRow(stored), open, q, h.carrierNames(ctx))
	v.Filter = filter
	v.Poll = !open && q.Get("poll") == "1" && working(stored.State)
	v.FocusToggle = !open && q.Get("poll") != "1" // closed by the clerk, not asked again by itself
	h.render(w, r, http.StatusOK, views.BatchRowItem(v))
}

// ChooseBatchOffer takes another offer for a priced row.
func (h *Handlers) ChooseBatchOffer(w http.ResponseWriter, r *http.Request) {
	b, id, ok := h.postedRow(w, r, 16<<10)
	if !ok {
		return
	}
	ctx := r.Context()
	err := h.ShipDesk.ChooseRowOffer(ctx, b.ID, id, r.PostFormValue("choice"))
	stored, rerr := h.ShipReads.BatchRow(ctx, b.ID, id)
	if rerr != nil {
		h.Fail(w, r, rerr)
		return
	}
	h.rowAnswer(w, r, b, desk.ReadBatchRow(stored), err)
}
