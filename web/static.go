package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"shipdesk/static"
)

// staticFiles serves the embedded files with an ETag each, so browsers revalidate
// cheaply (304) and never keep a stale htmx or stylesheet after an upgrade.
type staticFiles struct {
	files map[string]staticFile
}

type staticFile struct {
	body []byte
	etag string
	ct   string
}

func newStaticFiles() (*staticFiles, error) {
	sf := &staticFiles{files: map[string]staticFile{}}
	err := fs.WalkDir(static.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(static.FS, p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		ct := mime.TypeByExtension(path.Ext(p))
		if ct == "" {
			ct = http.DetectContentType(body)
		}
		sf.files[p] = staticFile{body: body, etag: `"` + hex.EncodeToString(sum[:8]) + `"`, ct: ct}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load static files: %w", err)
	}
	return sf, nil
}

func (sf *staticFiles) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/static/")
	f, ok := sf.files[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("ETag", f.etag)
	w.Header().Set("Content-Type", f.ct)
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(f.body))
}
