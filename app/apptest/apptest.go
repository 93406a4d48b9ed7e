// Package apptest starts the real dashboard on a real HTTP server with a fresh
// database, for handler and browser tests.
package apptest

import (
	"cmp"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"shipdesk/app"
	"shipdesk/claims"
	"shipdesk/desk"
	"shipdesk/desk/desktest"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/jobs"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/staff"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
	"shipdesk/upstream"
)

// Env is a running dashboard.
type Env struct {
	T       testing.TB
	URL     string
	App     *app.App
	Server  *httptest.Server
	Sandbox *sandboxtest.Env // the simulated service the dashboard talks to
	// PointsCached says the database started with the service's parcel
	// points cached (Options.CachedPoints): a test's fixtures need not
	// refresh them.
	PointsCached bool
}

// MetricsToken is the scraper token of test dashboards.
const MetricsToken = "test-metrics-token"

// Start runs the dashboard with a fresh migrated database until t ends, on a
// sandbox answering in the shapes SANDBOX_SHAPES names.
func Start(t testing.TB) *Env {
	t.Helper()
	return StartWith(t, pgtest.New(t))
}

// Options change how a test dashboard talks to its sandbox.
type Options struct {
	Shapes          string        // "" : SANDBOX_SHAPES
	UpstreamTimeout time.Duration // time limit of one upstream call (0: 10 s)
	Settle          time.Duration // settle window of create calls (0: the default)
	// Pollers runs the pollers in the background on this tick, as serve does
	// (every label, tracking and commission due again after one tick), until
	// the test ends; 0: they run only when a test calls their cycles.
	Pollers time.Duration
	// PublicBurst and PublicEvery limit each client of the customers' pages
	// (0: no limit a test would meet; every test's client is 127.0.0.1).
	PublicBurst int
	PublicEvery time.Duration
	PublicHold  time.Duration // a refusal's wait (0: a millisecond)
	// ClaimLimits are the claim page's throttles (nil: the defaults).
	ClaimLimits *claims.Limits
	// TrustProxy takes the client's address from X-Forwarded-For, so a test
	// can be many clients at once.
	TrustProxy bool
	// Prepare loads a test's fixtures (points, products, the demo desk)
	// through an instance with the default time limit on the same database
	// and sandbox, before this dashboard starts: on a loaded machine a short
	// UpstreamTimeout must meet the races under test, not the fixtures.
	Prepare func(*Env)
	// CachedPoints starts the dashboard on a database that holds the
	// service's parcel points as the first refresh stores them: a copy of a
	// database that the real refresh filled once for the test binary, the
	// sandbox's shapes and the test clock's start. The refresh costs a test
	// about a second of the machine under the race detector.
	CachedPoints bool
	// Log receives the dashboard's log as text, every line from Info up
	// (nil: discarded), for a test that reads what is written down.
	Log io.Writer
	// Hooks gives the dashboard its own address as its public one, so the
	// connected shop's webhooks are registered there (as under make run).
	Hooks bool
}

// StartOptions runs the dashboard with options; short time limits make the
// slow-service races reproducible with the sandbox's latency faults.
func StartOptions(t testing.TB, o Options) *Env {
	t.Helper()
	if o.Shapes == "" {
		o.Shapes = os.Getenv("SANDBOX_SHAPES")
	}
	var db *storage.DB
	if o.CachedPoints {
		db = pointsDB(t, o.Shapes)
	} else {
		db = pgtest.New(t)
	}
	return startOn(t, db, sandboxtest.StartShapes(t, o.Shapes), o)
}

// StartWith runs the dashboard on a database the caller prepared (benchmarks
// fill one with a million shipments first). Two dashboards started on the
// same database are two instances of one installation.
func StartWith(t testing.TB, db *storage.DB) *Env {
	t.Helper()
	return startOn(t, db, sandboxtest.Start(t), Options{})
}

// StartOn runs the dashboard on a database and a sandbox the caller
// prepared (a benchmark's sandbox records what it is asked).
func StartOn(t testing.TB, db *storage.DB, sb *sandboxtest.Env) *Env {
	t.Helper()
	return startOn(t, db, sb, Options{})
}

// StartOnOptions is StartOn with options (a benchmark's counting sandbox
// beside the pollers running in the background).
func StartOnOptions(t testing.TB, db *storage.DB, sb *sandboxtest.Env, o Options) *Env {
	t.Helper()
	ownDatabase(t, o)
	return startOn(t, db, sb, o)
}

// ownDatabase stops a test that asks for cached points on a database it
// brought: only StartOptions makes a database that holds them.
func ownDatabase(t testing.TB, o Options) {
	t.Helper()
	if o.CachedPoints {
		t.Fatal("apptest: CachedPoints needs the database StartOptions makes, not the caller's")
	}
}

