package shoptet_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	v3 "github.com/pb33f/libopenapi/datamodel/high/v3"

	"shipdesk/clock"
	"shipdesk/sandbox"
	"shipdesk/sandbox/shoptet"
)

// The contract: every answer of the simulator, success or error, is checked
// against Shoptet's own OpenAPI document (shoptet-api.yaml) by an OpenAPI 3.1
// validator. A success must be one the operation declares, in its schema; an
// error is Shoptet's {data: null, errors: [...], metadata} with errors and
// metadata in the document's Errors and Metadata schemas. Every request the
// shop took is one the document allows.

var (
	docOnce  sync.Once
	docModel *v3.Document
	docErr   error
)

func model(t testing.TB) *v3.Document {
	t.Helper()
	docOnce.Do(func() {
		doc, err := libopenapi.NewDocument(shoptet.Document)
		if err != nil {
			docErr = err
			return
		}
		m, err := doc.BuildV3Model()
		if err != nil {
			docErr = err
			return
		}
		docModel = &m.Model
	})
	if docErr != nil {
		t.Fatalf("Shoptet's OpenAPI document: %v", docErr)
	}
	return docModel
}

// A Monday morning, as the sandbox's tests start.
var start = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

type env struct {
	t       *testing.T
	sb      *sandbox.Sandbox
	shop    *shoptet.Service
	clock   *clock.Clock
	url     string
	minimal bool
	check   validator.Validator
	schemas *schema_validation.SchemaValidator
}

// newEnv starts a whole sandbox (the shop under /shoptet, behind the
// sandbox's faults) on a frozen clock, in the given answer shapes.
func newEnv(t *testing.T, shapes string) *env {
	t.Helper()
	clk := clock.Frozen(start)
	sb, err := sandbox.New(sandbox.Options{Clock: clk, Shapes: shapes})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb.Handler())
	t.Cleanup(func() {
		srv.Close()
		sb.Close()
	})
	m := model(t)
	sv := schema_validation.NewSchemaValidator()
	return &env{t: t, sb: sb, shop: sb.Shoptet, clock: clk, url: srv.URL, minimal: shapes == "minimal",
		check: validator.NewValidatorFromV3Model(m, config.WithoutResponseStatusValidation()), schemas: &sv}
}

// bothShapes runs a test against each answer shape.
func bothShapes(t *testing.T, test func(t *testing.T, e *env)) {
	for _, shapes := range []string{"documented", "minimal"} {
		t.Run(shapes, func(t *testing.T) { test(t, newEnv(t, shapes)) })
	}
}

type answer struct {
	Status int
	Header http.Header
	Body   map[string]any
	Raw    []byte
}

func (a answer) data() map[string]any { d, _ := a.Body["data"].(map[string]any); return d }

func (a answer) errorCode() string {
	errs, _ := a.Body["errors"].([]any)
	if len(errs) == 0 {
		return ""
	}
	e, _ := errs[0].(map[string]any)
	c, _ := e["errorCode"].(string)
	return c
}

// call sends a request with the full token; body may be a string (sent as
// it is) or a value (sent as JSON).
func (e *env) call(method, path string, body any) answer {
	e.t.Helper()
	return e.callAs(shoptet.Token, method, path, body)
}

func (e *env) callAs(token, method, path string, body any) answer {
	e.t.Helper()
	var raw []byte
	switch b := body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		raw, _ = json.Marshal(b)
	}
	req, _ := http.NewRequest(method, e.url+"/shoptet"+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Shoptet-Private-Api-Token", token)
	}
	return e.do(req, raw)
}

