package handlers

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/orderfile"
	"shipdesk/printout"
	"shipdesk/storage"
	"shipdesk/views"
)

// batchDesk is what the batch pages ask of the desk.
type batchDesk interface {
	ImportBatch(ctx context.Context, in desk.BatchImport, by int64) (desk.ImportResult, error)
	ImportMapped(ctx context.Context, upload int64, m orderfile.Mapping, handover string, by int64) (desk.ImportResult, error)
	KeptMappings(ctx context.Context) ([]string, error)
	EditRow(ctx context.Context, batch, id int64, cells map[orderfile.Field]string) (desk.BatchRow, error)
	PriceBatch(ctx context.Context, batch int64) (int, error)
	OrderBatch(ctx context.Context, batch int64) (int, error)
	ChooseRowOffer(ctx context.Context, batch, id int64, choice string) error
	ResumeBatch(ctx context.Context, batch int64)
	SendBatchDrafts(ctx context.Context, batch int64, by int64) (int, error)
	BatchHandovers(ctx context.Context, batch int64, loc *time.Location) ([]desk.Handover, error)
	BatchLabelFree(ctx context.Context, batch int64) ([]desk.LabelFreeParcel, error)
}

// batchReads are the batch tables the pages read.
type batchReads interface {
	Batches(ctx context.Context, limit int) ([]storage.Batch, error)
	BatchByID(ctx context.Context, id int64) (storage.Batch, error)
	EachBatchRow(ctx context.Context, batch int64, fn func(storage.BatchRow) error) error
	Draftable(ctx context.Context, batch int64) (int, error)
	BatchRow(ctx context.Context, batch, id int64) (storage.BatchRow, error)
	BatchShipmentIDs(ctx context.Context, batch int64) ([]int64, error)
	ShipmentsByID(ctx context.Context, ids []int64) ([]storage.Shipment, error)
}

// uploadLimit is the largest post of the import form: the file's limit and a
// little for the form around it.
const uploadLimit = orderfile.MaxBytes + 64<<10

// batchesShown is how many batches the list shows.
const batchesShown = 100

func (h *Handlers) batchTitle(ctx context.Context, b storage.Batch) string {
	return i18n.T(ctx, "batch.title", i18n.DateTime(ctx, b.CreatedAt))
}

// counts are a batch's rows by state in words, in the states' order.
func counts(ctx context.Context, c map[string]int) []views.BatchCount {
	var out []views.BatchCount
	for _, s := range storage.RowStates {
		if n := c[s]; n > 0 {
			out = append(out, views.BatchCount{State: s, N: n, Text: i18n.T(ctx, "batch.count", i18n.T(ctx, "batch.state."+s), n)})
		}
	}
	return out
}

// Batches lists the imported batches.
func (h *Handlers) Batches(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	list, err := h.ShipReads.Batches(ctx, batchesShown)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	var v views.BatchList
	for _, b := range list {
		v.Rows = append(v.Rows, views.BatchListRow{ID: b.ID, Created: i18n.DateTime(ctx, b.CreatedAt), CreatedAt: b.CreatedAt.UTC().Format(time.RFC3339),
			By: b.ByName, Source: sourceName(ctx, b.Source), File: b.FileName, Rows: b.Rows, Counts: counts(ctx, b.Counts)})
	}
	h.render(w, r, http.StatusOK, views.BatchesPage(h.page(w, r, i18n.T(ctx, "batches.title"), identity.Shipping), v))
}

func sourceName(ctx context.Context, s string) string {
	if s == orderfile.TemplateSource {
		return i18n.T(ctx, "batches.source.template")
	}
	return s
}

// NewBatch is the import form.
func (h *Handlers) NewBatch(w http.ResponseWriter, r *http.Request) {
	h.renderNewBatch(w, r, http.StatusOK, views.Form{Values: map[string]string{"handover": desk.HandoverOnDemand}})
}

