package handlers

import (
	"net/http"
	"time"

	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/views"
)

// LangCookie keeps the language chosen in this browser, for the pages before
// sign-in; a signed-in staff member's choice is saved with the account.
const LangCookie = "shipdesk_lang"

// SetLanguage switches the dashboard's language and returns to the page.
func (h *Handlers) SetLanguage(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	back := httpx.LocalPath(r.PostFormValue("back"))
	lang, ok := i18n.Parse(r.PostFormValue("lang"))
	if !ok {
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "error", Text: i18n.T(r.Context(), "lang.unknown")})
		redirect(w, r, back)
		return
	}
	if st := identity.From(r.Context()); st != nil {
		if err := h.Staff.SetLanguage(r.Context(), st, string(lang)); err != nil {
			h.Fail(w, r, err)
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: LangCookie, Value: string(lang), Path: "/", MaxAge: int((365 * 24 * time.Hour).Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: httpx.IsHTTPS(r, h.TrustProxy)})
	redirect(w, r, back)
}
