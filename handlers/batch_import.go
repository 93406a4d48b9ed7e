package handlers

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/orderfile"
	"shipdesk/textin"
	"shipdesk/views"
)

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
	if !textin.Valid(in.Source, 100) {
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
	in.FileName, in.ContentType = textin.FileName(header.Filename), header.Header.Get("Content-Type")
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
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	if !h.postedForm(w, r, 64<<10, "", i18n.T(ctx, "batches.err.form")) {
		return
	}
	m := orderfile.Mapping{Source: strings.TrimSpace(r.PostFormValue("source")), Columns: map[orderfile.Field]string{}}
	for _, f := range orderfile.Fields {
		if c := r.PostFormValue("col_" + string(f)); c != "" && textin.Valid(c, 400) {
			m.Columns[f] = c
		}
	}
	handover := r.PostFormValue("handover")
	res, err := h.ShipDesk.ImportMapped(ctx, id, m, handover, h.userID(r))
	if err == nil && res.Mapping != nil && textin.Valid(m.Source, 100) && m.Source != "" {
		// The columns still do not fit: the form again, with what is wrong.
		res.Mapping.Suggested = m
		h.renderMapping(w, r, http.StatusUnprocessableEntity, *res.Mapping, handover, views.Form{Values: map[string]string{"source": m.Source},
			Message: i18n.T(ctx, "batches.map.again")})
		return
	}
	if err == nil && !textin.Valid(m.Source, 100) {
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
