package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage/pgtest"
)

// asCommand makes the test binary run as the shipdesk command when a test
// starts it as a child process, so a test can kill a real `serve` outright.
const asCommand = "SHIPDESK_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asCommand) == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// child is a `shipdesk serve` in its own process.
type child struct {
	cmd  *exec.Cmd
	URL  string
	logs *bytes.Buffer
	mu   *sync.Mutex
}

var servingOn = regexp.MustCompile(`serving on (http://\S+?)/?$`)

// startServe starts `shipdesk serve` on a free port with flags and env and
// waits until it serves.
func startServe(t *testing.T, flags, env []string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"serve", "--addr", "127.0.0.1:0", "--migrate"}, flags...)...)
	cmd.Env = append(os.Environ(), append([]string{asCommand + "=1"}, env...)...)
	c := &child{cmd: cmd, logs: &bytes.Buffer{}, mu: &sync.Mutex{}}
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = lockedWriter{c.mu, c.logs}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.kill() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := servingOn.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		close(found)
	}()
	select {
	case u, ok := <-found:
		if !ok {
			t.Fatalf("serve ended before serving:\n%s", c.log())
		}
		c.URL = u
	case <-time.After(time.Minute):
		t.Fatalf("serve did not start:\n%s", c.log())
	}
	return c
}

func (c *child) log() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.logs.String()
}

// kill ends the process at once, as a crash or a power cut would.
func (c *child) kill() {
	if c.cmd.ProcessState == nil {
		_ = c.cmd.Process.Kill()
		_ = c.cmd.Wait()
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// clerkClient signs in to base as username and keeps the session cookie.
func clerkClient(t *testing.T, base, username, password string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp := post(t, c, base, "/login", "application/x-www-form-urlencoded",
		strings.NewReader(url.Values{"username": {username}, "password": {password}}.Encode()))
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign in: %d", resp.StatusCode)
	}
	return c
}

func post(t *testing.T, c *http.Client, base, path, contentType string, body io.Reader) *http.Response {
	t.Helper()
	return send(t, c, http.MethodPost, base, path, contentType, body)
}

// cluster is what instances of `serve` share: a database and the service
// (a sandbox on its own port, as a real service would be).
type cluster struct {
	t   *testing.T
	DSN string
	SB  *sandboxtest.Env
	DB  *sqlx.DB
	Env []string
}

func newCluster(t *testing.T, extra ...string) *cluster {
	t.Helper()
	c := &cluster{t: t, DSN: pgtest.URL(t), SB: sandboxtest.Start(t)}
	c.Env = append([]string{"DATABASE_URL=" + c.DSN, "SESSION_KEY=" + strings.Repeat("s", 32), "SHIPDESK_VAR_DIR=" + t.TempDir(),
		"SHIPPING_BASE_URL=" + c.SB.URL, "SHIPPING_API_KEY=" + sandboxtest.ShippingKey,
		"RETURNS_BASE_URL=" + c.SB.Returns, "RETURNS_API_KEY=" + sandboxtest.ReturnsKey,
		"SHIPDESK_UPSTREAM_SANDBOX=true", "SHIPDESK_UPSTREAM_TIMEOUT=3s", "SHIPDESK_SETTLE=2s", "SHIPDESK_JOBS_TICK=1s", "SHIPDESK_LANG=en"}, extra...)
	return c
}

// serve starts an instance; the first one migrates and seeds the demo
// sender. A clerk may sign in once it serves.
func (c *cluster) serve(flags ...string) *child {
	c.t.Helper()
	first := c.DB == nil
	if first {
		flags = append(flags, "--seed-demo")
	}
	ch := startServe(c.t, flags, c.Env)
	if first {
		db, err := sqlx.Open("postgres", c.DSN)
		if err != nil {
			c.t.Fatal(err)
		}
		c.t.Cleanup(func() { db.Close() })
		c.DB = db
		c.t.Setenv("DATABASE_URL", c.DSN)
		if code, out := shipdesk(c.t, "a-strong-password-1\n", "user", "add", "--username", "clara", "--role", "clerk", "--password-stdin"); code != 0 {
			c.t.Fatalf("user add: %s", out)
		}
	}
	return ch
}

// clerk signs in to base as the cluster's clerk.
func (c *cluster) clerk(base string) *http.Client {
	c.t.Helper()
	return clerkClient(c.t, base, "clara", "a-strong-password-1")
}

// upload posts a file to the batch import form as a browser does.
func upload(t *testing.T, c *http.Client, base, name string, data []byte, fields map[string]string) *http.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	fw, _ := mw.CreateFormFile("file", name)
	_, _ = fw.Write(data)
	_ = mw.Close()
	return send(t, c, http.MethodPost, base, "/shipping/batches", mw.FormDataContentType(), &body)
}

// send makes a request from base's own origin; the answer's body is read
// into Body's place: the returned response's body reads it again.
func send(t *testing.T, c *http.Client, method, base, path, contentType string, body io.Reader) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, base+path, body)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Origin", base)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(data))
	return resp
}

func bodyOf(resp *http.Response) string {
	data, _ := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(bytes.NewReader(data))
	return string(data)
}

// batchOf reads the batch id from an import's redirect.
func batchOf(t *testing.T, resp *http.Response) int64 {
	t.Helper()
	var id int64
	if _, err := fmt.Sscanf(resp.Header.Get("Location"), "/shipping/batches/%d", &id); err != nil {
		t.Fatalf("import: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	return id
}

func exampleOrders(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../../examples/orders.csv")
	if err != nil {
		t.Fatal(err)
	}
	return data
}
