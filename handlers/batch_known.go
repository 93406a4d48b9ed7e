package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/a-h/templ"

	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/views"
)

// knownOf says, for a row recognised as ordered already, as what: a
// shipment, a line of this file, or a line of another batch being ordered.
func knownOf(ctx context.Context, r desk.BatchRow, v *views.BatchRowView) {
	if r.State != storage.RowKnown {
		return
	}
	v.Known, v.HadReference = true, r.Reference != ""
	switch {
	case r.KnownShipment != nil:
		v.KnownText = i18n.T(ctx, "batch.known.shipment", *r.KnownShipment)
		v.KnownURL = templ.SafeURL("/shipping/shipments/" + strconv.FormatInt(*r.KnownShipment, 10))
	case r.KnownBatch != nil && *r.KnownBatch == r.BatchID:
		v.KnownText = i18n.T(ctx, "batch.known.same_file", r.KnownLine)
		v.KnownURL = templ.SafeURL("/shipping/batches/" + strconv.FormatInt(r.BatchID, 10))
	case r.KnownBatch != nil:
		v.KnownText = i18n.T(ctx, "batch.known.other_batch", r.KnownLine)
		v.KnownURL = templ.SafeURL("/shipping/batches/" + strconv.FormatInt(*r.KnownBatch, 10))
	default:
		v.KnownText = i18n.T(ctx, "batch.state.known")
	}
}

// rowItem is a row of a batch page, opened or not: an opened row that may
// be corrected has its point picker, one ordered already the reference a new
// parcel would take.
func (h *Handlers) rowItem(ctx context.Context, r desk.BatchRow, open bool, q url.Values, names carrierNames) views.BatchRowView {
	v := rowView(ctx, r, names)
	v.Open = open
	if !open {
		return v
	}
	if v.Known {
		v.NewReference = h.ShipDesk.SuggestReference(ctx, r.Reference)
	}
	if v.Editable {
		v.Picker = h.rowPicker(ctx, r, q)
	}
	return v
}

// NewParcel takes a row recognised as ordered already as a new parcel, with
// the reference the clerk gave it; the row is checked and priced again.
func (h *Handlers) NewParcel(w http.ResponseWriter, r *http.Request) {
	b, id, ok := h.postedRow(w, r, 16<<10)
	if !ok {
		return
	}
	ctx := r.Context()
	row, err := h.ShipDesk.NewParcel(ctx, b.ID, id, r.PostFormValue("reference"))
	h.rowAnswer(w, r, b, row, err)
}
