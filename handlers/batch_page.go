package handlers

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/orderfile"
	"shipdesk/storage"
	"shipdesk/views"
)

// batchOf reads the batch of the path; a tampered id is 404.
func (h *Handlers) batchOf(w http.ResponseWriter, r *http.Request) (storage.Batch, bool) {
	id, ok := pathID(r)
	if !ok {
		h.NotFound(w, r)
		return storage.Batch{}, false
	}
	b, err := h.ShipReads.BatchByID(r.Context(), id)
	if err != nil {
		h.Fail(w, r, err)
		return b, false
	}
	return b, true
}

func rowOf(r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("row"), 10, 64)
	return id, err == nil && id > 0
}

// batchRowOf reads the batch and the row id a row's path names; when there is
// none the answer is written.
func (h *Handlers) batchRowOf(w http.ResponseWriter, r *http.Request) (storage.Batch, int64, bool) {
	b, ok := h.batchOf(w, r)
	if !ok {
		return b, 0, false
	}
	id, ok := rowOf(r)
	if !ok {
		h.NotFound(w, r)
	}
	return b, id, ok
}

// postedRow is batchRowOf for a post on a row: the form of at most limit
// bytes is read too, and refused with its words when it cannot be.
func (h *Handlers) postedRow(w http.ResponseWriter, r *http.Request, limit int64) (storage.Batch, int64, bool) {
	b, id, ok := h.batchRowOf(w, r)
	if !ok {
		return b, id, false
	}
	return b, id, h.postedForm(w, r, limit, "", i18n.T(r.Context(), "batches.err.form"))
}

// BatchPage shows a batch: its rows under the filter the address names
// (state), with one row opened (open, a row's id) for a browser without
// htmx.
func (h *Handlers) BatchPage(w http.ResponseWriter, r *http.Request) {
	b, ok := h.batchOf(w, r)
	if !ok {
		return
	}
	h.renderBatch(w, r, b, http.StatusOK, views.Form{})
}

// rowFilter reads the rows' filter of a query or form: "all" when none is
// named; ok is false when the one named is not known (all rows are shown).
func rowFilter(values url.Values) (filter string, ok bool) {
	v := values.Get("state")
	switch {
	case v == "":
		return desk.RowsAll, true
	case slices.Contains(desk.RowFilters, v):
		return v, true
	}
	return desk.RowsAll, false
}

// renderBatch draws a batch's page. Its rows are read and drawn one at a
// time onto the answer (streamPage): a batch of hundreds holds none of them.
func (h *Handlers) renderBatch(w http.ResponseWriter, r *http.Request, b storage.Batch, status int, f views.Form) {
	ctx := r.Context()
	draftable, err := h.ShipReads.Draftable(ctx, b.ID)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	filter, known := rowFilter(r.URL.Query())
	open, _ := strconv.ParseInt(r.URL.Query().Get("open"), 10, 64)
	v := views.BatchPage{ID: b.ID, Form: f, Filter: filter,
		Summary:  i18n.T(ctx, "batch.summary", sourceName(ctx, b.Source), cmp.Or(b.ByName, "—"), i18n.T(ctx, "batches.handover."+b.Handover)),
		CanPrice: b.Counts[storage.RowReady] > 0, CanOrder: b.Counts[storage.RowPriced] > 0, CanDraft: draftable > 0}
	if !known {
		v.FilterProblem = i18n.T(ctx, "batch.filter.unknown")
	}
	v.Quiet = !v.CanPrice && !v.CanOrder && !v.CanDraft && b.Counts[storage.RowOrdered]+b.Counts[storage.RowOrdering] == 0
	if n := b.Counts[storage.RowKnown]; n > 0 {
		v.Known = i18n.N(ctx, "batch.known.count", n)
	}
	for _, fv := range desk.RowFilters {
		n := desk.RowFilterCount(fv, b.Counts)
		if fv == desk.RowsKnown && n == 0 && filter != fv {
			continue // most batches have none: the choice is offered when it shows something
		}
		v.Filters = append(v.Filters, views.BatchFilter{Value: fv, Text: i18n.T(ctx, "batch.filter."+fv), N: n, Current: fv == filter})
		if fv == filter {
			v.Shown = n
		}
	}
	if v.Progress, v.Prints, err = h.batchLive(ctx, b.ID); err != nil { // it also starts a worker for queued rows left behind
		h.Fail(w, r, err)
		return
	}
	var rowsErr error
	names := h.carrierNames(ctx)
	v.Rows = func(yield func(views.BatchRowView) bool) {
		rowsErr = h.ShipReads.EachBatchRow(ctx, b.ID, open, func(row storage.BatchRow) error {
			if !desk.InRowFilter(filter, row.State) {
				return nil
			}
			rv := h.rowItem(ctx, desk.ReadBatchRow(row), row.ID == open, r.URL.Query(), names)
			rv.Filter = filter
			if !yield(rv) {
				return errStopped
			}
			return nil
		})
		if errors.Is(rowsErr, errStopped) {
			rowsErr = nil
		}
	}
	h.streamPage(w, r, status, views.BatchPageView(h.page(w, r, h.batchTitle(ctx, b), identity.Shipping), v), func() error { return rowsErr })
}

