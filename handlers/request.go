package handlers

import (
	"errors"
	"net/http"
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
		h.ErrorStatus(w, r, http.StatusRequestEntityTooLarge, "The form is too large.")
		return false
	}
	h.ErrorStatus(w, r, http.StatusBadRequest, "The form could not be read: open the page again and send it once more.")
	return false
}
