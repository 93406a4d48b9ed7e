// Package upstream holds the dashboard's connections to the shipping service: the
// three typed clients, their shared counters, and the key check that the
// Connection page and `shipdesk check-upstream` show.
package upstream

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/cart"
	"shipdesk/client/returns"
	"shipdesk/client/sandboxctl"
	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/clock"
)

// Config names the service and the keys. The keys stay on the server.
type Config struct {
	ShippingURL string // root of the shipping API v1 and the cart API v2
	ShippingKey string
	ReturnsURL  string // root of the returns API v1 ({base}/returns for the sandbox)
	ReturnsKey  string
	Sandbox     bool // the URLs point at our simulator
	// Clock is the dashboard's one clock. In sandbox mode it is the
	// simulator's: shared with an in-process sandbox (set here), or, when nil,
	// a clock of its own that follows an external sandbox (FollowClock).
	// Against the real service it is real time.
	Clock     *clock.Clock
	UserAgent string // e.g. shipdesk/1.0
	Timeout   time.Duration
	Log       *slog.Logger
}

// transportConfig is the shared part of every client's configuration.
func (c Config) transportConfig(iface, base, key string, m *transport.Metrics) transport.Config {
	return transport.Config{Interface: iface, BaseURL: base, APIKey: key, UserAgent: c.UserAgent, Timeout: c.Timeout, Log: c.Log, Metrics: m}
}

// Result is the outcome of checking one interface.
type Result struct {
	Interface string
	BaseURL   string
	OK        bool
	Message   apperr.Text // what a person should know: "key accepted", "key refused (401)", …
	Took      time.Duration
}

// probe runs one check and describes its outcome for a person.
func probe(ctx context.Context, iface, base string, call func(context.Context) error) Result {
	watch := clock.Start()
	err := call(ctx)
	r := Result{Interface: iface, BaseURL: base, Took: watch.Elapsed()}
	switch {
	case err == nil:
		r.OK, r.Message = true, apperr.Msg("connection.key_accepted")
	case transport.IsUnauthorized(err):
		r.Message = apperr.Msg("connection.key_refused")
	case transport.IsTemporary(err):
		r.Message = apperr.Msg("connection.unreachable", err.Error()) // for the manager who fixes it: what failed
	default:
		r.Message = apperr.Literal(err.Error())
	}
	return r
}

// Clients are the three typed clients with their shared counters.
type Clients struct {
	Config   Config
	Shipping *shipping.Client
	Cart     *cart.Client
	Returns  *returns.Client
	Metrics  *transport.Metrics
	Controls *sandboxctl.Client // the simulator's own controls; nil against the real service

	follow bool       // the clock follows an external sandbox's (FollowClock)
	faults faultsSeen // the sandbox's faults as last read or set (Faults)
}

// New builds the clients; it calls nothing upstream.
func New(c Config) (*Clients, error) {
	if c.ShippingURL == "" || c.ReturnsURL == "" {
		return nil, errors.New("upstream: SHIPPING_BASE_URL and RETURNS_BASE_URL are required (or leave SHIPPING_BASE_URL empty to use the sandbox)")
	}
	follow := false
	if c.Clock == nil {
		c.Clock, follow = clock.Real(), c.Sandbox
		if follow {
			c.Clock = clock.Simulated()
		}
	}
	m := transport.NewMetrics(c.Clock)
	sh, err := shipping.New(c.transportConfig("shipping", c.ShippingURL, c.ShippingKey, m))
	if err != nil {
		return nil, err
	}
	ca, err := cart.New(c.transportConfig("cart", c.ShippingURL, c.ShippingKey, m))
	if err != nil {
		return nil, err
	}
	re, err := returns.New(c.transportConfig("returns", c.ReturnsURL, c.ReturnsKey, m))
	if err != nil {
		return nil, err
	}
	cl := &Clients{Config: c, Shipping: sh, Cart: ca, Returns: re, Metrics: m, follow: follow}
	if c.Sandbox {
		if cl.Controls, err = sandboxctl.New(c.transportConfig("sandbox", c.ShippingURL, "", m)); err != nil {
			return nil, err
		}
	}
	return cl, nil
}

// Check verifies both keys the way the spec says: the shipping key with the list
// operation (it needs a valid key), the returns key with a cheap read.
func (c *Clients) Check(ctx context.Context) []Result {
	return []Result{
		probe(ctx, "shipping", c.Config.ShippingURL, func(ctx context.Context) error {
			// One page from offset 0: the service has no smaller one.
			_, err := c.Shipping.List(ctx, shipping.ListQuery{})
			return err
		}),
		probe(ctx, "returns", c.Config.ReturnsURL, func(ctx context.Context) error {
			_, err := c.Returns.ProductTypes(ctx)
			return err
		}),
	}
}
