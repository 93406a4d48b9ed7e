package handlers

import (
	"context"
	"net/http"
	"strconv"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/views"
)

// UserMails reads staff members' e-mail settings (storage.DB).
type UserMails interface {
	UserMailOf(ctx context.Context, id int64) (storage.UserMail, error)
}

func (h *Handlers) savedMail(ctx context.Context, id int64) (views.Form, error) {
	m, err := h.UserMails.UserMailOf(ctx, id)
	if err != nil {
		return views.Form{}, err
	}
	f := views.Form{Values: map[string]string{"email": m.Email}}
	if m.DailySummary {
		f.Values["daily_summary"] = "on"
	}
	return f, nil
}

// SetUserMail saves an account's e-mail address and, for a manager, the
// daily summary by mail; a wrong address comes back on the form as typed.
func (h *Handlers) SetUserMail(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, ok := h.postedID(w, r)
	if !ok {
		return
	}
	email, daily := r.PostFormValue("email"), r.PostFormValue("daily_summary") == "on"
	if err := h.Staff.SetMail(ctx, h.actor(r), id, email, daily); err != nil {
		if apperr.Is(err, apperr.Invalid) {
			f := views.Form{Values: map[string]string{"email": email, "daily_summary": r.PostFormValue("daily_summary")},
				Errors: apperr.FieldsOf(ctx, err), Message: apperr.MessageOf(ctx, err, "")}
			h.renderUserDetail(w, r, http.StatusUnprocessableEntity, views.Form{}, f)
			return
		}
		h.Fail(w, r, err)
		return
	}
	h.Sessions.AddFlash(w, r, views.Flash{Kind: "ok", Text: i18n.T(ctx, "users.mail.saved")})
	redirect(w, r, "/users/"+strconv.FormatInt(id, 10))
}
