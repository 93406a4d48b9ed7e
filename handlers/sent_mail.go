package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"shipdesk/i18n"
	"shipdesk/mailcatch"
	"shipdesk/storage"
	"shipdesk/views"
)

// SentMail is what the Sent mail page reads: the outbox, and the copies the
// in-process catcher caught (none when mail goes to a real server).
type SentMail interface {
	RecentMail(ctx context.Context, limit int) ([]storage.OutMail, error)
	MailByID(ctx context.Context, id int64) (storage.OutMail, error)
	Caught(messageID string) []mailcatch.Caught
}

// sentMailShown is how many of the newest mails the page lists.
const sentMailShown = 200

// sandboxOnly answers 404 outside sandbox mode: real customers' mail is
// never shown.
func (h *Handlers) sandboxOnly(w http.ResponseWriter, r *http.Request) bool {
	if !h.Link.IsSandbox() {
		h.NotFound(w, r)
		return false
	}
	return true
}

// SentMailList lists the outbox, newest first, with each mail's state.
func (h *Handlers) SentMailList(w http.ResponseWriter, r *http.Request) {
	if !h.sandboxOnly(w, r) {
		return
	}
	ctx := r.Context()
	mails, err := h.SentMail.RecentMail(ctx, sentMailShown)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	rows := make([]views.SentMailRow, 0, len(mails))
	for _, m := range mails {
		rows = append(rows, sentMailRow(ctx, m, len(h.SentMail.Caught(m.MessageID))))
	}
	h.render(w, r, http.StatusOK, views.SentMailList(h.page(w, r, i18n.T(ctx, "mail.title"), ""), rows))
}

// SentMailPage shows one mail: its record in the outbox and what the
// catcher received, links clickable and attachments to download.
func (h *Handlers) SentMailPage(w http.ResponseWriter, r *http.Request) {
	if !h.sandboxOnly(w, r) {
		return
	}
	ctx := r.Context()
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	m, err := h.SentMail.MailByID(ctx, id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	caught := h.SentMail.Caught(m.MessageID)
	copies := make([]views.CaughtMail, 0, len(caught))
	for _, c := range caught {
		cm := views.CaughtMail{Received: i18n.DateTime(ctx, c.Received), From: c.From, To: c.To, Subject: c.Subject, Text: c.Text}
		for n, f := range c.Attachments {
			cm.Files = append(cm.Files, views.CaughtFile{Name: f.Name, Size: len(f.Data),
				URL: "/sandbox/mail/" + strconv.FormatInt(m.ID, 10) + "/files/" + strconv.Itoa(n)})
		}
		copies = append(copies, cm)
	}
	h.render(w, r, http.StatusOK, views.SentMailDetail(h.page(w, r, m.Subject, ""), sentMailRow(ctx, m, len(caught)), copies))
}

// SentMailFile downloads an attachment of the latest caught copy, always as
// a download (an attachment is never drawn as one of our pages).
func (h *Handlers) SentMailFile(w http.ResponseWriter, r *http.Request) {
	if !h.sandboxOnly(w, r) {
		return
	}
	id, ok := pathID(r)
	n, err := strconv.Atoi(r.PathValue("n"))
	if !ok || err != nil || n < 0 {
		h.NotFound(w, r)
		return
	}
	m, err := h.SentMail.MailByID(r.Context(), id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	caught := h.SentMail.Caught(m.MessageID)
	if len(caught) == 0 || n >= len(caught[len(caught)-1].Attachments) {
		h.NotFound(w, r)
		return
	}
	f := caught[len(caught)-1].Attachments[n]
	ctype := "application/octet-stream"
	if f.ContentType == "application/pdf" {
		ctype = f.ContentType
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", "attachment; filename*=UTF-8''"+url.PathEscape(f.Name))
	w.Header().Set("Cache-Control", "private, no-store")
	_, _ = w.Write(f.Data)
}

func sentMailRow(ctx context.Context, m storage.OutMail, caught int) views.SentMailRow {
	row := views.SentMailRow{ID: m.ID, EventKey: m.EventKey, To: m.To, ToName: m.ToName, Subject: m.Subject, State: m.State,
		Attempts: m.Attempts, LastError: m.LastError, Created: i18n.DateTime(ctx, m.CreatedAt), Caught: caught, MessageID: m.MessageID}
	if m.SentAt != nil {
		row.Sent = i18n.DateTime(ctx, *m.SentAt)
	}
	for _, a := range m.Attachments {
		row.Files = append(row.Files, a.Name)
	}
	return row
}