func (h *Handlers) renderNewBatch(w http.ResponseWriter, r *http.Request, status int, f views.Form) {
	ctx := r.Context()
	sources, err := h.ShipDesk.KeptMappings(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := views.BatchNew{Form: f, Sources: sources}
	for _, ho := range []string{desk.HandoverOnDemand, desk.HandoverRegular, desk.HandoverOccasional, desk.HandoverPoint} {
		v.Handovers = append(v.Handovers, views.Option{Value: ho, Label: i18n.T(ctx, "batches.handover."+ho)})
	}
	h.render(w, r, status, views.BatchNewPage(h.page(w, r, i18n.T(ctx, "batches.new"), identity.Shipping), v))
}

// ImportBatch reads an uploaded file of orders into a new batch, or asks for
// its columns first.
func (h *Handlers) ImportBatch(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if !h.postedForm(w, r, uploadLimit, i18n.T(ctx, orderfile.KeyTooLarge, orderfile.MaxBytes>>20), i18n.T(ctx, "batches.err.form")) {
		return
	}
	defer func() {
		if r.MultipartForm != nil {
			_ = r.MultipartForm.RemoveAll()
		}
	}()
	form := views.Form{Values: map[string]string{"source": strings.TrimSpace(r.PostFormValue("source")), "handover": r.PostFormValue("handover")}, Errors: map[string]string{}}
	in := desk.BatchImport{Source: form.Values["source"], Handover: form.Values["handover"]}
	if !validText(in.Source, 100) {
		form.Errors["source"] = i18n.T(ctx, "batch.err.source")
		h.renderNewBatch(w, r, http.StatusUnprocessableEntity, form)
		return
	}
	file, header, err := r.FormFile("file")
	if err != nil {
		form.Errors["file"] = i18n.T(ctx, "batches.err.no_file")
		form.Message = form.Errors["file"]
		h.renderNewBatch(w, r, http.StatusUnprocessableEntity, form)
		return
	}
	defer file.Close()
	in.FileName, in.ContentType = cleanName(header.Filename), header.Header.Get("Content-Type")
	in.Data, err = desk.ReadOrders(file)
	if err == nil {
		var res desk.ImportResult
		res, err = h.ShipDesk.ImportBatch(ctx, in, h.userID(r))
		if err == nil {
			h.afterImport(w, r, res, in.Handover)
			return
		}
	}
	if apperr.CodeOf(err) == apperr.Internal {
		h.Fail(w, r, err)
		return
	}
	form.Message = apperr.MessageOf(ctx, err, "")
	for k, v := range apperr.FieldsOf(ctx, err) {
		form.Errors[k] = v
	}
	if _, ok := form.Errors["source"]; !ok && form.Errors["handover"] == "" {
		form.Errors["file"] = form.Message
	}
	h.renderNewBatch(w, r, http.StatusUnprocessableEntity, form)
}

// validText is text a form may carry: valid UTF-8 without control
// characters, at most limit bytes.
func validText(s string, limit int) bool {
	if len(s) > limit || !utf8Valid(s) {
		return false
	}
	return !strings.ContainsFunc(s, func(c rune) bool { return c < 0x20 || c == 0x7f })
}

func utf8Valid(s string) bool { return strings.ToValidUTF8(s, "\uFFFD") == s }

// cleanName is a file's name as kept: its last part, readable, at most 200 bytes.
func cleanName(s string) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	s = strings.Map(func(c rune) rune {
		if c < 0x20 || c == 0x7f || c == 0xFFFD {
			return -1
		}
		return c
	}, strings.ToValidUTF8(s, ""))
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "")
	}
	return s
}

func (h *Handlers) afterImport(w http.ResponseWriter, r *http.Request, res desk.ImportResult, handover string) {
	if res.Mapping != nil {
		h.renderMapping(w, r, http.StatusOK, *res.Mapping, handover, views.Form{Values: map[string]string{"source": res.Mapping.Suggested.Source}})
		return
	}
	redirect(w, r, "/shipping/batches/"+strconv.FormatInt(res.Batch.ID, 10))
}

