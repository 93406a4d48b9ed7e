package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/shopid"
	"shipdesk/storage"
	"shipdesk/upload"
	"shipdesk/views"
)

// ShopIdentity is the shop as its customers know it (shopid.Service).
type ShopIdentity interface {
	Identity(ctx context.Context) (storage.ShopIdentity, error)
	Save(ctx context.Context, f shopid.Form) error
	SaveLogo(ctx context.Context, f upload.File) error
	RemoveLogo(ctx context.Context) error
	Logo(ctx context.Context) ([]byte, string, error)
}

const shopIdentityPath = "/settings/shop"

// ShopIdentitySettings shows the manager's settings of the shop's identity.
func (h *Handlers) ShopIdentitySettings(w http.ResponseWriter, r *http.Request) {
	id, err := h.Identity.Identity(r.Context())
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	f := views.Form{Values: map[string]string{"name": id.Name, "web": id.Web, "reply_email": id.ReplyEmail, "phone": id.Phone}}
	h.renderShopIdentity(w, r, http.StatusOK, f, "")
}

func (h *Handlers) renderShopIdentity(w http.ResponseWriter, r *http.Request, status int, f views.Form, logoMsg string) {
	ctx := r.Context()
	id, err := h.Identity.Identity(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := views.ShopIdentityPage{Form: f, Logo: id.HasLogo(), LogoMsg: logoMsg, MaxLogo: shopid.MaxLogoBytes >> 20}
	h.render(w, r, status, views.ShopIdentitySettings(h.page(w, r, i18n.T(ctx, "shopid.title"), identity.Connection), v))
}

// SaveShopIdentity keeps the name, web, reply address and phone, or shows
// the form again with its problems and what was typed.
func (h *Handlers) SaveShopIdentity(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	ctx := r.Context()
	in := shopid.Form{Name: r.PostFormValue("name"), Web: r.PostFormValue("web"), ReplyEmail: r.PostFormValue("reply_email"),
		Phone: r.PostFormValue("phone")}
	err := h.Identity.Save(ctx, in)
	if apperr.CodeOf(err) == apperr.Invalid {
		f := views.Form{Values: map[string]string{"name": in.Name, "web": in.Web, "reply_email": in.ReplyEmail, "phone": in.Phone},
			Errors: apperr.FieldsOf(ctx, err), Message: apperr.MessageOf(ctx, err, "")}
		h.renderShopIdentity(w, r, http.StatusUnprocessableEntity, f, "")
		return
	}
	h.finish(w, r, err, i18n.T(ctx, "shopid.saved"), shopIdentityPath)
}

// SaveShopLogo keeps the logo sent (a PNG or JPEG, drawn again), read part
// by part and spooled to its limit, never whole in memory.
func (h *Handlers) SaveShopLogo(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	f, err := logoPart(w, r)
	if err == nil {
		defer f.Remove()
		err = h.Identity.SaveLogo(ctx, f)
	}
	if err != nil && apperr.CodeOf(err) != apperr.Internal {
		msg := apperr.MessageOf(ctx, err, "shopid.err.logo_file")
		if p := apperr.FieldsOf(ctx, err)["logo"]; p != "" {
			msg = p
		}
		h.renderShopIdentity(w, r, http.StatusUnprocessableEntity, views.Form{}, msg)
		return
	}
	h.finish(w, r, err, i18n.T(ctx, "shopid.logo_saved"), shopIdentityPath)
}

// logoPart spools the post's "logo" file; a post without one, or one that
// cannot be read, is Invalid.
func logoPart(w http.ResponseWriter, r *http.Request) (upload.File, error) {
	none := apperr.New(apperr.Invalid, "shopid.err.logo_file")
	r.Body = http.MaxBytesReader(w, r.Body, shopid.MaxLogoBytes+maxFormBytes)
	mr, err := r.MultipartReader()
	if err != nil {
		return upload.File{}, none
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return upload.File{}, none
		}
		if err != nil {
			return upload.File{}, none
		}
		if part.FormName() != "logo" || part.FileName() == "" {
			continue
		}
		f, err := upload.Spool("", part, part.FileName(), shopid.MaxLogoBytes)
		if err != nil {
			return upload.File{}, none
		}
		return f, nil
	}
}

// RemoveShopLogo drops the logo.
func (h *Handlers) RemoveShopLogo(w http.ResponseWriter, r *http.Request) {
	h.finish(w, r, h.Identity.RemoveLogo(r.Context()), i18n.T(r.Context(), "shopid.logo_removed"), shopIdentityPath)
}

// ShopLogo serves the logo to every customer page: public, cached by the
// browser for a while and revalidated by its content's hash.
func (h *Handlers) ShopLogo(w http.ResponseWriter, r *http.Request) {
	data, ctype, err := h.Identity.Logo(r.Context())
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if len(data) == 0 || (ctype != upload.PNG && ctype != upload.JPEG) {
		http.NotFound(w, r)
		return
	}
	sum := sha256.Sum256(data)
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.Header().Set("ETag", etag)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("Content-Type", ctype)
	_, _ = w.Write(data)
}
