// Package upstream holds the dashboard's connections to the shipping service: the
// three typed clients, their shared counters, and the key check that the
// Connection page and `shipdesk check-upstream` show.
package upstream

import (
	"context"
	"log/slog"
	"time"

	"shipdesk/client/transport"
)

// Config names the service and the keys. The keys stay on the server.
type Config struct {
	ShippingURL string // root of the shipping API v1 and the cart API v2
	ShippingKey string
	ReturnsURL  string // root of the returns API v1 ({base}/returns for the sandbox)
	ReturnsKey  string
	Sandbox     bool   // the URLs point at our simulator
	UserAgent   string // e.g. shipdesk/1.0
	Timeout     time.Duration
	Log         *slog.Logger
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
	Message   string // what a person should know: "key accepted", "key refused (401)", …
	Took      time.Duration
}

// probe runs one check and describes its outcome for a person.
func probe(ctx context.Context, iface, base string, call func(context.Context) error) Result {
	start := time.Now()
	err := call(ctx)
	r := Result{Interface: iface, BaseURL: base, Took: time.Since(start)}
	switch {
	case err == nil:
		r.OK, r.Message = true, "key accepted"
	case transport.IsUnauthorized(err):
		r.Message = "key refused (401): check the API key for this environment"
	case transport.IsTemporary(err):
		r.Message = "service unreachable or failing: " + err.Error()
	default:
		r.Message = err.Error()
	}
	return r
}
