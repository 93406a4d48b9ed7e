package apijson

import "net/http"

// WithJSONFallbacks answers what mux itself refuses (an unknown path: 404, a
// wrong method: 405 with its Allow header) in the JSON envelope instead of the
// mux's plain text, since clients decode every answer as JSON.
func WithJSONFallbacks(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, pattern := mux.Handler(r)
		if pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		rec := &recorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		switch rec.status {
		case http.StatusNotFound:
			WriteProblem(w, r, Fail(http.StatusNotFound, msgNoOperation, clip(r.URL.Path)))
		case http.StatusMethodNotAllowed:
			w.Header().Set("Allow", rec.header.Get("Allow"))
			WriteProblem(w, r, Fail(http.StatusMethodNotAllowed, msgNoMethod, r.Method, clip(r.URL.Path), rec.header.Get("Allow")))
		default: // a redirect to the clean path and the like: pass it on as it is
			for k, v := range rec.header {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.status)
			_, _ = w.Write(rec.body)
		}
	})
}

// recorder keeps what the mux's own fallback handler writes.
type recorder struct {
	header http.Header
	status int
	body   []byte
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	r.body = append(r.body, b...)
	return len(b), nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
