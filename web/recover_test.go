package web

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPanicBecomes500AndServerLives(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	failed := false
	h := recoverPanics(log, func(w http.ResponseWriter, r *http.Request, err error) {
		failed = true
		w.WriteHeader(http.StatusInternalServerError)
	}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/boom" {
			panic("boom")
		}
		w.WriteHeader(http.StatusOK)
	}))
	srv := httptest.NewServer(logRequests(log, nil, h))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/boom")
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 500 || !failed {
		t.Fatalf("panic gave %d", resp.StatusCode)
	}
	if !strings.Contains(logs.String(), "panic=boom") || !strings.Contains(logs.String(), "stack=") {
		t.Errorf("panic not logged with its stack: %s", logs.String())
	}
	resp, err = http.Get(srv.URL + "/fine")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("server dead after a panic: %v", err)
	}
}

func TestRequestLogHasNoSecrets(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	log := slog.New(slog.NewJSONHandler(&logs, nil))
	srv := httptest.NewServer(logRequests(log, nil, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
	})))
	defer srv.Close()
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/login?customer=Jan+Novak", strings.NewReader("password=hunter2hunter2"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Cookie", "shipdesk=secretcookievalue")
	req.Header.Set("X-Request-Id", "abc-123")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	out := logs.String()
	for _, secret := range []string{"hunter2", "secretcookievalue", "Novak"} {
		if strings.Contains(out, secret) {
			t.Errorf("log contains %q: %s", secret, out)
		}
	}
	if !strings.Contains(out, `"request_id":"abc-123"`) || !strings.Contains(out, `"status":200`) {
		t.Errorf("log line lacks id or status: %s", out)
	}
}