func (e *env) do(req *http.Request, sent []byte) answer {
	e.t.Helper()
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	a := answer{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	if err := json.Unmarshal(raw, &a.Body); err != nil {
		e.t.Fatalf("%s %s: %d, not a JSON object: %.300s", req.Method, req.URL.Path, resp.StatusCode, raw)
	}
	if resp.StatusCode >= 500 && resp.StatusCode != http.StatusServiceUnavailable {
		e.t.Errorf("%s %s: %d %.300s", req.Method, req.URL.Path, resp.StatusCode, raw)
	}
	e.validate(req, sent, resp, raw)
	return a
}

// validate checks one exchange against the document.
func (e *env) validate(req *http.Request, sent []byte, resp *http.Response, raw []byte) {
	e.t.Helper()
	path := strings.TrimPrefix(req.URL.Path, "/shoptet")
	u, _ := url.Parse("https://api.myshoptet.com" + path)
	u.RawQuery = req.URL.RawQuery
	specReq, _ := http.NewRequest(req.Method, u.String(), bytes.NewReader(sent))
	specReq.Header = req.Header.Clone()
	pathItem := pathOf(model(e.t), path)
	if pathItem == nil || opOf(pathItem, req.Method) == nil {
		if resp.StatusCode < 400 {
			e.t.Errorf("%s %s answered %d, but Shoptet's document has no such operation", req.Method, path, resp.StatusCode)
		}
		e.validateError(req, resp, raw)
		return
	}
	op := opOf(pathItem, req.Method)
	if resp.StatusCode >= 400 {
		e.validateError(req, resp, raw)
	} else if op.Responses == nil || op.Responses.Codes.GetOrZero(fmt.Sprint(resp.StatusCode)) == nil {
		e.t.Errorf("%s %s answered %d, which the operation does not declare", req.Method, path, resp.StatusCode)
	}
	if declared := op.Responses.Codes.GetOrZero(fmt.Sprint(resp.StatusCode)); declared != nil {
		if mt := declared.Content.GetOrZero("application/json"); mt != nil && mt.Schema != nil {
			var v any
			_ = json.Unmarshal(raw, &v)
			if ok, errs := (*e.schemas).ValidateSchemaObject(mt.Schema.Schema(), v); !ok {
				e.t.Errorf("%s %s %d disagrees with Shoptet's document: %s\n%.400s", req.Method, path, resp.StatusCode, describe(errs), raw)
			}
		}
	}
	if resp.StatusCode < 300 {
		if ok, errs := e.check.ValidateHttpRequestSync(specReq); !ok {
			e.t.Errorf("the shop took %s %s, which Shoptet's document does not allow: %s", req.Method, path, describe(errs))
		}
	}
}

// validateError checks Shoptet's error shape with the document's schemas.
func (e *env) validateError(req *http.Request, resp *http.Response, raw []byte) {
	e.t.Helper()
	var body map[string]json.RawMessage
	_ = json.Unmarshal(raw, &body)
	if len(body) != 3 || string(body["data"]) != "null" {
		e.t.Errorf("%s %s %d: an error is {data: null, errors, metadata}: %.300s", req.Method, req.URL.Path, resp.StatusCode, raw)
	}
	var errs []any
	if json.Unmarshal(body["errors"], &errs) != nil || len(errs) == 0 {
		e.t.Errorf("%s %s %d: errors must list at least one: %.300s", req.Method, req.URL.Path, resp.StatusCode, raw)
	}
	for _, part := range []string{"Errors", "Metadata"} {
		name := map[string]string{"Errors": "errors", "Metadata": "metadata"}[part]
		var v any
		_ = json.Unmarshal(body[name], &v)
		if ok, verrs := (*e.schemas).ValidateSchemaObject(component(e.t, part), v); !ok {
			e.t.Errorf("%s %s %d: %s disagrees with the document's %s: %s", req.Method, req.URL.Path, resp.StatusCode, name, part, describe(verrs))
		}
	}
}

func component(t testing.TB, name string) *base.Schema {
	return model(t).Components.Schemas.GetOrZero(name).Schema()
}

// pathOf finds the document's path item of a concrete path.
func pathOf(m *v3.Document, path string) *v3.PathItem {
	var found *v3.PathItem
	exact := false
	for tmpl, item := range m.Paths.PathItems.FromOldest() {
		if tmpl == path {
			return item
		}
		if !exact && matches(tmpl, path) {
			found = item
		}
	}
	return found
}

func matches(tmpl, path string) bool {
	ts, ps := strings.Split(tmpl, "/"), strings.Split(path, "/")
	if len(ts) != len(ps) {
		return false
	}
	for i := range ts {
		if ts[i] != ps[i] && !(strings.HasPrefix(ts[i], "{") && ps[i] != "") {
			return false
		}
	}
	return true
}

func opOf(item *v3.PathItem, method string) *v3.Operation {
	return map[string]*v3.Operation{"GET": item.Get, "POST": item.Post, "PATCH": item.Patch, "DELETE": item.Delete, "PUT": item.Put}[method]
}

func describe[E interface{ Error() string }](errs []E) string {
	var parts []string
	for _, e := range errs {
		parts = append(parts, e.Error())
	}
	return strings.Join(parts, "; ")
}