func (h *Handlers) renderMapping(w http.ResponseWriter, r *http.Request, status int, m desk.MappingNeeded, handover string, f views.Form) {
	ctx := r.Context()
	v := views.BatchMapping{Form: f, UploadID: m.UploadID, FileName: m.FileName, Handover: handover, Headers: m.Header}
	missing := m.Suggested.Missing()
	problems := map[orderfile.Field]string{}
	for _, p := range m.Problems {
		if p.Field != "" {
			problems[p.Field] = i18n.T(ctx, p.Key, p.Args...)
		} else {
			v.Problems = append(v.Problems, i18n.T(ctx, p.Key, p.Args...))
		}
	}
	for _, fd := range orderfile.Fields {
		mf := views.MapField{Name: string(fd), Label: i18n.T(ctx, orderfile.LabelKey(fd)), Chosen: m.Suggested.Columns[fd],
			Required: slices.Contains(missing, fd) || slices.Contains([]orderfile.Field{orderfile.Phone, orderfile.WeightKg}, fd), Error: problems[fd]}
		if i := slices.Index(m.Header, mf.Chosen); i >= 0 && len(m.Sample) > 0 && i < len(m.Sample[0]) {
			mf.Example = m.Sample[0][i]
		}
		if f.Errors[string(fd)] != "" {
			mf.Error = f.Errors[string(fd)]
		}
		v.Fields = append(v.Fields, mf)
	}
	h.render(w, r, status, views.BatchMappingPage(h.page(w, r, i18n.T(ctx, "batches.map.title"), identity.Shipping), v))
}

