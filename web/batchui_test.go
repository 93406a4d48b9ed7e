package web_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"testing"

	"shipdesk/app/apptest"
)

// uploadAs posts a file to the import form with the content type its
// browser gives it.
func uploadAs(t *testing.T, env *apptest.Env, b *apptest.Browser, name, ctype string, data []byte) apptest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("handover", "ONDEMAND")
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="`+name+`"`)
	if ctype != "" {
		h.Set("Content-Type", ctype)
	}
	fw, _ := mw.CreatePart(h)
	_, _ = fw.Write(data)
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, env.URL+"/shipping/batches", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", env.URL)
	return b.Do(req)
}

// stored counts the batches, their rows and the uploads kept for mapping.
func stored(t *testing.T, env *apptest.Env) [3]int {
	t.Helper()
	var out [3]int
	for i, table := range []string{"batches", "batch_rows", "batch_uploads"} {
		if err := env.App.DB.SQL().QueryRowContext(context.Background(), "SELECT count(*) FROM "+table).Scan(&out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// A picture, a PDF, any binary, an empty file or an upload of another type
// is refused on the upload form itself, said plainly in the clerk's
// language, and nothing is kept: no batch, no upload waiting for mapping.
func TestUploadsThatAreNoOrdersAreRefusedOnTheUploadForm(t *testing.T) {
	env, b := deskEnv(t)
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00\x1f\xf3\xffa\x00\x00\x00\x04gAMA")
	binary := make([]byte, 4096)
	for i := range binary {
		binary[i] = byte(i * 31 % 256)
	}
	csv := ordersCSV(t)
	const notOrders, wrongType, empty = "is not a table of orders", "which is neither CSV nor XLSX", "The file is empty."
	before := stored(t, env)
	for _, c := range []struct {
		name, file, ctype string
		data              []byte
		want              string
	}{
		{"PNG", "photo.png", "image/png", png, wrongType},
		{"PNG named CSV", "orders.csv", "text/csv", png, notOrders},
		{"PNG of no type", "orders.csv", "application/octet-stream", png, notOrders},
		{"PDF", "orders.csv", "text/csv", []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"), notOrders},
		{"binary", "orders.csv", "", binary, notOrders},
		{"empty", "orders.csv", "text/csv", nil, empty},
		{"blank lines", "orders.csv", "text/csv", []byte("\r\n  \r\n\r\n"), empty},
		{"orders sent as a picture", "orders.csv", "image/png", csv, "“image/png”"},
		{"orders sent as a web page", "orders.csv", "text/html; charset=utf-8", csv, "“text/html”"},
		{"an unreadable type", "orders.csv", "text/<script>", csv, wrongType},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := uploadAs(t, env, b, c.file, c.ctype, c.data)
			doc := page(t, r.Body)
			if r.StatusCode != http.StatusUnprocessableEntity || doc.Find(`[data-testid=batch-import]`).Length() != 1 || doc.Find(`[data-testid=batch-map]`).Length() != 0 {
				t.Fatalf("%d, upload form %d, mapping form %d: %s", r.StatusCode, doc.Find(`[data-testid=batch-import]`).Length(),
					doc.Find(`[data-testid=batch-map]`).Length(), problemsOf(r.Body))
			}
			if got := doc.Find(`.field.has-error .field-error`).Text(); !strings.Contains(got, c.want) {
				t.Errorf("the file's field says %q, want %q", got, c.want)
			}
			if strings.Contains(r.Body, "<script>") {
				t.Error("the type is shown unescaped")
			}
		})
	}
	if after := stored(t, env); after != before {
		t.Errorf("stored: %v before, %v after", before, after)
	}
	// In Czech.
	b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/shipping/batches/new"}})
	r := uploadAs(t, env, b, "photo.png", "image/png", png)
	if got := page(t, r.Body).Find(`.field.has-error .field-error`).Text(); r.StatusCode != 422 || !strings.Contains(got, "což není CSV ani XLSX") {
		t.Errorf("in Czech: %d %q", r.StatusCode, got)
	}
	r = uploadAs(t, env, b, "orders.csv", "text/csv", png)
	if got := page(t, r.Body).Find(`.field.has-error .field-error`).Text(); r.StatusCode != 422 || !strings.Contains(got, "není tabulka objednávek") {
		t.Errorf("in Czech: %d %q", r.StatusCode, got)
	}
	// The real file still goes in.
	b.PostForm("/language", url.Values{"lang": {"en"}, "back": {"/shipping/batches/new"}})
	if r := uploadAs(t, env, b, "orders.csv", "text/csv", csv); r.StatusCode != http.StatusSeeOther || batchPath.FindStringSubmatch(r.Header.Get("Location")) == nil {
		t.Errorf("the template: %d %s", r.StatusCode, problemsOf(r.Body))
	}
}
