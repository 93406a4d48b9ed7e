// Package contracttest calls a sandbox interface over real HTTP and checks every
// answer against the interface's OpenAPI document, so each contract test also
// proves that the document tells the truth.
package contracttest

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"shipdesk/sandbox/openapi"
)

// Doc is what an interface documents about itself.
type Doc interface {
	Operations() []openapi.Operation
	Components() map[string]openapi.Schema
}

// Client calls one server.
type Client struct {
	T     testing.TB
	URL   string
	doc   Doc
	paths []openapi.Operation
	// Minimal: the server answers in the minimal shapes, so a property marked
	// x-sandbox-only in an answer is a failure.
	Minimal bool
	// Lang, when set, is sent as Accept-Language: the service answers in
	// Czech unless asked for English.
	Lang string
	mu   sync.Mutex
	seen map[string]bool // "METHOD path" of documented operations called
}

// New returns a client for the server at url documented by doc.
func New(t testing.TB, url string, doc Doc) *Client {
	return &Client{T: t, URL: url, doc: doc, paths: doc.Operations(), seen: map[string]bool{}}
}

// Answer is a decoded JSON answer.
type Answer struct {
	Status int
	Body   map[string]any
	Raw    []byte
}

// Call sends a JSON request (a string body is sent as is) with the key.
func (c *Client) Call(method, path, key string, body any) Answer {
	c.T.Helper()
	var rd io.Reader
	if body != nil {
		if s, ok := body.(string); ok {
			rd = strings.NewReader(s)
		} else {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
	}
	req, _ := http.NewRequest(method, c.URL+path, rd)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return c.Do(req, key)
}

// Upload sends one file as multipart/form-data in field.
func (c *Client) Upload(path, key, field, name string, data []byte) Answer {
	c.T.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile(field, name)
	_, _ = fw.Write(data)
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, c.URL+path, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return c.Do(req, key)
}

// Do sends req and checks the answer's envelope and documented shape.
func (c *Client) Do(req *http.Request, key string) Answer {
	c.T.Helper()
	if key != "" {
		req.Header.Set("x-apikey", key)
	}
	if c.Lang != "" {
		req.Header.Set("Accept-Language", c.Lang)
	}
	var sent []byte
	if req.Body != nil && req.Header.Get("Content-Type") == "application/json" {
		sent, _ = io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(sent))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.T.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := Answer{Status: resp.StatusCode, Raw: raw}
	if err := json.Unmarshal(raw, &a.Body); err != nil {
		c.T.Fatalf("%s %s: answer is not a JSON object: %.300s", req.Method, req.URL.Path, raw)
	}
	if st, _ := a.Body["status"].(float64); int(st) != resp.StatusCode {
		c.T.Errorf("%s %s: envelope status %v, HTTP %d", req.Method, req.URL.Path, a.Body["status"], resp.StatusCode)
	}
	op, ok := c.operation(req.Method, req.URL.Path)
	if !ok {
		return a
	}
	c.mu.Lock()
	c.seen[op.Method+" "+op.Path] = true
	c.mu.Unlock()
	validate := openapi.ValidateJSON
	if c.Minimal {
		validate = openapi.ValidateMinimalJSON
	}
	// A body the service took is one of the forms the document publishes.
	if resp.StatusCode < 300 && op.RequestBody != nil && op.RequestType == "" && sent != nil {
		if err := openapi.ValidateJSON(c.doc.Components(), op.RequestBody, sent); err != nil {
			c.T.Errorf("%s %s took a body the OpenAPI document does not describe: %.600v\n%.300s", req.Method, op.Path, err, sent)
		}
	}
	doc, ok := op.Responses[resp.StatusCode]
	if !ok {
		c.T.Errorf("%s %s answered %d, which the OpenAPI document does not list", req.Method, op.Path, resp.StatusCode)
	} else if err := validate(c.doc.Components(), doc.Schema, raw); err != nil {
		c.T.Errorf("%s %s %d disagrees with the OpenAPI document: %.600v\n%.300s", req.Method, op.Path, resp.StatusCode, err, raw)
	}
	return a
}

// Unseen lists the documented operations (of the given tags; all when none)
// that no call has reached yet.
func (c *Client) Unseen(tags ...string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for _, op := range c.paths {
		if len(tags) > 0 && !slices.Contains(tags, op.Tag) {
			continue
		}
		if !c.seen[op.Method+" "+op.Path] {
			out = append(out, op.Method+" "+op.Path)
		}
	}
	return out
}

// operation finds the documented operation of a request path ({id} matches a segment).
func (c *Client) operation(method, path string) (openapi.Operation, bool) {
	for _, op := range c.paths {
		if op.Method == method && match(op.Path, path) {
			return op, true
		}
	}
	return openapi.Operation{}, false
}

func match(pattern, path string) bool {
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(ps) != len(xs) {
		return false
	}
	for i := range ps {
		if ps[i] != xs[i] && !(strings.HasPrefix(ps[i], "{") && xs[i] != "") {
			return false
		}
	}
	return true
}

// FieldError is the message for field in an error answer ("" when none).
func (a Answer) FieldError(field string) string {
	errs, _ := a.Body["errors"].([]any)
	var msgs []string
	for _, e := range errs {
		m, _ := e.(map[string]any)
		if f, _ := m["field"].(string); f == field {
			msg, _ := m["message"].(string)
			msgs = append(msgs, msg)
		}
	}
	return strings.Join(msgs, " | ")
}

// Data is the data member as an object.
func (a Answer) Data() map[string]any {
	d, _ := a.Body["data"].(map[string]any)
	return d
}

// CheckRoutesDocumented fails for any documented operation mux does not serve.
func CheckRoutesDocumented(t testing.TB, mux *http.ServeMux, doc Doc) {
	t.Helper()
	for _, op := range doc.Operations() {
		path := strings.ReplaceAll(op.Path, "{id}", "1")
		req, _ := http.NewRequest(op.Method, path, nil)
		if _, pattern := mux.Handler(req); pattern == "" {
			t.Errorf("documented %s %s is not served", op.Method, op.Path)
		}
		if len(op.Responses) == 0 || op.Summary == "" {
			t.Errorf("%s %s is documented without responses or summary", op.Method, op.Path)
		}
	}
}