// MapBatch imports a kept upload with the columns the clerk mapped; the
// mapping is kept under the source's name.
func (h *Handlers) MapBatch(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, ok := pathID(r)
	if !ok {
		h.NotFound(w, r)
		return
	}
	if !h.postedForm(w, r, 64<<10, "", i18n.T(ctx, "batches.err.form")) {
		return
	}
	m := orderfile.Mapping{Source: strings.TrimSpace(r.PostFormValue("source")), Columns: map[orderfile.Field]string{}}
	for _, f := range orderfile.Fields {
		if c := r.PostFormValue("col_" + string(f)); c != "" && validText(c, 400) {
			m.Columns[f] = c
		}
	}
	handover := r.PostFormValue("handover")
	res, err := h.ShipDesk.ImportMapped(ctx, id, m, handover, h.userID(r))
	if err == nil && res.Mapping != nil && validText(m.Source, 100) && m.Source != "" {
		// The columns still do not fit: the form again, with what is wrong.
		res.Mapping.Suggested = m
		h.renderMapping(w, r, http.StatusUnprocessableEntity, *res.Mapping, handover, views.Form{Values: map[string]string{"source": m.Source},
			Message: i18n.T(ctx, "batches.map.again")})
		return
	}
	if err == nil && !validText(m.Source, 100) {
		err = apperr.Fields("form.see_fields", apperr.Problems{"source": apperr.Msg("batch.err.source")})
	}
	if err == nil {
		h.afterImport(w, r, res, handover)
		return
	}
	if apperr.CodeOf(err) == apperr.Internal || apperr.Is(err, apperr.NotFound) {
		h.Fail(w, r, err)
		return
	}
	// The form again from the kept upload, with the problem.
	again, aerr := h.ShipDesk.ImportMapped(ctx, id, orderfile.Mapping{Source: "-", Columns: map[orderfile.Field]string{"-": "-"}}, handover, h.userID(r))
	if aerr != nil || again.Mapping == nil {
		h.ErrorStatus(w, r, http.StatusUnprocessableEntity, apperr.MessageOf(ctx, err, ""))
		return
	}
	again.Mapping.Suggested = m
	again.Mapping.Problems = nil
	h.renderMapping(w, r, http.StatusUnprocessableEntity, *again.Mapping, handover, views.Form{Values: map[string]string{"source": m.Source},
		Message: apperr.MessageOf(ctx, err, ""), Errors: apperr.FieldsOf(ctx, err)})
}

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
	h.ShipDesk.ResumeBatch(ctx, b.ID)
	draftable, err := h.ShipReads.Draftable(ctx, b.ID)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	filter, known := rowFilter(r.URL.Query())
	open, _ := strconv.ParseInt(r.URL.Query().Get("open"), 10, 64)
	v := views.BatchPage{ID: b.ID, Form: f, Filter: filter,
		Summary:  i18n.T(ctx, "batch.summary", sourceName(ctx, b.Source), cmpOr(b.ByName, "—"), i18n.T(ctx, "batches.handover."+b.Handover)),
		CanPrice: b.Counts[storage.RowReady] > 0, CanOrder: b.Counts[storage.RowPriced] > 0, CanDraft: draftable > 0}
	if !known {
		v.FilterProblem = i18n.T(ctx, "batch.filter.unknown")
	}
	for _, fv := range desk.RowFilters {
		n := desk.RowFilterCount(fv, b.Counts)
		v.Filters = append(v.Filters, views.BatchFilter{Value: fv, Text: i18n.T(ctx, "batch.filter."+fv), N: n, Current: fv == filter})
		if fv == filter {
			v.Shown = n
		}
	}
	if v.Progress, v.Prints, err = h.batchLive(ctx, b); err != nil {
		h.Fail(w, r, err)
		return
	}
	var rowsErr error
	v.Rows = func(yield func(views.BatchRowView) bool) {
		rowsErr = h.ShipReads.EachBatchRow(ctx, b.ID, func(row storage.BatchRow) error {
			if !desk.InRowFilter(filter, row.State) {
				return nil
			}
			rv := rowView(ctx, desk.ReadBatchRow(row))
			rv.Filter, rv.Open = filter, row.ID == open
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

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// rowView is a row in the request's language.
func rowView(ctx context.Context, r desk.BatchRow) views.BatchRowView {
	o := r.Order
	v := views.BatchRowView{ID: r.ID, BatchID: r.BatchID, Line: r.Line, Reference: o.Reference, State: r.State,
		StateText: i18n.T(ctx, "batch.state."+r.State), Editable: desk.Editable(r.State) && r.DraftID == nil && !r.Drafting,
		CanChoose: r.State == storage.RowPriced && r.DraftID == nil, Error: r.Error.In(ctx)}
	if r.State == storage.RowOrdered && r.ShipmentState == storage.StateUnknown {
		// Its order's answer was lost: the one name of that state, as on the shipment's page.
		v.State, v.StateText = r.ShipmentState, i18n.T(ctx, views.Uncertain)
	}
	if o.WeightKg > 0 {
		v.Weight = i18n.T(ctx, "batch.kg", i18n.Number(ctx, o.WeightKg, decimalsOf(o.WeightKg)))
	}
	if o.COD {
		v.COD = i18n.Money(ctx, o.CODAmount, cmpOr(o.CODCurrency, "CZK"))
	}
	v.Recipient = desk.Address{Firstname: o.FirstName, Surname: o.Surname, Company: o.Company}.Name()
	country := o.Country
	if country == "CZ" {
		country = "" // the shop's own country goes without saying
	}
	v.Place = strings.TrimSpace(strings.Join(slices.DeleteFunc([]string{o.Zip, o.City, country}, func(s string) bool { return s == "" }), " "))
	if o.PointCode != "" {
		v.Point = i18n.T(ctx, "batch.point", o.PointCode)
	}
	if r.ShipmentID != nil {
		v.ShipmentID = *r.ShipmentID
	}
	if r.DraftID != nil {
		v.Draft = *r.DraftID
	}
	cellErrors := map[string][]string{}
	for _, p := range r.RowProblems {
		pv := views.RowProblemView{Field: p.Field, Text: p.Text.In(ctx)}
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
		text := offerText(ro.Offer)
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

func offerText(o desk.Offer) string {
	return strings.TrimSpace(o.Carrier + " " + o.Service)
}

// decimalsOf is how many decimals a weight is written with: as many as it
// has, at most three.
func decimalsOf(x float64) int {
	for d := 0; d < 3; d++ {
		if s := strconv.FormatFloat(x, 'f', d, 64); s == strconv.FormatFloat(x, 'f', -1, 64) {
			return d
		}
	}
	return 3
}

// rowCells reads a row's edit form: each field's text as typed.
func rowCells(r *http.Request) map[orderfile.Field]string {
	cells := map[orderfile.Field]string{}
	for _, f := range orderfile.Fields {
		if s := r.PostFormValue(string(f)); s != "" {
			cells[f] = s
		}
	}
	return cells
}

// EditBatchRow stores a row's corrected cells and checks it again; htmx gets
// the row back, a plain post the batch page.
func (h *Handlers) EditBatchRow(w http.ResponseWriter, r *http.Request) {
	b, id, ok := h.batchRowOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	if !h.postedForm(w, r, 64<<10, "", i18n.T(ctx, "batches.err.form")) {
		return
	}
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
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "error", Text: apperr.MessageOf(ctx, err, "")})
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
	v := rowView(ctx, row)
	v.Filter, v.Open = filter, open
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
	v := rowView(ctx, desk.ReadBatchRow(stored))
	v.Filter, v.Open = filter, open
	v.Poll = !open && q.Get("poll") == "1" && working(stored.State)
	v.FocusToggle = !open && q.Get("poll") != "1" // closed by the clerk, not asked again by itself
	h.render(w, r, http.StatusOK, views.BatchRowItem(v))
}

// ChooseBatchOffer takes another offer for a priced row.
func (h *Handlers) ChooseBatchOffer(w http.ResponseWriter, r *http.Request) {
	b, id, ok := h.batchRowOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	if !h.postedForm(w, r, 16<<10, "", i18n.T(ctx, "batches.err.form")) {
		return
	}
	err := h.ShipDesk.ChooseRowOffer(ctx, b.ID, id, r.PostFormValue("choice"))
	stored, rerr := h.ShipReads.BatchRow(ctx, b.ID, id)
	if rerr != nil {
		h.Fail(w, r, rerr)
		return
	}
	h.rowAnswer(w, r, b, desk.ReadBatchRow(stored), err)
}

// PriceBatch prices again the rows waiting for it.
func (h *Handlers) PriceBatch(w http.ResponseWriter, r *http.Request) {
	h.batchStep(w, r, "batch.pricing_started", func(ctx context.Context, id int64) (int, error) { return h.ShipDesk.PriceBatch(ctx, id) })
}

// OrderBatch orders every priced row of the batch.
func (h *Handlers) OrderBatch(w http.ResponseWriter, r *http.Request) {
	h.batchStep(w, r, "batch.ordering_started", func(ctx context.Context, id int64) (int, error) { return h.ShipDesk.OrderBatch(ctx, id) })
}

// BatchDrafts sends the batch's ready rows as drafts instead.
func (h *Handlers) BatchDrafts(w http.ResponseWriter, r *http.Request) {
	h.batchStep(w, r, "batch.drafts_sent", func(ctx context.Context, id int64) (int, error) {
		return h.ShipDesk.SendBatchDrafts(ctx, id, h.userID(r))
	})
}

// batchStep runs one step over the batch the path names and goes back to its
// page, saying how many rows the step took (done: a plural key).
func (h *Handlers) batchStep(w http.ResponseWriter, r *http.Request, done string, step func(context.Context, int64) (int, error)) {
	b, ok := h.batchOf(w, r)
	if !ok {
		return
	}
	n, err := step(r.Context(), b.ID)
	h.finish(w, r, err, i18n.N(r.Context(), done, n), "/shipping/batches/"+strconv.FormatInt(b.ID, 10))
}

// BatchLabels writes one PDF of every label of the batch.
func (h *Handlers) BatchLabels(w http.ResponseWriter, r *http.Request) {
	b, ok := h.batchOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	f, start, problem := paper(ctx, r.URL.Query())
	if problem != "" {
		h.ErrorStatus(w, r, http.StatusUnprocessableEntity, problem)
		return
	}
	ids, err := h.ShipReads.BatchShipmentIDs(ctx, b.ID)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if len(ids) == 0 {
		h.ErrorStatus(w, r, http.StatusConflict, i18n.T(ctx, "batch.err.no_labels"))
		return
	}
	ids = ids[:min(len(ids), desk.MaxPrint)]
	h.streamLabelsOr(w, r, func(out io.Writer) error {
		_, err := h.ShipDesk.PrintLabels(ctx, out, desk.Print{IDs: ids, Format: f, Start: start}, h.userID(r))
		return err
	}, func(err error) {
		h.ErrorStatus(w, r, statusOf(apperr.CodeOf(err)), apperr.MessageOf(ctx, err, ""))
	})
}

// BatchHandover serves the hand-over protocols of the batch's parcels; with
// carrier, only that carrier's.
func (h *Handlers) BatchHandover(w http.ResponseWriter, r *http.Request) {
	b, ok := h.batchOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	list, err := h.ShipDesk.BatchHandovers(ctx, b.ID, i18n.ZoneOf(ctx))
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	name := "handover-batch-" + strconv.FormatInt(b.ID, 10)
	if carrier := r.URL.Query().Get("carrier"); carrier != "" {
		list = slices.DeleteFunc(list, func(ho desk.Handover) bool { return ho.Carrier != carrier })
		if len(list) > 0 {
			name += "-" + strings.ToLower(list[0].Carrier)
		}
	}
	if len(list) == 0 {
		h.ErrorStatus(w, r, http.StatusNotFound, i18n.T(ctx, "batch.err.no_protocols"))
		return
	}
	h.serveProtocols(w, r, list, name)
}

// BatchCodes serves one sheet of the codes of the batch's label-free
// shipments: what the clerk shows at the carrier's point instead of a label.
func (h *Handlers) BatchCodes(w http.ResponseWriter, r *http.Request) {
	b, ok := h.batchOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	list, err := h.ShipDesk.BatchLabelFree(ctx, b.ID)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if len(list) == 0 {
		h.ErrorStatus(w, r, http.StatusNotFound, i18n.T(ctx, "batch.err.no_label_free"))
		return
	}
	sheet := printout.CodeSheet{Title: i18n.T(ctx, "codes.title", h.batchTitle(ctx, b)), Lead: i18n.T(ctx, "codes.lead"),
		Printed: i18n.T(ctx, "handover.printed", i18n.DateTime(ctx, h.now()))}
	for _, p := range list {
		row := printout.CodeRow{Reference: p.Reference, Recipient: p.Recipient, Town: p.City, Carrier: p.CarrierName, Tracking: p.Tracking,
			NoCode: i18n.T(ctx, "codes.not_yet")}
		if len(p.Codes) == 0 {
			sheet.Rows = append(sheet.Rows, row)
		}
		for _, c := range p.Codes {
			row.Code = c
			sheet.Rows = append(sheet.Rows, row)
		}
	}
	var buf bytes.Buffer
	if err := printout.Codes(ctx, &buf, sheet); err != nil {
		h.Fail(w, r, fmt.Errorf("draw label-free codes of batch %d: %w", b.ID, err))
		return
	}
	servePDF(w, "codes-batch-"+strconv.FormatInt(b.ID, 10)+".pdf", buf.Bytes())
}
