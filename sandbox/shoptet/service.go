// Package shoptet simulates a Czech shop on Shoptet as its private API
// shows it (shoptet-api.yaml beside this file, Shoptet's own document): the
// shop, its orders with their notes, statuses and changes, its shipping and
// payment methods, and webhooks signed as Shoptet signs them. It keeps
// Shoptet's limits (three connections per token, a leaky bucket, locks on a
// repeated write) and its answer and error shapes. The sandbox mounts it
// under /shoptet, so a client's base URI is http://<sandbox>/shoptet.
package shoptet

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"

	"shipdesk/clock"
)

// Tokens of the simulated shop: one with every right, one that may only read.
const (
	Token         = "sandbox-shoptet-token"
	ReadOnlyToken = "sandbox-shoptet-readonly"
)

// EshopID is the demo shop's id, as webhooks carry it.
const EshopID = 470123

// Answer shapes, as the sandbox names them: minimal answers carry only what
// the schemas require (and the sections asked for with include), documented
// also the optional properties a real shop fills.
const (
	ShapesDocumented = "documented"
	ShapesMinimal    = "minimal"
)

// ParcelPoint is a point of the shipping sandbox, as the demo shop's
// checkout offers it (read from the shipping service in-process).
type ParcelPoint struct {
	Carrier, Code, Name, Street, City, Zip, Country string
	Lat, Lng                                        float64
}

// Config sets the simulator up.
type Config struct {
	Clock  *clock.Clock // nil: a simulated clock of its own
	Seed   int64        // the demo shop's orders (0: 1)
	Shapes string       // ShapesDocumented ("") or ShapesMinimal
	Points []ParcelPoint
	// AnyWebhookHost lets webhooks go to any host; by default only to this
	// machine (loopback), so a sandbox never posts to the outside world.
	AnyWebhookHost bool
	// WebhookRetry is the first wait before a failed notification is sent
	// again (doubling, six attempts in all); 0: one second.
	WebhookRetry time.Duration
}

// Settings are the simulator's limits, changed by the /sandbox/shoptet/settings control.
type Settings struct {
	Connections   int     `json:"connections"`     // at once per token (Shoptet: 3)
	Bucket        float64 `json:"bucket"`          // drops (Shoptet: 200)
	LeakPerSecond float64 `json:"leak_per_second"` // of simulated time (Shoptet: 10)
	LockSeconds   int     `json:"lock_seconds"`    // a repeated write is locked this long (Shoptet: 5)
	LatencyMS     int     `json:"latency_ms"`      // the shop's own time to answer, holding the connection
	Arrivals      bool    `json:"arrivals"`        // new orders keep arriving on the clock
}

// DefaultSettings are Shoptet's own limits.
var DefaultSettings = Settings{Connections: 3, Bucket: 200, LeakPerSecond: 10, LockSeconds: 5, Arrivals: true}

// Service is the simulated shop.
type Service struct {
	cfg   Config
	clock *clock.Clock
	limit *limiter
	hooks *deliverer

	mu       sync.Mutex
	settings Settings
	orders   map[string]*Order
	seq      int       // the last order number given
	arrived  time.Time // new orders have arrived up to here
	nextItem int
	nextHist int
	webhooks []*Webhook
	nextHook int
	key      string // the webhook signature key
	locks    map[string]time.Time

	stop chan struct{}
	done sync.WaitGroup
	once sync.Once
}

// New builds the demo shop and starts its background work (new orders on
// the clock, webhook delivery); Close stops it.
func New(cfg Config) *Service {
	if cfg.Clock == nil {
		cfg.Clock = clock.Simulated()
	}
	if cfg.Seed == 0 {
		cfg.Seed = 1
	}
	if cfg.Shapes == "" {
		cfg.Shapes = ShapesDocumented
	}
	if cfg.WebhookRetry <= 0 {
		cfg.WebhookRetry = time.Second
	}
	s := &Service{cfg: cfg, clock: cfg.Clock, settings: DefaultSettings, stop: make(chan struct{})}
	s.limit = newLimiter()
	s.hooks = newDeliverer(cfg.WebhookRetry, s.stop)
	s.Wipe()
	s.done.Add(2)
	go func() { defer s.done.Done(); s.hooks.run() }()
	go s.background()
	return s
}

func (s *Service) documented() bool { return s.cfg.Shapes == ShapesDocumented }

// Close stops the arrivals and the webhook deliveries (one in flight is
// cancelled); it may be called more than once.
func (s *Service) Close() {
	s.once.Do(func() { close(s.stop) })
	s.done.Wait()
}

// background lets new orders arrive as the simulated clock passes, so their
// webhooks go out even when nobody reads the API.
func (s *Service) background() {
	defer s.done.Done()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case <-tick.C:
			s.mu.Lock()
			s.catchUp(s.clock.Now())
			s.mu.Unlock()
		}
	}
}

