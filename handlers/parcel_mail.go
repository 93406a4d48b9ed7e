package handlers

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/views"
)

// parcelMailDesk is the customers' parcel mail settings (desk.Desk).
type parcelMailDesk interface {
	ParcelMailSettings(ctx context.Context) (desk.ParcelMailSettings, error)
	SaveParcelMail(ctx context.Context, v url.Values) error
	PreviewParcelMail(ctx context.Context, lang i18n.Lang, subject, body string) (desk.ParcelTemplate, apperr.Problems)
}

// ParcelMail shows the managers' settings of the customers' parcel mail.
func (h *Handlers) ParcelMail(w http.ResponseWriter, r *http.Request) {
	s, err := h.ShipDesk.ParcelMailSettings(r.Context())
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	f := views.Form{Values: map[string]string{"point_wait_days": strconv.Itoa(s.PointWaitDays)}}
	for _, st := range s.Steps {
		if st.Enabled {
			f.Values[st.Event+".enabled"] = "on"
		}
		for l, t := range map[string]desk.ParcelTemplate{"cs": st.CS, "en": st.EN} {
			f.Values[st.Event+"."+l+".subject"], f.Values[st.Event+"."+l+".body"] = t.Subject, t.Body
		}
	}
	h.renderParcelMail(w, r, http.StatusOK, f)
}

// renderParcelMail draws the page with f's values and each template's preview.
func (h *Handlers) renderParcelMail(w http.ResponseWriter, r *http.Request, status int, f views.Form) {
	ctx := r.Context()
	v := views.ParcelMailView{Events: desk.ParcelEvents, Form: f, Previews: map[string]views.ParcelMailPreview{}}
	for _, e := range desk.ParcelEvents {
		for _, l := range views.ParcelMailLangs {
			v.Previews[e+"."+l] = h.parcelPreview(ctx, e, l, f.Value(e+"."+l+".subject"), f.Value(e+"."+l+".body"))
		}
	}
	h.render(w, r, status, views.ParcelMail(h.page(w, r, i18n.T(ctx, "parcelmail.title"), identity.Connection), v))
}

// parcelPreview draws one template, or says in the reader's language what
// is wrong with it.
func (h *Handlers) parcelPreview(ctx context.Context, event, lang, subject, body string) views.ParcelMailPreview {
	l, _ := i18n.Parse(lang)
	t, p := h.ShipDesk.PreviewParcelMail(ctx, l, subject, body)
	if len(p) > 0 {
		for _, field := range []string{"subject", "body"} {
			if msg := p.In(ctx)[field]; msg != "" {
				return views.ParcelMailPreview{Error: msg}
			}
		}
	}
	return views.ParcelMailPreview{Subject: t.Subject, Body: t.Body}
}

// SaveParcelMail stores the settings; a template with a problem (an unknown
// placeholder, say) comes back as typed with the problem at its field.
func (h *Handlers) SaveParcelMail(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if !h.readForm(w, r) {
		return
	}
	if err := h.ShipDesk.SaveParcelMail(ctx, r.PostForm); err != nil {
		if !apperr.Is(err, apperr.Invalid) {
			h.Fail(w, r, err)
			return
		}
		f := views.Form{Values: map[string]string{}, Errors: apperr.FieldsOf(ctx, err), Message: apperr.MessageOf(ctx, err, "")}
		for k := range r.PostForm {
			f.Values[k] = r.PostForm.Get(k)
		}
		h.renderParcelMail(w, r, http.StatusUnprocessableEntity, f)
		return
	}
	h.Sessions.AddFlash(w, r, views.Flash{Kind: "ok", Text: i18n.T(ctx, "parcelmail.saved")})
	redirect(w, r, "/settings/parcel-mail")
}

// PreviewParcelMail draws one template as it is being typed (the live
// preview's fragment).
func (h *Handlers) PreviewParcelMail(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	e, l := r.PostForm.Get("event"), r.PostForm.Get("lang")
	if !slices.Contains(desk.ParcelEvents, e) || !slices.Contains(views.ParcelMailLangs, l) {
		h.NotFound(w, r)
		return
	}
	pv := h.parcelPreview(r.Context(), e, l, r.PostForm.Get(e+"."+l+".subject"), r.PostForm.Get(e+"."+l+".body"))
	h.render(w, r, http.StatusOK, views.ParcelMailPreviewBox(e, l, pv))
}
