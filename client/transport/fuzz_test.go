package transport

import (
	"net/http"
	"strings"
	"testing"
)

// The envelope decoder and the read path never panic, and a body is either an
// answer or an error, never both and never an error status taken as success.
func FuzzDecodeEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"status":400,"message":"x","errors":[{"field":"a","message":"b"}]}`,
		`{"status":200,"message":"ok","data":{}}`,
		`{"errors":["a","b"]}`, `{"errors":{"f":"m"}}`, `{"errors":7}`,
		`[]`, `null`, `"x"`, `{"status":"1"}`, `{`, ``, "<html>",
	} {
		f.Add([]byte(s), 400)
	}
	f.Fuzz(func(t *testing.T, body []byte, status int) {
		if env, err := DecodeEnvelope(body); err == nil && env.Status != 0 && !strings.Contains(string(body), "status") {
			t.Fatalf("status %d read from a body without one", env.Status)
		}
		// The full read path must classify any body without panicking.
		c := &Client{cfg: Config{MaxBody: 1 << 20}}
		resp := &http.Response{StatusCode: 100 + abs(status)%500, Header: http.Header{"Content-Type": {"application/json"}}, Body: http.NoBody}
		resp.Body = nopCloser{strings.NewReader(string(body))}
		ans, rerr := c.read(Call{Op: "fuzz"}, resp, true)
		if (ans == nil) == (rerr == nil) {
			t.Fatalf("read returned answer %v and error %v", ans, rerr)
		}
		if ans != nil && (resp.StatusCode < 200 || resp.StatusCode > 299) {
			t.Fatalf("status %d accepted as success", resp.StatusCode)
		}
	})
}

type nopCloser struct{ *strings.Reader }

func (nopCloser) Close() error { return nil }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
