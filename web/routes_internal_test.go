package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// The shortcut past the sessionless mux takes exactly the paths the mux
// itself would take as they are, without redirecting to a cleaner one.
func TestCleanPathsAreWhatTheMuxTakes(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	for _, p := range []string{"/", "/shipping", "/shipping/", "/a/b/c", "//", "//a", "/a//b", "/./", "/a/./b", "/a/../b",
		"/..", "/.", "/a/.", "/a/..", "/a/b/", "/.hidden", "/a..b", "/static/../x", "/a/b/./"} {
		req := httptest.NewRequest(http.MethodGet, "http://x"+p, nil)
		req.URL.Path = p
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, req)
		if took := rec.Code == http.StatusTeapot; took != isCleanPath(p) {
			t.Errorf("%q: the mux answers %d, isCleanPath says %v", p, rec.Code, isCleanPath(p))
		}
	}
}
