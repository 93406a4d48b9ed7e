package handlers

import (
	"mime/multipart"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/textin"
	"shipdesk/views"
	"shipdesk/workbench"
)

// NewCommission shows the create form.
func (h *Handlers) NewCommission(w http.ResponseWriter, r *http.Request) {
	h.renderNewCommission(w, r, http.StatusOK, views.Form{Values: map[string]string{"key": requestkey.New(), "type": "warranty"}}, 0)
}

func (h *Handlers) renderNewCommission(w http.ResponseWriter, r *http.Request, status int, f views.Form, kept int64) {
	ctx := r.Context()
	products, err := h.Returns.Products(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := views.NewCommission{Form: f}
	for _, t := range workbench.Types {
		v.Types = append(v.Types, views.Option{Value: t, Label: i18n.T(ctx, "ret.type_long."+t)})
	}
	v.Remedies = append(v.Remedies, views.Option{Value: "", Label: i18n.T(ctx, "conf.remedy.none")})
	for _, rm := range workbench.Remedies {
		v.Remedies = append(v.Remedies, views.Option{Value: rm, Label: i18n.T(ctx, "conf.remedy."+rm)})
	}
	for _, l := range i18n.Langs {
		v.Languages = append(v.Languages, views.Option{Value: string(l), Label: i18n.T(ctx, "conf.lang."+string(l))})
	}
	v.Products = append(v.Products, views.Option{Value: "", Label: i18n.T(ctx, "ret.choose")})
	for _, t := range products {
		v.Products = append(v.Products, views.Option{Value: strconv.FormatInt(t.ID, 10), Label: t.Name})
	}
	v.Models = modelGroups(products, 0)
	if kept != 0 {
		if up, err := h.ReturnsStore.KeptUpload(ctx, kept, h.userID(r)); err == nil {
			v.Kept = &views.KeptFile{ID: up.ID, Name: up.Filename, Size: sizeText(ctx, up.Size)}
		}
	}
	h.render(w, r, status, views.NewCommissionPage(h.page(w, r, i18n.T(ctx, "ret.new"), identity.Returns), v))
}

// modelGroups are the models by product type for the model picker: only the
// type's when typeID names one, else every type's (the page without script
// lists them all, grouped).
func modelGroups(products []workbench.ProductType, typeID int64) []views.ModelGroup {
	known := slices.ContainsFunc(products, func(t workbench.ProductType) bool { return t.ID == typeID })
	var out []views.ModelGroup
	for _, t := range products {
		if known && t.ID != typeID {
			continue
		}
		g := views.ModelGroup{TypeID: strconv.FormatInt(t.ID, 10), Type: t.Name}
		for _, m := range t.Models {
			g.Models = append(g.Models, views.Option{Value: strconv.FormatInt(m.ID, 10), Label: m.Name})
		}
		out = append(out, g)
	}
	return out
}

// CommissionModels is the model picker of the new-commission form for the
// chosen product type: the type's select asks for it when it changes (htmx),
// keeping the chosen model when it is of that type. No type, or one not
// known, lists every type's models.
func (h *Handlers) CommissionModels(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	products, err := h.Returns.Products(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	q := r.URL.Query()
	typeID, _ := strconv.ParseInt(q.Get("type_id"), 10, 64)
	form := views.Form{Values: map[string]string{}}
	if id, err := strconv.ParseInt(q.Get("model_id"), 10, 64); err == nil {
		form.Values["model_id"] = strconv.FormatInt(id, 10)
	}
	h.render(w, r, http.StatusOK, views.ModelField(form, modelGroups(products, typeID)))
}

// maxCommissionForm is a proof of purchase and the form's fields.
const maxCommissionForm = workbench.MaxUpload + 1<<20

// CreateCommission uploads the proof (once), then creates the commission; a
// failure re-renders the form with everything typed and the proof kept.
func (h *Handlers) CreateCommission(w http.ResponseWriter, r *http.Request) {
	if !h.postedForm(w, r, maxCommissionForm,
		i18n.T(r.Context(), "ret.form.too_large", workbench.MaxUpload>>20),
		i18n.T(r.Context(), "ret.form.unreadable")) {
		return
	}
	var files map[string][]*multipart.FileHeader
	if r.MultipartForm != nil {
		defer r.MultipartForm.RemoveAll()
		files = r.MultipartForm.File
	}
	// What could not be read stays in the form: Create reports it with the
	// other problems, and still keeps a good proof.
	f, _ := workbench.ParseForm(r.Form, files)
	res, err := h.Returns.Create(r.Context(), f, h.userID(r))
	if err == nil {
		redirect(w, r, commissionPath(res.Commission.ID))
		return
	}
	if apperr.CodeOf(err) == apperr.Internal {
		h.Fail(w, r, err)
		return
	}
	vals := map[string]string{}
	for k := range r.Form {
		if k != "upload_id" {
			vals[k], _ = textin.Lines(r.FormValue(k), 5000) // shown again as typed, as far as it can be
		}
	}
	form := views.Form{Values: vals, Errors: apperr.FieldsOf(r.Context(), err), Message: apperr.MessageOf(r.Context(), err, "")}
	if res.UploadID != 0 && form.Errors["proof"] == "" {
		form.Message = strings.TrimSpace(form.Message + " " + i18n.T(r.Context(), "ret.form.proof_kept"))
	}
	h.renderNewCommission(w, r, statusOf(apperr.CodeOf(err)), form, res.UploadID)
}
