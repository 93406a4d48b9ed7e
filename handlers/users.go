package handlers

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/views"
)

// Users lists staff accounts with the form to add one.
func (h *Handlers) Users(w http.ResponseWriter, r *http.Request) {
	h.renderUsers(w, r, http.StatusOK, views.Form{Values: map[string]string{"role": string(identity.Clerk)}})
}

func (h *Handlers) renderUsers(w http.ResponseWriter, r *http.Request, status int, add views.Form) {
	users, err := h.Staff.Users(r.Context())
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	rows := make([]views.UserRow, 0, len(users))
	for _, u := range users {
		rows = append(rows, userRow(r.Context(), u))
	}
	h.render(w, r, status, views.Users(h.page(w, r, i18n.T(r.Context(), "users.title"), identity.Users), rows, add))
}

func userRow(ctx context.Context, u storage.User) views.UserRow {
	return views.UserRow{ID: u.ID, Username: u.Username, Role: string(u.Role), Disabled: u.Disabled(), Created: i18n.DateTime(ctx, u.CreatedAt)}
}

// AddUser creates an account; invalid input re-renders the form with what was typed.
func (h *Handlers) AddUser(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if !h.readForm(w, r) {
		return
	}
	username := strings.TrimSpace(r.PostFormValue("username"))
	role := r.PostFormValue("role")
	u, err := h.Staff.AddUser(ctx, h.actor(r), username, identity.Role(role), r.PostFormValue("password"))
	if err != nil {
		if apperr.Is(err, apperr.Invalid) {
			form := views.Form{
				Values:  map[string]string{"username": username, "role": role},
				Errors:  apperr.FieldsOf(ctx, err),
				Message: i18n.T(ctx, "users.fix"),
			}
			h.renderUsers(w, r, http.StatusUnprocessableEntity, form)
			return
		}
		h.Fail(w, r, err)
		return
	}
	h.Sessions.AddFlash(w, r, views.Flash{Kind: "ok", Text: i18n.T(ctx, "users.added", u.Username)})
	redirect(w, r, "/users")
}

// UserDetail shows one account with reset and disable actions and its audit trail.
func (h *Handlers) UserDetail(w http.ResponseWriter, r *http.Request) {
	h.renderUserDetail(w, r, http.StatusOK, views.Form{}, views.Form{})
}

// renderUserDetail draws an account's page; a mail form without values shows
// the account's saved e-mail settings.
func (h *Handlers) renderUserDetail(w http.ResponseWriter, r *http.Request, status int, reset, mail views.Form) {
	ctx := r.Context()
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	u, err := h.Audit.UserByID(ctx, id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	entries, err := h.Audit.ListAuditAbout(ctx, u.Username, 50)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	audit := make([]views.AuditRow, 0, len(entries))
	for _, e := range entries {
		audit = append(audit, views.AuditRow{When: i18n.DateTime(ctx, e.At), Who: e.ActorName, What: auditAction(ctx, e.Action), Target: e.Target, Address: e.Address})
	}
	if mail.Values == nil {
		if mail, err = h.savedMail(ctx, id); err != nil {
			h.Fail(w, r, err)
			return
		}
	}
	h.render(w, r, status, views.UserDetail(h.page(w, r, i18n.T(ctx, "users.detail_title", u.Username), identity.Users), userRow(ctx, u), reset, mail, audit))
}

// ResetPassword sets a new password typed by the manager.
func (h *Handlers) ResetPassword(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, ok := h.postedID(w, r)
	if !ok {
		return
	}
	err := h.Staff.SetPassword(ctx, h.actor(r), id, r.PostFormValue("password"))
	if apperr.Is(err, apperr.Invalid) {
		h.renderUserDetail(w, r, http.StatusUnprocessableEntity, views.Form{Errors: apperr.FieldsOf(ctx, err), Message: apperr.MessageOf(ctx, err, "")}, views.Form{})
		return
	}
	h.afterUserChange(w, r, id, err, "users.reset_done")
}

// SetDisabled returns the handler that disables (true) or enables an account.
func (h *Handlers) SetDisabled(disabled bool) http.HandlerFunc {
	done := "users.enable_done"
	if disabled {
		done = "users.disable_done"
	}
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := pathID(r)
		if !ok {
			h.NotFound(w, r)
			return
		}
		h.afterUserChange(w, r, id, h.Staff.SetDisabled(r.Context(), h.actor(r), id, disabled), done)
	}
}

// afterUserChange flashes the outcome of a change and returns to the user's page.
func (h *Handlers) afterUserChange(w http.ResponseWriter, r *http.Request, id int64, err error, doneKey string) {
	ctx := r.Context()
	target := "/users/" + strconv.FormatInt(id, 10)
	switch {
	case err == nil:
		u, lookupErr := h.Audit.UserByID(ctx, id)
		if lookupErr != nil {
			h.Fail(w, r, lookupErr)
			return
		}
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "ok", Text: i18n.T(ctx, doneKey, u.Username)})
	case apperr.Is(err, apperr.Conflict):
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "error", Text: apperr.MessageOf(ctx, err, "")})
	default:
		h.Fail(w, r, err)
		return
	}
	redirect(w, r, target)
}

func pathID(r *http.Request) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	return id, err == nil && id > 0
}

// idOf is the record id the path names; when it names none, the answer (404)
// is written.
func (h *Handlers) idOf(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, ok := pathID(r)
	if !ok {
		h.NotFound(w, r)
	}
	return id, ok
}

// postedID is idOf for a post, whose form is read too (refused with its
// words when it cannot be).
func (h *Handlers) postedID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, ok := h.idOf(w, r)
	return id, ok && h.readForm(w, r)
}

// auditAction names an audit log action ("user added") in the request's
// language; an action the catalog does not know is shown as recorded.
func auditAction(ctx context.Context, action string) string {
	key := "audit." + strings.ReplaceAll(action, " ", "_")
	if i18n.Has(key) {
		return i18n.T(ctx, key)
	}
	return action
}
