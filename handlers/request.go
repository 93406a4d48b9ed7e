package handlers

import (
	"cmp"
	"errors"
	"mime"
	"net/http"

	"shipdesk/i18n"
)

// The one way a handler reads a posted form: of bounded size, a multipart
// one with its files; when it cannot be read the handler's answer is given
// here (413 for a form over the limit, 400 for one that cannot be read, each
// with a message) and the handler stops.

// readForm reads a form of at most maxFormBytes (postedForm).
func (h *Handlers) readForm(w http.ResponseWriter, r *http.Request) bool {
	return h.postedForm(w, r, maxFormBytes, i18n.T(r.Context(), "error.form_too_large"), i18n.T(r.Context(), "error.form_unreadable"))
}

// parseBody reads a post's form, a multipart one with its files too, of at
// most limit bytes in all.
func parseBody(w http.ResponseWriter, r *http.Request, limit int64) error {
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		return r.ParseMultipartForm(1 << 20)
	}
	return r.ParseForm()
}

// postedForm reads a post's form (parseBody) and, when it cannot, answers one
// way: 413 with tooLarge (or a general message) when it is too large, 400
// with malformed when it cannot be read.
func (h *Handlers) postedForm(w http.ResponseWriter, r *http.Request, limit int64, tooLarge, malformed string) bool {
	err := parseBody(w, r, limit)
	if err == nil {
		return true
	}
	if tooBig := (*http.MaxBytesError)(nil); errors.As(err, &tooBig) {
		h.ErrorStatus(w, r, http.StatusRequestEntityTooLarge, cmp.Or(tooLarge, i18n.T(r.Context(), "error.too_large")))
		return false
	}
	h.ErrorStatus(w, r, http.StatusBadRequest, malformed)
	return false
}
