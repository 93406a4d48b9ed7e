package handlers

import (
	"context"
	"net/http"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
)

// shipmentNotes are the internal notes of a shipment's page.
type shipmentNotes interface {
	AddNote(ctx context.Context, id int64, key, text string, by int64) (storage.ShipmentNote, error)
}

// noteReads read a shipment's notes for its page.
type noteReads interface {
	ShipmentNotes(ctx context.Context, shipmentID int64) ([]storage.ShipmentNote, error)
}

// AddShipmentNote keeps an internal note on a shipment. A note that cannot be
// kept shows the page again with the text as typed and its problem; htmx
// swaps the notes' section in place, a plain post returns to the page.
func (h *Handlers) AddShipmentNote(w http.ResponseWriter, r *http.Request) {
	id, ok := h.shipmentID(w, r)
	if !ok || !h.readForm(w, r) {
		return
	}
	ctx := r.Context()
	text, key := r.PostFormValue("note_text"), r.PostFormValue("key")
	_, err := h.ShipDesk.AddNote(ctx, id, key, text, h.userID(r))
	switch {
	case err == nil && httpx.IsHTMX(r):
		h.renderShipmentPage(w, r, http.StatusOK, blankNoteForm())
	case err == nil:
		h.finish(w, r, nil, i18n.T(ctx, "notes.saved"), shipmentPath(id))
	case apperr.CodeOf(err) == apperr.Invalid:
		form := views.Form{Values: map[string]string{"key": cleanKey(key)}, Errors: apperr.FieldsOf(ctx, err),
			Message: apperr.MessageOf(ctx, err, ""), Focus: "note_text"}
		form.Values["note_text"], _ = textin.Lines(text, desk.MaxNote)
		h.renderShipmentPage(w, r, http.StatusUnprocessableEntity, form)
	default:
		h.Fail(w, r, err)
	}
}

// blankNoteForm is the note form of a page drawn anew: a new request key.
func blankNoteForm() views.Form {
	return views.Form{Values: map[string]string{"key": requestkey.New()}}
}

// cleanKey keeps a posted request key only when it is one, so a repeated
// post of the corrected form is still one note.
func cleanKey(key string) string {
	if requestkey.Valid(key) {
		return key
	}
	return requestkey.New()
}

// noteRows are a shipment's notes as its page shows them: author, time in
// the shop's zone, text.
func noteRows(ctx context.Context, notes []storage.ShipmentNote) []views.NoteRow {
	rows := make([]views.NoteRow, 0, len(notes))
	for _, n := range notes {
		author := n.Author
		if author == "" {
			author = i18n.T(ctx, "notes.author_gone")
		}
		rows = append(rows, views.NoteRow{Author: author, Created: i18n.DateTime(ctx, n.CreatedAt), Text: n.Text})
	}
	return rows
}