// StartWithOptions is StartWith with options.
func StartWithOptions(t testing.TB, db *storage.DB, o Options) *Env {
	t.Helper()
	ownDatabase(t, o)
	if o.Shapes == "" {
		o.Shapes = os.Getenv("SANDBOX_SHAPES")
	}
	return startOn(t, db, sandboxtest.StartShapes(t, o.Shapes), o)
}

func startOn(t testing.TB, db *storage.DB, sb *sandboxtest.Env, o Options) *Env {
	t.Helper()
	if o.Prepare != nil {
		o.Prepare(startOn(t, db, sb, Options{CachedPoints: o.CachedPoints}))
	}
	up, err := upstreamOf(sb, o.UpstreamTimeout)
	if err != nil {
		t.Fatalf("upstream clients: %v", err)
	}
	// The server listens before the app is built: its address is the public
	// one the shop's webhooks are registered at.
	srv := httptest.NewUnstartedServer(nil)
	var hooksBase string
	if o.Hooks {
		hooksBase = "http://" + srv.Listener.Addr().String()
	}
	log := slog.New(slog.DiscardHandler)
	if o.Log != nil {
		log = slog.New(slog.NewTextHandler(o.Log, nil))
	}
	a, err := app.New(db, log, app.Options{
		SessionKey:    []byte(strings.Repeat("k", 32)),
		BcryptCost:    bcrypt.MinCost,
		Upstream:      up,
		MetricsToken:  MetricsToken,
		RefreshAfter:  -1, // the sandbox clock moves in jumps: ask on every poll
		KnownCarriers: app.SandboxCarriers(sb.Sandbox.Shipping.CarrierFacts()),
		Settle:        o.Settle,
		Lang:          i18n.English, // the tests read the English texts unless they choose
		Jobs:          pollerCadence(o.Pollers),
		PublicBurst:   cmp.Or(o.PublicBurst, 1_000_000),
		PublicEvery:   cmp.Or(o.PublicEvery, time.Millisecond),
		PublicHold:    cmp.Or(o.PublicHold, time.Millisecond),
		TrustProxy:    o.TrustProxy,
		ClaimLimits:   o.ClaimLimits,
		HooksBase:     hooksBase,
	})
	if err != nil {
		srv.Close()
		t.Fatalf("assemble app: %v", err)
	}
	t.Cleanup(func() { // before the database goes: no worker may outlive the test
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := a.Desk.Stop(ctx); err != nil {
			t.Errorf("stop batch workers: %v", err)
		}
	})
	t.Cleanup(a.Close)
	srv.Config.Handler = a.Handler
	srv.Start()
	t.Cleanup(srv.Close)
	a.Desk.PublicURL = srv.URL + "/" // the customers' links lead to this dashboard
	if o.Pollers > 0 {
		a.Bench.SyncEvery = o.Pollers
		runPollers(t, a)
	}
	return &Env{T: t, URL: srv.URL, App: a, Server: srv, Sandbox: sb, PointsCached: o.CachedPoints}
}

// upstreamOf is the dashboard's clients of the sandbox sb, each call limited
// to timeout (0: 10 s).
func upstreamOf(sb *sandboxtest.Env, timeout time.Duration) (*upstream.Clients, error) {
	return upstream.New(upstream.Config{ShippingURL: sb.URL, ShippingKey: sandboxtest.ShippingKey,
		ReturnsURL: sb.Returns, ReturnsKey: sandboxtest.ReturnsKey, Sandbox: true, Clock: sb.Clock, Timeout: cmp.Or(timeout, 10*time.Second)})
}

// ClaimByStatus reads the claim whose status page a path ("/claim/status/KEY")
// or key opens, as the page does: by the key's hash.
func (e *Env) ClaimByStatus(path string) (storage.CustomerClaim, error) {
	key := path[strings.LastIndexByte(path, '/')+1:]
	return e.App.DB.ClaimByStatusKey(context.Background(), claims.TokenHash(key))
}

// AddUser creates an account and returns its password.
func (e *Env) AddUser(username string, role identity.Role) string {
	e.T.Helper()
	pw := "pw-" + username + "-long-enough"
	if _, err := e.App.Staff.AddUser(context.Background(), staff.CLI, username, role, pw); err != nil {
		e.T.Fatalf("add user %s: %v", username, err)
	}
	return pw
}

// Browser is an HTTP client with a cookie jar that does not follow redirects, so
// tests see each 303. It sends Origin like a browser does on same-site posts.
type Browser struct {
	env *Env
	*http.Client
}

// NewBrowser returns a fresh client without cookies.
func (e *Env) NewBrowser() *Browser {
	jar, _ := cookiejar.New(nil)
	return &Browser{env: e, Client: &http.Client{
		Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}}
}