// errStopped ends a streamed read whose reader has stopped.
var errStopped = errors.New("stopped")

// rowView is a row in the request's language.
func rowView(ctx context.Context, r desk.BatchRow, names carrierNames) views.BatchRowView {
	o := r.Order
	v := views.BatchRowView{ID: r.ID, BatchID: r.BatchID, Line: r.Line, Reference: o.Reference, State: r.State, HasOffers: r.HasOffers(),
		StateText: i18n.T(ctx, "batch.state."+r.State), Editable: desk.Editable(r.State) && r.DraftID == nil && !r.Drafting,
		CanChoose: r.State == storage.RowPriced && r.DraftID == nil, Error: r.Error.In(ctx)}
	if r.State == storage.RowOrdered && r.ShipmentState == storage.StateUnknown {
		// Its order's answer was lost: the one name of that state, as on the shipment's page.
		v.State, v.StateText = r.ShipmentState, i18n.T(ctx, views.Uncertain)
	}
	if o.WeightKg > 0 {
		v.Weight = i18n.T(ctx, "batch.kg", num(ctx, o.WeightKg))
	}
	if o.COD {
		v.COD = i18n.Money(ctx, o.CODAmount, cmp.Or(o.CODCurrency, "CZK"))
	}
	v.Recipient = desk.Address{Firstname: o.FirstName, Surname: o.Surname, Company: o.Company}.Name()
	country := o.Country
	if country == "CZ" {
		country = "" // the shop's own country goes without saying
	}
	v.Place = strings.TrimSpace(strings.Join(slices.DeleteFunc([]string{o.Zip, o.City, country}, func(s string) bool { return s == "" }), " "))
	if o.PointCode != "" {
		v.Point = i18n.T(ctx, "batch.point", cmp.Or(r.PointName, o.PointCode))
	}
	if r.ShipmentID != nil {
		v.ShipmentID = *r.ShipmentID
	}
	if r.DraftID != nil {
		v.Draft = *r.DraftID
	}
	knownOf(ctx, r, &v)
	cellErrors := map[string][]string{}
	for _, p := range r.RowProblems {
		pv := views.RowProblemView{Field: p.Field, Text: p.Text.In(ctx), Picker: p.Field == string(orderfile.PointCode)}
		if p.Field != "" {
			pv.Label = i18n.T(ctx, orderfile.LabelKey(orderfile.Field(p.Field)))
			cellErrors[p.Field] = append(cellErrors[p.Field], pv.Text)
		}
		v.Problems = append(v.Problems, pv)
	}
	for _, f := range orderfile.Fields {
		v.Cells = append(v.Cells, views.CellView{Name: string(f), Label: i18n.T(ctx, orderfile.LabelKey(f)), Value: r.Cells[f],
			Error: strings.Join(cellErrors[string(f)], " ")})
	}
	// The offers the clerk may take first, cheapest first; then the others.
	offers := slices.Clone(r.RowOffers)
	slices.SortStableFunc(offers, func(a, b desk.RowOffer) int {
		if a.Choosable() != b.Choosable() {
			if a.Choosable() {
				return -1
			}
			return 1
		}
		if !a.Choosable() {
			return 0
		}
		return cmp.Compare(a.Offer.PriceVAT.Value, b.Offer.PriceVAT.Value)
	})
	for _, ro := range offers {
		text := offerText(ro.Offer, names)
		if ro.Offer.LabelFree {
			text = i18n.T(ctx, "batch.offer_label_free", text)
		}
		ov := views.RowOfferView{Choice: ro.Choice, Text: text, Why: ro.Why.In(ctx), Eligible: ro.Choosable(),
			Chosen: ro.Choice == r.BatchRow.Chosen, Price: i18n.Money(ctx, ro.Offer.PriceVAT.Value, ro.Offer.PriceVAT.Currency)}
		if ov.Chosen {
			v.Offer, v.OfferPrice = ov.Text, ov.Price
			v.OfferWhy = ov.Why
			if r.ChosenBy == "clerk" {
				v.OfferWhy = i18n.T(ctx, "batch.why.clerk")
			}
		}
		v.Offers = append(v.Offers, ov)
	}
	return v
}

func offerText(o desk.Offer, names carrierNames) string {
	return strings.TrimSpace(names.of(o.Carrier) + " " + o.Service)
}