// Wipe puts the shop back to its demo state as of now: the demo orders, no
// webhooks, the first signature key, the limits Shoptet's.
func (s *Service) Wipe() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settings = DefaultSettings
	s.orders = map[string]*Order{}
	s.seq, s.nextItem, s.nextHist, s.nextHook = 0, 0, 0, 0
	s.webhooks = nil
	s.key = firstKey(s.cfg.Seed)
	s.locks = map[string]time.Time{}
	now := s.clock.Now()
	s.seedDemo(now)
	s.arrived = now.Truncate(time.Minute).Add(time.Minute)
	s.limit.reset()
}

func firstKey(seed int64) string {
	m := hmac.New(sha1.New, []byte("shoptet-sandbox"))
	fmt.Fprint(m, seed)
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// SignatureKey is the key the shop signs webhooks with now.
func (s *Service) SignatureKey() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.key
}

type snapshot struct {
	Settings Settings   `json:"settings"`
	Orders   []*Order   `json:"orders"`
	Seq      int        `json:"seq"`
	Arrived  time.Time  `json:"arrived"`
	Next     [3]int     `json:"next"` // item, history, webhook ids
	Webhooks []*Webhook `json:"webhooks"`
	Key      string     `json:"signature_key"`
}

// Snapshot is all mutable state as JSON (the webhooks still to deliver are
// not kept).
func (s *Service) Snapshot() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	snap := snapshot{Settings: s.settings, Seq: s.seq, Arrived: s.arrived, Next: [3]int{s.nextItem, s.nextHist, s.nextHook}, Webhooks: s.webhooks, Key: s.key}
	for _, o := range s.orders {
		snap.Orders = append(snap.Orders, o)
	}
	sort.Slice(snap.Orders, func(i, j int) bool { return snap.Orders[i].Code < snap.Orders[j].Code })
	return json.Marshal(snap)
}

// Restore replaces all mutable state with a snapshot.
func (s *Service) Restore(b []byte) error {
	var snap snapshot
	if err := json.Unmarshal(b, &snap); err != nil {
		return fmt.Errorf("restore shoptet state: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settings, s.seq, s.arrived, s.webhooks, s.key = snap.Settings, snap.Seq, snap.Arrived, snap.Webhooks, snap.Key
	s.nextItem, s.nextHist, s.nextHook = snap.Next[0], snap.Next[1], snap.Next[2]
	s.orders = map[string]*Order{}
	for _, o := range snap.Orders {
		s.orders[o.Code] = o
	}
	s.locks = map[string]time.Time{}
	return nil
}

// Register adds Shoptet's API to mux, under prefix (the sandbox uses "/shoptet").
func (s *Service) Register(mux *http.ServeMux, prefix string) {
	mux.Handle(prefix+"/", http.StripPrefix(prefix, s.Handler()))
}

// Handler serves Shoptet's API at its own paths (/api/eshop, …).
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/eshop", s.api(false, s.eshop))
	mux.HandleFunc("GET /api/orders", s.api(false, s.listOrders))
	mux.HandleFunc("GET /api/orders/statuses", s.api(false, s.statuses))
	mux.HandleFunc("GET /api/orders/changes", s.api(false, s.changes))
	mux.HandleFunc("GET /api/orders/{code}", s.api(false, s.orderDetail))
	mux.HandleFunc("GET /api/orders/{code}/history", s.api(false, s.history))
	mux.HandleFunc("PATCH /api/orders/{code}/notes", s.api(true, s.patchNotes))
	mux.HandleFunc("PATCH /api/orders/{code}/status", s.api(true, s.patchStatus))
	mux.HandleFunc("GET /api/shipping-methods", s.api(false, s.shippingMethods))
	mux.HandleFunc("GET /api/payment-methods", s.api(false, s.paymentMethods))
	mux.HandleFunc("GET /api/webhooks", s.api(false, s.listWebhooks))
	mux.HandleFunc("POST /api/webhooks", s.api(true, s.addWebhooks))
	mux.HandleFunc("GET /api/webhooks/{id}", s.api(false, s.getWebhook))
	mux.HandleFunc("DELETE /api/webhooks/{id}", s.api(true, s.deleteWebhook))
	mux.HandleFunc("POST /api/webhooks/renew-signature-key", s.api(true, s.renewKey))
	mux.HandleFunc("GET /openapi.yaml", serveDocument)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r = withRequestID(r, w)
		if _, pattern := mux.Handler(r); pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		rec := &statusOnly{header: http.Header{}}
		h, _ := mux.Handler(r)
		h.ServeHTTP(rec, r)
		if rec.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", rec.header.Get("Allow"))
			writeProblem(w, r, fail(http.StatusMethodNotAllowed, "method-not-allowed", r.Method, "Method %s is not allowed here.", r.Method))
			return
		}
		writeProblem(w, r, fail(http.StatusNotFound, "endpoint-not-found", clip(r.URL.Path), "Endpoint \"%s\" not found.", clip(r.URL.Path)))
	})
}

// statusOnly keeps what the mux's own fallback would answer.
type statusOnly struct {
	header http.Header
	status int
}

func (r *statusOnly) Header() http.Header { return r.header }
func (r *statusOnly) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}
func (r *statusOnly) Write(b []byte) (int, error) { return len(b), nil }
