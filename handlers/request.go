package handlers

import (
	"errors"
	"net/http"

	"shipdesk/i18n"
)

// readForm parses a posted form of bounded size (as parseForm). When it
// cannot, it answers for the handler: 413 for a form over the limit, 400 for
// one that cannot be read; the handler then stops.
func (h *Handlers) readForm(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	err := r.ParseForm()
	if err == nil {
		return true
	}
	if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
		h.ErrorStatus(w, r, http.StatusRequestEntityTooLarge, i18n.T(r.Context(), "error.form_too_large"))
		return false
	}
	h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(r.Context(), "error.form_unreadable"))
	return false
}
