package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"time"

	"shipdesk/app"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/mail"
	"shipdesk/staff"
	"shipdesk/storage"
)

func runServe(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	var c Config
	fs := newFlagSet("serve", "serve [flags]", stderr)
	commonFlags(fs, &c)
	fs.StringVar(&c.Addr, "addr", env("SHIPDESK_ADDR", "127.0.0.1:8080"), "listen `address` (env SHIPDESK_ADDR)")
	fs.StringVar(&c.SessionKey, "session-key", env("SESSION_KEY", ""), "secret of at least 32 characters for session cookies; generated into the var directory when empty (env SESSION_KEY)")
	fs.StringVar(&c.VarDir, "var-dir", env("SHIPDESK_VAR_DIR", "var"), "directory for generated local files (env SHIPDESK_VAR_DIR)")
	fs.StringVar(&c.Lang, "lang", env("SHIPDESK_LANG", "cs"), "the installation's `language` (cs or en) for staff who chose none (env SHIPDESK_LANG)")
	fs.StringVar(&c.Zone, "tz", env("SHIPDESK_TZ", "Europe/Prague"), "the shop's time `zone`: every time is shown in it (env SHIPDESK_TZ)")
	fs.BoolVar(&c.TrustProxy, "trust-proxy", envBool("SHIPDESK_TRUST_PROXY", false), "trust X-Forwarded-For and X-Forwarded-Proto from a reverse proxy (env SHIPDESK_TRUST_PROXY)")
	fs.DurationVar(&c.IdleTimeout, "session-idle", envDuration("SHIPDESK_SESSION_IDLE", 4*time.Hour), "sign out after this long without a request (env SHIPDESK_SESSION_IDLE)")
	fs.DurationVar(&c.MaxSession, "session-max", envDuration("SHIPDESK_SESSION_MAX", 12*time.Hour), "sign out this long after sign-in (env SHIPDESK_SESSION_MAX)")
	fs.BoolVar(&c.Migrate, "migrate", false, "apply pending migrations before serving")
	fs.BoolVar(&c.SeedDemo, "seed-demo", false, "create one demo user per role if missing and print their passwords once")
	fs.StringVar(&c.MetricsToken, "metrics-token", env("SHIPDESK_METRICS_TOKEN", ""), "bearer `token` that lets a scraper read /metrics; empty: managers only (env SHIPDESK_METRICS_TOKEN)")
	var u UpstreamConfig
	upstreamFlags(fs, &u)
	var j JobsConfig
	jobsFlags(fs, &j, true)
	var m mail.Config
	mailFlags(fs, &m)
	var summaryHour int
	summaryFlags(fs, &summaryHour)
	if err := fs.Parse(args); err != nil {
		return err
	}
	limitMemory()
	hooksBase := m.PublicURL // the shop's webhooks reach a dashboard given a public address
	if m.PublicURL == "" {
		m.PublicURL = "http://" + c.Addr + "/"
	}
	log := newLogger(c, stderr)
	if err := i18n.Check(); err != nil {
		return err // a translator's mistake must not reach a page
	}
	lang, ok := i18n.Parse(c.Lang)
	if !ok {
		return fmt.Errorf("--lang %q: use cs or en", c.Lang)
	}
	zone, err := time.LoadLocation(c.Zone)
	if err != nil {
		return fmt.Errorf("--tz %q: %w", c.Zone, err)
	}

	db, err := openDB(ctx, c)
	if err != nil {
		return err
	}
	defer db.Close()
	if c.Migrate {
		if err := db.MigrateUp(ctx, log); err != nil {
			return err
		}
	} else if err := db.CheckMigrated(ctx); err != nil {
		return err
	}

	key, err := sessionKey(c, log)
	if err != nil {
		return err
	}
	clients, knownCarriers, stopSandbox, err := connectUpstream(u, log)
	if err != nil {
		return err
	}
	defer stopSandbox()
	if hooksBase == "" && clients.Config.Sandbox {
		hooksBase = m.PublicURL // the simulator reaches the dashboard where it listens
	}
	a, err := app.New(db, log, app.Options{SessionKey: key, TrustProxy: c.TrustProxy, IdleTimeout: c.IdleTimeout, MaxSession: c.MaxSession,
		Upstream: clients, MetricsToken: c.MetricsToken, Jobs: j.Config, KnownCarriers: knownCarriers, Settle: u.Settle, Lang: lang, Zone: zone,
		Mail: m, SummaryHour: summaryHour, HooksBase: hooksBase})
	if err != nil {
		return err
	}
	defer a.Close()
	if c.SeedDemo {
		if err := seedDemo(ctx, a.Staff, stdout); err != nil {
			return err
		}
		if err := a.Desk.SeedDemo(ctx); err != nil {
			return fmt.Errorf("demo shipping data: %w", err)
		}
		// Demo orders go through the service; against a real one, keep the data local.
		if clients.Config.Sandbox {
			if err := a.Desk.SeedDemoOrders(ctx); err != nil {
				log.Warn("demo shipments", "err", err)
			}
			if err := a.Bench.SeedDemo(ctx); err != nil {
				log.Warn("demo commissions", "err", err)
			}
			if err := a.SeedDemoShop(ctx); err != nil {
				log.Warn("demo shop", "err", err)
			}
		}
	}

	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", c.Addr, err)
	}
	fmt.Fprintf(stdout, "shipdesk is serving on http://%s/\n", ln.Addr())
	go pruneLoop(ctx, db, log)
	go a.ListenShop(ctx)
	go clients.FollowClock(ctx, followEvery)
	if j.Run { // settle unknown orders, keep caches fresh, poll labels, tracking, commissions
		go a.Jobs.Run(ctx)
	} // else `shipdesk jobs` runs them
	err = serveHTTP(ctx, ln, a.Handler, log)
	stopBatches(a.Desk, log)
	return err
}

