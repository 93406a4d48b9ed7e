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
	_ "github.com/lib/pq"

	"shipdesk/client/shipping"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage/pgtest"
	"shipdesk/upstream"
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
	req, _ := http.NewRequest(http.MethodPost, base+path, body)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Origin", base)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// rowStates counts the batch's rows by state.
func rowStates(t *testing.T, db *sqlx.DB, batch int64) map[string]int {
	t.Helper()
	var rows []struct {
		State string `db:"state"`
		N     int    `db:"n"`
	}
	if err := db.Select(&rows, `SELECT state, count(*) AS n FROM batch_rows WHERE batch_id = $1 GROUP BY state`, batch); err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, r := range rows {
		out[r.State] = r.N
	}
	return out
}

// waitFor polls cond every 100 ms until it holds or a minute passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

// A `serve` killed outright while it orders a batch leaves rows claimed and
// orders in flight. The next instance to start takes the batch up by itself
// (nobody opens the page) and orders every row once: the service holds one
// order per row, and each row is bound to it.
func TestBatchOrderSurvivesAKilledServer(t *testing.T) {
	dsn := pgtest.URL(t)
	sb := sandboxtest.Start(t)
	env := []string{"DATABASE_URL=" + dsn, "SESSION_KEY=" + strings.Repeat("s", 32), "SHIPDESK_VAR_DIR=" + t.TempDir(),
		"SHIPPING_BASE_URL=" + sb.URL, "SHIPPING_API_KEY=" + sandboxtest.ShippingKey,
		"RETURNS_BASE_URL=" + sb.Returns, "RETURNS_API_KEY=" + sandboxtest.ReturnsKey,
		"SHIPDESK_UPSTREAM_TIMEOUT=3s", "SHIPDESK_SETTLE=2s", "SHIPDESK_JOBS_TICK=1s", "SHIPDESK_LANG=en"}
	first := startServe(t, []string{"--seed-demo"}, env) // a sender to ship from
	t.Setenv("DATABASE_URL", dsn)
	if code, out := shipdesk(t, "a-strong-password-1\n", "user", "add", "--username", "clara", "--role", "clerk", "--password-stdin"); code != 0 {
		t.Fatalf("user add: %s", out)
	}
	db, err := sqlx.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()

	clerk := clerkClient(t, first.URL, "clara", "a-strong-password-1")
	data, err := os.ReadFile("../../examples/orders.csv")
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("handover", "ONDEMAND")
	fw, _ := mw.CreateFormFile("file", "orders.csv")
	_, _ = fw.Write(data)
	_ = mw.Close()
	resp := post(t, clerk, first.URL, "/shipping/batches", mw.FormDataContentType(), &body)
	var batch int64
	if _, err := fmt.Sscanf(resp.Header.Get("Location"), "/shipping/batches/%d", &batch); err != nil {
		t.Fatalf("import: %d %q\n%s", resp.StatusCode, resp.Header.Get("Location"), first.log())
	}
	waitFor(t, "the batch priced", func() bool {
		s := rowStates(t, db, batch)
		return s["pricing"] == 0 && s["priced"] > 0
	})
	priced := rowStates(t, db, batch)["priced"]

	// Each order takes a second and a half: the first instance dies with some
	// rows ordered, some in flight and the rest queued.
	sb.Fault("/api/v1/shipments/create", map[string]any{"latency_ms": 1500, "count": 1000})
	if r := post(t, clerk, first.URL, fmt.Sprintf("/shipping/batches/%d/order", batch), "application/x-www-form-urlencoded", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("order all: %d", r.StatusCode)
	}
	waitFor(t, "the first orders", func() bool { return rowStates(t, db, batch)["ordered"] > 0 })
	first.kill()
	before := rowStates(t, db, batch)
	t.Logf("killed with rows %v", before)
	if before["ordering"] == 0 {
		t.Fatalf("the batch was not cut midway: %v", before)
	}

	second := startServe(t, nil, env)
	waitFor(t, "the second instance to finish the batch", func() bool {
		s := rowStates(t, db, batch)
		return s["ordering"] == 0
	})
	after := rowStates(t, db, batch)
	if after["ordered"] != priced {
		t.Fatalf("rows after the restart %v, want all %d priced rows ordered\n%s", after, priced, second.log())
	}

	// Let every order's settle window pass, so the reconciler has bound each.
	ctx := context.Background()
	up, err := upstream.New(upstream.Config{ShippingURL: sb.URL, ShippingKey: sandboxtest.ShippingKey, ReturnsURL: sb.Returns,
		ReturnsKey: sandboxtest.ReturnsKey, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var refs []struct {
		Reference string `db:"reference"`
		State     string `db:"state"`
		Tracking  string `db:"tracking"`
	}
	waitFor(t, "every shipment bound to its order", func() bool {
		refs = refs[:0]
		if err := db.Select(&refs, `SELECT s.reference, s.state, coalesce(s.tracking_number, '') AS tracking
FROM batch_rows r JOIN shipments s ON s.id = r.shipment_id WHERE r.batch_id = $1`, batch); err != nil {
			t.Fatal(err)
		}
		for _, r := range refs {
			if r.State != "created" {
				return false
			}
		}
		return len(refs) == priced
	})
	for _, r := range refs {
		page, err := up.Shipping.List(ctx, shipping.ListQuery{Reference: r.Reference, PerPage: 50})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Shipments) != 1 || page.Shipments[0].TrackingNumber != r.Tracking {
			t.Errorf("reference %s: the service holds %d orders, the row's shipment is bound to %q", r.Reference, len(page.Shipments), r.Tracking)
		}
	}
}
