package handlers

import (
	"net/http"

	"shipdesk/apperr"
	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/textin"
	"shipdesk/views"
)

// maxFormBytes bounds every ordinary form post.
const maxFormBytes = 64 << 10

// LoginForm shows the sign-in form; a signed-in person goes home.
func (h *Handlers) LoginForm(w http.ResponseWriter, r *http.Request) {
	if identity.From(r.Context()) != nil {
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	next := httpx.LocalPath(r.URL.Query().Get("next"))
	h.render(w, r, http.StatusOK, views.Login(h.page(w, r, i18n.T(r.Context(), "login.title"), ""), views.Form{}, next))
}

// Login checks the credentials, starts a session and goes to ?next. A failure
// re-renders the form with the username kept and the password cleared.
func (h *Handlers) Login(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if !h.readForm(w, r) {
		return
	}
	username, userProblem := textin.Line(r.PostFormValue("username"), 100)
	password := r.PostFormValue("password")
	next := httpx.LocalPath(r.PostFormValue("next"))
	form := views.Form{Values: map[string]string{"username": username}}
	if !userProblem.IsZero() {
		form.Message, form.Errors = userProblem.In(ctx), map[string]string{"username": userProblem.In(ctx)}
		h.render(w, r, http.StatusUnprocessableEntity, views.Login(h.page(w, r, i18n.T(ctx, "login.title"), ""), form, next))
		return
	}

	if username == "" || password == "" {
		form.Message = i18n.T(ctx, "login.missing")
		form.Errors = map[string]string{}
		if username == "" {
			form.Errors["username"] = i18n.T(ctx, "login.missing")
		}
		if password == "" {
			form.Errors["password"] = i18n.T(ctx, "login.missing")
		}
		h.render(w, r, http.StatusUnprocessableEntity, views.Login(h.page(w, r, i18n.T(ctx, "login.title"), ""), form, next))
		return
	}

	_, token, err := h.Staff.SignIn(ctx, username, password, h.address(r), r.UserAgent())
	if err != nil {
		switch apperr.CodeOf(err) {
		case apperr.Unauthorized, apperr.TooMany:
			form.Message = apperr.MessageOf(ctx, err, "login.failed")
			h.render(w, r, answerStatus(w, err), views.Login(h.page(w, r, i18n.T(ctx, "login.title"), ""), form, next))
		default:
			if h.databaseDown(ctx) { // keep the form: the person only has to send it again
				form.Message = i18n.T(ctx, "error.unavailable")
				h.Log.Warn("sign-in: the database is not answering", "err", err)
				h.render(w, r, http.StatusServiceUnavailable, views.Login(h.page(w, r, i18n.T(ctx, "login.title"), ""), form, next))
				return
			}
			h.Fail(w, r, err)
		}
		return
	}
	if err := h.Sessions.Start(w, r, token); err != nil {
		h.Fail(w, r, err)
		return
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// Logout ends the session, in the database as well as in the browser, so a copied
// cookie stops working too.
func (h *Handlers) Logout(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if err := h.Staff.SignOut(ctx, identity.From(ctx), h.Sessions.Token(r), h.address(r)); err != nil {
		h.Fail(w, r, err)
		return
	}
	if err := h.Sessions.End(w, r); err != nil {
		h.Fail(w, r, err)
		return
	}
	h.Sessions.AddFlash(w, r, views.Flash{Kind: "info", Text: i18n.T(ctx, "login.signed_out")})
	redirect(w, r, "/login")
}
