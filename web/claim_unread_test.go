package web_test

import (
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"shipdesk/app/apptest"
)

// countingBody is a post's body as the client's transport reads it.
type countingBody struct {
	r    io.ReadCloser
	read atomic.Int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read.Add(int64(n))
	return n, err
}

func (c *countingBody) Close() error { return c.r.Close() }

// postedFile is a file of a post: its field, its name and its size.
type postedFile struct {
	field, name string
	size        int
}

// claimFormBody is a multipart claim form of fields (the key first, as the
// form draws it) and then files of JPEG-looking bytes, written as it is read.
func claimFormBody(fields url.Values, files ...postedFile) (io.ReadCloser, string) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		err := func() error {
			if err := mw.WriteField("key", fields.Get("key")); err != nil {
				return err
			}
			for k, vs := range fields {
				for _, v := range vs {
					if k != "key" {
						if err := mw.WriteField(k, v); err != nil {
							return err
						}
					}
				}
			}
			chunk := make([]byte, 64<<10)
			for _, f := range files {
				fw, err := mw.CreateFormFile(f.field, f.name)
				if err != nil {
					return err
				}
				copy(chunk, "\xff\xd8\xff\xe0")
				for left := f.size; left > 0; left -= len(chunk) {
					if _, err := fw.Write(chunk[:min(left, len(chunk))]); err != nil {
						return err
					}
					chunk[0], chunk[1], chunk[2] = 0, 0, 0
				}
			}
			return mw.Close()
		}()
		pw.CloseWithError(err)
	}()
	return pr, mw.FormDataContentType()
}

// countedPost posts the claim form to path as a client that sends its body
// only after the server's 100 Continue (RFC 9110 §10.1.1), which net/http
// sends when the handler first reads the body. It returns the answer and how
// many bytes of the body left the client.
func countedPost(t *testing.T, env *apptest.Env, path string, fields url.Values, size int) (*http.Response, int64) {
	t.Helper()
	pr, ctype := claimFormBody(fields, postedFile{"photos", "lid.jpg", size})
	body := &countingBody{r: pr}
	req, _ := http.NewRequest(http.MethodPost, env.URL+path, body)
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Origin", env.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Expect", "100-continue")
	client := &http.Client{Transport: &http.Transport{ExpectContinueTimeout: time.Minute},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("post %s: %v", path, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp, body.read.Load()
}

// A post to a link or status page that does not exist is answered before a
// byte of its body is read; a post to a link that opens is read whole; a
// post to a used link is answered after its fields (its files are skipped):
// its key leads the same form posted twice to its claim.
func TestClaimPostsAreReadOnlyForALinkThatOpens(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	const size = 28 << 20
	_, link := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	fields := claimFields(t, env.NewBrowser().Get(link).Body, "kind", "defect", "remedy", "repair", "transport", "shop",
		"description", "Cracked.")
	made := "/claim/open/" + strings.Repeat("x", 43)
	for _, path := range []string{made, made + "/points", "/claim/open/not-a-token", "/claim/status/" + strings.Repeat("y", 43) + "/reply"} {
		resp, read := countedPost(t, env, path, fields, size)
		if resp.StatusCode != http.StatusNotFound || read != 0 {
			t.Errorf("%s: %d with %d bytes of the post read, want 404 with none", path, resp.StatusCode, read)
		}
	}
	// The link that opens: read whole, and refused for what it lacks.
	noModel := with(url.Values{}, "key", fields.Get("key"), "kind", "defect")
	resp, read := countedPost(t, env, link, noModel, size)
	if resp.StatusCode != http.StatusUnprocessableEntity || read < size {
		t.Fatalf("the link that opens: %d with %d of %d bytes read", resp.StatusCode, read, size)
	}
	// Filed, then posted again: led to its claim.
	b := env.NewBrowser()
	filed := claimPost(t, env, b, link, fields, map[string][][2]string{"proof": {{"invoice.pdf", string(pdfBytes)}}})
	if filed.StatusCode != http.StatusSeeOther {
		t.Fatalf("file: %d %s", filed.StatusCode, problemsOf(filed.Body))
	}
	resp, read = countedPost(t, env, link, fields, size)
	first, err := env.ClaimByStatus(filed.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	// Each redirect to a status page carries a key of its own: the same claim's.
	again, err := env.ClaimByStatus(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || err != nil || again.ID != first.ID {
		t.Errorf("the same form again: %d to %q (claim %d, want %d: %v)", resp.StatusCode, resp.Header.Get("Location"), again.ID, first.ID, err)
	}
	if resp, _ = countedPost(t, env, link, with(fields, "key", "8f0e4c7a-3b1d-4e2f-9a6b-5c4d3e2f1a0b"), size); resp.StatusCode != http.StatusConflict {
		t.Errorf("another form to the used link: %d", resp.StatusCode)
	}
}
