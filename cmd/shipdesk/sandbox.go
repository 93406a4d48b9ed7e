package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"shipdesk/app"
	"shipdesk/clock"
	"shipdesk/desk"
	"shipdesk/sandbox"
	"shipdesk/storage"
	"shipdesk/upstream"
)

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func runSandbox(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	var c Config
	var o sandbox.Options
	var keys, rkeys listFlag
	fs := newFlagSet("sandbox", "sandbox [flags]", stderr)
	addr := fs.String("addr", env("SANDBOX_ADDR", "127.0.0.1:8081"), "listen `address` (env SANDBOX_ADDR)")
	fs.StringVar(&o.StateFile, "state", env("SANDBOX_STATE", ""), "keep the sandbox's data in this `file` across restarts; empty keeps it in memory (env SANDBOX_STATE)")
	fs.StringVar(&o.WipeAt, "wipe-at", env("SANDBOX_WIPE_AT", ""), "wipe all data every day at `HH:MM` local time, as the real test environment does (env SANDBOX_WIPE_AT)")
	fs.Var(&keys, "api-key", "shipping and cart API `key` of an account; repeat for several (default sandbox-key-1 and sandbox-key-2)")
	fs.Var(&rkeys, "returns-key", "returns API `key`; repeatable (default sandbox-returns-key)")
	fs.StringVar(&o.Shapes, "shapes", env("SANDBOX_SHAPES", "documented"), "answer `shapes` of the shipping API: minimal (only what the contract and public integrations guarantee) or documented (with the sandbox's extras) (env SANDBOX_SHAPES)")
	fs.Int64Var(&o.Seed, "seed", 1, "`seed` of the generated carriers, services and parcel points")
	fs.StringVar(&c.LogFormat, "log-format", env("SHIPDESK_LOG_FORMAT", "text"), "log format text or json (env SHIPDESK_LOG_FORMAT)")
	fs.StringVar(&c.LogLevel, "log-level", env("SHIPDESK_LOG_LEVEL", "info"), "log level (env SHIPDESK_LOG_LEVEL)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	o.ShippingKeys, o.ReturnsKeys, o.Log = keys, rkeys, newLogger(c, stderr)
	sb, err := sandbox.New(o)
	if err != nil {
		return err
	}
	url, err := sb.Start(*addr)
	if err != nil {
		sb.Close()
		return err
	}
	fmt.Fprintf(stdout, "sandbox serving on %s\n  shipping API v1: %s/api/v1/\n  cart API v2:     %s/api/v2/public/cart/create\n  returns API v1:  %s/returns/api/v1/\n  Shoptet API:     %s/shoptet (token sandbox-shoptet-token; OpenAPI: %s/shoptet/openapi.yaml)\n  controls:        %s/sandbox/ (OpenAPI: %s/sandbox/openapi.json)\n", url, url, url, url, url, url, url, url)
	<-ctx.Done()
	return sb.Close()
}

// UpstreamConfig is where the dashboard finds the service.
type UpstreamConfig struct {
	ShippingURL, ShippingKey string
	ReturnsURL, ReturnsKey   string
	SandboxState             string
	IsSandbox                bool // the service named is a `shipdesk sandbox`: follow its clock
	SandboxShapes            string
	Timeout                  time.Duration
	Settle                   time.Duration
}

func upstreamFlags(fs *flag.FlagSet, u *UpstreamConfig) {
	fs.StringVar(&u.ShippingURL, "shipping-base-url", env("SHIPPING_BASE_URL", ""), "root of the shipping API v1 and cart API v2; empty starts the sandbox in-process (env SHIPPING_BASE_URL)")
	fs.StringVar(&u.ShippingKey, "shipping-api-key", env("SHIPPING_API_KEY", ""), "shipping and cart API key (env SHIPPING_API_KEY)")
	fs.StringVar(&u.ReturnsURL, "returns-base-url", env("RETURNS_BASE_URL", ""), "base of the returns API v1 (env RETURNS_BASE_URL)")
	fs.StringVar(&u.ReturnsKey, "returns-api-key", env("RETURNS_API_KEY", ""), "returns API key (env RETURNS_API_KEY)")
	fs.BoolVar(&u.IsSandbox, "upstream-is-sandbox", envBool("SHIPDESK_UPSTREAM_SANDBOX", false), "the service at --shipping-base-url is a `shipdesk sandbox`: the dashboard runs on its clock and offers its controls (env SHIPDESK_UPSTREAM_SANDBOX)")
	fs.StringVar(&u.SandboxState, "sandbox-state", env("SANDBOX_STATE", ""), "state `file` of the in-process sandbox; empty keeps it in memory (env SANDBOX_STATE)")
	fs.StringVar(&u.SandboxShapes, "sandbox-shapes", env("SANDBOX_SHAPES", "documented"), "answer `shapes` of the in-process sandbox: minimal or documented (env SANDBOX_SHAPES)")
	fs.DurationVar(&u.Timeout, "upstream-timeout", envDuration("SHIPDESK_UPSTREAM_TIMEOUT", 20*time.Second), "time limit of one upstream call (env SHIPDESK_UPSTREAM_TIMEOUT)")
	fs.DurationVar(&u.Settle, "settle", envDuration("SHIPDESK_SETTLE", desk.DefaultSettle), "how long after a create call's time limit the service may still create the order; only then is an unconfirmed order called missing (env SHIPDESK_SETTLE)")
}

// connectUpstream builds the clients; with no SHIPPING_BASE_URL it starts the
// sandbox on a loopback port and talks to it over HTTP like to the real service.
// The returned stop function stops that sandbox.
// connectUpstream builds the clients of the service, starting the in-process
// sandbox when no service is named; known are the carriers known in advance
// (the sandbox's own), for the carrier table.
func connectUpstream(u UpstreamConfig, log *slog.Logger) (clients *upstream.Clients, known []storage.Carrier, stop func(), err error) {
	cfg := upstream.Config{ShippingURL: u.ShippingURL, ShippingKey: u.ShippingKey, ReturnsURL: u.ReturnsURL, ReturnsKey: u.ReturnsKey,
		UserAgent: "shipdesk/1", Timeout: u.Timeout, Log: log, Sandbox: u.IsSandbox}
	stop = func() {}
	if u.ShippingURL == "" {
		// One clock: the in-process sandbox moves the very clock the dashboard reads.
		cfg.Clock = clock.Simulated()
		sb, err := sandbox.New(sandbox.Options{StateFile: u.SandboxState, Shapes: u.SandboxShapes, Log: log, Clock: cfg.Clock})
		if err != nil {
			return nil, nil, nil, err
		}
		url, err := sb.Start("127.0.0.1:0")
		if err != nil {
			sb.Close()
			return nil, nil, nil, err
		}
		stop = func() {
			if err := sb.Close(); err != nil {
				log.Error("stop sandbox", "err", err)
			}
		}
		known = app.SandboxCarriers(sb.Shipping.CarrierFacts())
		cfg.Sandbox = true
		cfg.ShippingURL, cfg.ReturnsURL = url, url+"/returns"
		cfg.ShippingKey, cfg.ReturnsKey = "sandbox-key-1", "sandbox-returns-key"
		log.Info("using the in-process sandbox (set SHIPPING_BASE_URL for the real service)", "url", url)
	} else if u.ReturnsURL == "" {
		return nil, nil, nil, fmt.Errorf("RETURNS_BASE_URL is required with SHIPPING_BASE_URL")
	}
	clients, err = upstream.New(cfg)
	if err != nil {
		stop()
		return nil, nil, nil, err
	}
	return clients, known, stop, nil
}

func runCheckUpstream(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	var c Config
	var u UpstreamConfig
	fs := newFlagSet("check-upstream", "check-upstream [flags]", stderr)
	upstreamFlags(fs, &u)
	if err := fs.Parse(args); err != nil {
		return err
	}
	c.LogLevel = "error"
	clients, _, stop, err := connectUpstream(u, newLogger(c, stderr))
	if err != nil {
		return err
	}
	defer stop()
	failed := 0
	for _, r := range clients.Check(ctx) {
		mark := "ok  "
		if !r.OK {
			mark, failed = "FAIL", failed+1
		}
		fmt.Fprintf(stdout, "%s %-8s %s  %s (%s)\n", mark, r.Interface, r.BaseURL, r.Message, r.Took.Round(time.Millisecond))
	}
	if clients.Config.Sandbox {
		fmt.Fprintln(stdout, "(sandbox: no SHIPPING_BASE_URL set)")
	}
	if failed > 0 {
		return fmt.Errorf("%d of 2 interfaces failed the check", failed)
	}
	return nil
}