// SignedIn returns a client signed in as a new user of role.
func (e *Env) SignedIn(role identity.Role) *Browser {
	e.T.Helper()
	name := string(role) + "1"
	pw := e.AddUser(name, role)
	b := e.NewBrowser()
	resp := b.PostForm("/login", url.Values{"username": {name}, "password": {pw}})
	if resp.StatusCode != http.StatusSeeOther {
		e.T.Fatalf("sign in as %s: status %d: %s", name, resp.StatusCode, resp.Body)
	}
	return b
}

// Response is a read answer.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       string
}

// Get fetches path.
func (b *Browser) Get(path string) Response {
	b.env.T.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.env.URL+path, nil)
	return b.Do(req)
}

// PostForm posts a form from our own origin.
func (b *Browser) PostForm(path string, form url.Values) Response {
	b.env.T.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.env.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.env.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	return b.Do(req)
}

// Do sends a request and reads the whole answer.
func (b *Browser) Do(req *http.Request) Response {
	b.env.T.Helper()
	resp, err := b.Client.Do(req)
	if err != nil {
		b.env.T.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: string(body)}
}

// StopDatabase makes the dashboard's database stop answering, as in an outage.
func (e *Env) StopDatabase() {
	e.T.Helper()
	pgtest.Stop(e.T, e.App.DB)
}

// SettledBatch waits until no row of the batch is being priced or ordered
// (that work runs in the background) and returns its rows.
func (e *Env) SettledBatch(t testing.TB, batch int64) []storage.BatchRow {
	t.Helper()
	return desktest.SettledBatch(t, e.App.DB, batch)
}

// LabelsFetched counts the labels of every shipment ordered so far as fetched
// at the sandbox, as the clerk's print of the day would: the sandbox's
// courier takes a printed-label parcel past ONPICKUP only then. Tests that
// follow shipments to delivery without printing them call it first.
func (e *Env) LabelsFetched() {
	e.T.Helper()
	rows, err := e.App.DB.SQL().Query(`SELECT tracking_number FROM shipments WHERE state = 'created' AND tracking_number <> ''`)
	if err != nil {
		e.T.Fatal(err)
	}
	defer rows.Close()
	var numbers []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			e.T.Fatal(err)
		}
		numbers = append(numbers, n)
	}
	if err := rows.Err(); err != nil {
		e.T.Fatal(err)
	}
	e.Sandbox.LabelsFetched(numbers...)
}

// SeedDesk seeds the demo desk (its senders and presets) and loads the
// service's parcel points through the real refresh, unless the dashboard
// started with them cached (Options.CachedPoints).
func (e *Env) SeedDesk() {
	e.T.Helper()
	ctx := context.Background()
	if err := e.App.Desk.SeedDemo(ctx); err != nil {
		e.T.Fatal(err)
	}
	if e.PointsCached {
		return
	}
	if n, err := e.App.Desk.RefreshPoints(ctx); err != nil || n < 1000 {
		e.T.Fatalf("refresh points: %d %v", n, err)
	}
}

// DeliverDemoOrders seeds the demo desk (its sender, points and product
// lists) and the demo orders, and moves the sandbox on until they are
// delivered: DEMO-1 to jana@example.cz (+420 777 123 456) in Brno, with
// 1 250 Kč on delivery. The customers' claim tests start from it.
func (e *Env) DeliverDemoOrders() {
	e.T.Helper()
	e.SeedDesk()
	ctx := context.Background()
	if err := e.App.Bench.RefreshProducts(ctx); err != nil {
		e.T.Fatal(err)
	}
	if err := e.App.Desk.SeedDemoOrders(ctx); err != nil {
		e.T.Fatal(err)
	}
	e.LabelsFetched()
	e.Sandbox.Advance(2 * time.Hour) // exported, carried, delivered
	e.App.Jobs.Cycle(ctx)
	if s, err := e.App.DB.ShipmentByReference(ctx, "DEMO-1"); err != nil || s.DeliveredAt == nil {
		e.T.Fatalf("DEMO-1 not delivered: %q %v", s.Status, err)
	}
}

// pollerCadence is the pollers' cadence of a test that runs them in the
// background: every kind of work due again after one tick.
func pollerCadence(tick time.Duration) jobs.Config {
	if tick <= 0 {
		return jobs.Config{}
	}
	return jobs.Config{RefreshConfig: desk.RefreshConfig{LabelEvery: tick, TrackEvery: tick, MaxBackoff: 4 * tick}, Tick: tick, DiscoverEvery: time.Hour, Lease: 10 * tick}
}

// runPollers runs the pollers in the background as serve does, and stops
// them (waiting for their cycle to end) before the rest of the test's cleanup.
func runPollers(t testing.TB, a *app.App) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.Jobs.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}
