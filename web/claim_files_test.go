package web_test

import (
	"bytes"
	"context"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"net/http"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// Files a customer sends are kept under a name of the type their content is,
// without characters that change what is shown; photos are drawn again, so
// nothing hidden in them or after them is kept; and every file is offered to
// the staff and to the customer as an attachment, with nosniff and a
// sandbox policy, never shown from the dashboard's origin.
func TestClaimFilesAreKeptAndOfferedSafely(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	hidden := "<html><script>alert(document.cookie)</script></html>"
	status := fileClaimWith(t, env, map[string][][2]string{
		"proof": {{"invoice.pdf", pdfOpenAction}},
		"photos": {{"evil.html", string(pngBytes)}, {"evil.svg", string(pngBytes)},
			{"photo\u202egpj.hta", jpegBytes + hidden}}})
	c, err := env.ClaimByStatus(status)
	if err != nil || c.CommissionID == nil {
		t.Fatalf("claim %+v %v", c, err)
	}
	files, err := env.App.DB.ClaimUploads(ctx, c.ID)
	if err != nil || len(files) != 4 {
		t.Fatalf("%d files kept, %v", len(files), err)
	}
	want := map[string]string{"invoice.pdf": "application/pdf", "evil.png": "image/png", "photogpj.jpg": "image/jpeg"}
	names := map[string]int{}
	for _, f := range files {
		names[f.Filename]++
	}
	if names["invoice.pdf"] != 1 || names["evil.png"] != 2 || names["photogpj.jpg"] != 1 {
		t.Errorf("kept as %v", names)
	}
	agent := env.SignedIn(identity.Agent)
	cpage := agent.Get("/returns/commissions/" + itoa(*c.CommissionID)).Body
	customerPage := env.NewBrowser().Get(status).Body
	for _, body := range []string{cpage, customerPage} {
		if strings.Contains(body, "\u202e") || strings.Contains(body, "evil.html") || strings.Contains(body, "evil.svg") ||
			!strings.Contains(body, "photogpj.jpg") {
			t.Errorf("a page names the files as they were sent: %s", problemsOf(body))
		}
	}
	for _, f := range files {
		for who, get := range map[string]func() apptest.Response{
			"agent":    func() apptest.Response { return agent.Get("/returns/files/" + itoa(f.ID)) },
			"customer": func() apptest.Response { return env.NewBrowser().Get(status + "/files/" + itoa(f.ID)) },
		} {
			r := get()
			h := r.Header
			if r.StatusCode != 200 || h.Get("Content-Type") != want[f.Filename] {
				t.Errorf("%s opens %s: %d %s", who, f.Filename, r.StatusCode, h.Get("Content-Type"))
			}
			if d := h.Get("Content-Disposition"); !strings.HasPrefix(d, "attachment;") || !strings.Contains(d, "filename*=UTF-8''"+f.Filename) {
				t.Errorf("%s gets %s as %q", who, f.Filename, d)
			}
			if h.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(h.Get("Content-Security-Policy"), "sandbox") {
				t.Errorf("%s gets %s without nosniff or sandbox: %v", who, f.Filename, h)
			}
			if f.Filename == "invoice.pdf" {
				continue // kept as it came: offered only to be saved
			}
			if strings.Contains(r.Body, "<script") || strings.Contains(r.Body, "<html") {
				t.Errorf("%s's photo %s still holds what was hidden in it", who, f.Filename)
			}
			if _, _, err := image.Decode(bytes.NewReader([]byte(r.Body))); err != nil {
				t.Errorf("%s's photo %s is no image: %v", who, f.Filename, err)
			}
		}
	}
}

// fileClaimWith files a claim of a defect with files, brought to the shop,
// and returns its status page's path.
func fileClaimWith(t *testing.T, env *apptest.Env, files map[string][][2]string) string {
	t.Helper()
	_, link := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	b := env.NewBrowser()
	fields := claimFields(t, b.Get(link).Body, "kind", "defect", "remedy", "repair", "transport", "shop", "description", "Cracked.")
	resp := claimPost(t, env, b, link, fields, files)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("file the claim: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	return resp.Header.Get("Location")
}

// Files of a type not allowed, and images over 40 megapixels by their
// header (a few bytes claiming 60000×60000), are the form's problem: said
// on the field, nothing stored, and the bomb never drawn.
func TestClaimRefusesFilesThatAreNoSafeImage(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	_, link := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	b := env.NewBrowser()
	fields := claimFields(t, b.Get(link).Body, "kind", "defect", "remedy", "repair", "transport", "shop", "description", "Cracked.")
	count := func() (n int) {
		_ = env.App.DB.SQL().QueryRowContext(ctx, `SELECT (SELECT count(*) FROM claims) + (SELECT count(*) FROM uploads)`).Scan(&n)
		return n
	}
	before := count()
	svg := `<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>`
	for name, c := range map[string]struct {
		files map[string][][2]string
		field string
		says  string
	}{
		"svg photo":      {map[string][][2]string{"proof": {{"invoice.pdf", string(pdfBytes)}}, "photos": {{"evil.svg", svg}}}, "photos", "Only PDF, JPEG or PNG"},
		"svg proof":      {map[string][][2]string{"proof": {{"invoice.svg", svg}}}, "proof", "Only PDF, JPEG or PNG"},
		"png bomb photo": {map[string][][2]string{"proof": {{"invoice.pdf", string(pdfBytes)}}, "photos": {{"big.png", string(pngClaiming(60000, 60000))}}}, "photos", "at most 40 megapixels"},
		"png bomb proof": {map[string][][2]string{"proof": {{"invoice.png", string(pngClaiming(60000, 60000))}}}, "proof", "at most 40 megapixels"},
		"damaged photo":  {map[string][][2]string{"proof": {{"invoice.pdf", string(pdfBytes)}}, "photos": {{"lid.jpg", jpegBytes[:len(jpegBytes)/2]}}}, "photos", "cannot be read"},
	} {
		r := claimPost(t, env, b, link, fields, c.files)
		if r.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: %d", name, r.StatusCode)
			continue
		}
		if got := page(t, r.Body).Find("#" + c.field + "-error").Text(); !strings.Contains(got, c.says) {
			t.Errorf("%s: the %s field says %q, want %q", name, c.field, got, c.says)
		}
	}
	if n := count(); n != before {
		t.Errorf("%d claims and files stored by refused posts", n-before)
	}
}