// followEvery is how often the dashboard reads an external sandbox's clock
// (someone may move it from another dashboard); its own moves are seen at once.
const followEvery = 5 * time.Second

// stopBatches lets the batch workers finish the rows they hold; what is still
// queued is taken up by the next instance to start.
func stopBatches(d *desk.Desk, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), d.OrderTimeout+15*time.Second)
	defer cancel()
	if err := d.Stop(ctx); err != nil {
		log.Warn("shutting down", "err", err)
	}
}

// limitMemory sets a soft limit of 128 MiB (GOMEMLIMIT) so that the
// collector works harder before a big import or print could take twice its
// live heap beyond it. GOMEMLIMIT in the environment wins.
func limitMemory() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(128 << 20)
	}
}

// serveHTTP serves until ctx ends, then lets running requests finish.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler, log *slog.Logger) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// pruneLoop deletes old sessions and failed sign-ins every hour.
func pruneLoop(ctx context.Context, db *storage.DB, log *slog.Logger) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		if _, err := db.PruneSessions(ctx); err != nil && ctx.Err() == nil {
			log.Warn("prune sessions", "err", err)
		}
		if err := db.PruneLoginFailures(ctx); err != nil && ctx.Err() == nil {
			log.Warn("prune failed sign-ins", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func seedDemo(ctx context.Context, accounts *staff.Service, stdout io.Writer) error {
	demo, err := accounts.SeedDemo(ctx)
	if err != nil {
		return err
	}
	printed := false
	for _, d := range demo {
		if d.Password == "" {
			continue
		}
		if !printed {
			fmt.Fprintln(stdout, "Demo users created. Their passwords are shown only this once:")
			printed = true
		}
		fmt.Fprintf(stdout, "  %-8s role %-8s password %s\n", d.Username, d.Role, d.Password)
	}
	if !printed {
		fmt.Fprintln(stdout, "Demo users clerk, agent and manager exist. Forgot a password? ./bin/shipdesk user passwd --username NAME --password-stdin")
	}
	return nil
}
