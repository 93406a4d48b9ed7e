// Package app wires shipdesk's parts together: storage, the staff service, the
// handlers and the web server. The binary and the end-to-end tests both build the
// dashboard here, so a test runs exactly what production runs.
package app

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"shipdesk/attention"
	"shipdesk/claims"
	"shipdesk/clock"
	"shipdesk/desk"
	"shipdesk/handlers"
	"shipdesk/i18n"
	"shipdesk/jobs"
	"shipdesk/mail"
	"shipdesk/mailcatch"
	sandboxshipping "shipdesk/sandbox/shipping"
	"shipdesk/shop"
	"shipdesk/shop/shoptet"
	"shipdesk/shopid"
	"shipdesk/staff"
	"shipdesk/storage"
	"shipdesk/throttle"
	"shipdesk/upstream"
	"shipdesk/web"
	"shipdesk/workbench"
)

// Options configure the dashboard.
type Options struct {
	SessionKey  []byte
	TrustProxy  bool
	IdleTimeout time.Duration
	MaxSession  time.Duration
	BcryptCost  int // 0: bcrypt's default; tests use the minimum
	Throttle    staff.Throttle
	Upstream    *upstream.Clients // the shipping service (or the sandbox)
	// RefreshAfter: how often a polling shipment page may ask the service (0: 3s;
	// negative: on every poll).
	RefreshAfter time.Duration
	// Jobs is the pollers' cadence.
	Jobs jobs.Config
	// MetricsToken lets a scraper read /metrics; empty: managers only.
	MetricsToken string
	// KnownCarriers fill the carrier table where it knows nothing yet: the
	// sandbox's carriers in sandbox mode (see SandboxCarriers).
	KnownCarriers []storage.Carrier
	// Settle is how long after a create call's time limit the service may
	// still create the order (0: desk.DefaultSettle).
	Settle time.Duration
	// Lang is the installation's language; Zone the shop's time zone.
	Lang i18n.Lang
	Zone *time.Location
	// Mail is the SMTP server and the sender; without a server in sandbox
	// mode mail is caught in process (NewMail).
	Mail mail.Config
	// PublicBurst and PublicEvery limit each client of the customers' pages
	// in memory: a burst of requests, then one per interval (0: 120, and one
	// every 2 s: far more than a person filling the form needs).
	PublicBurst int
	PublicEvery time.Duration
	// PublicHold is how long a refused request waits before its answer
	// (0: 1 s; a person refused is told to come back in a minute anyway).
	PublicHold time.Duration
	// ClaimLimits are the claim page's throttles in the database (nil:
	// claims.DefaultLimits).
	ClaimLimits *claims.Limits
	// HooksBase is the dashboard's public base URL as the shop reaches it,
	// where its webhooks are registered ("": none, the sync alone reads the
	// shop's changes).
	HooksBase string
	// SummaryHour is the hour in the shop's zone from which the managers who
	// asked for it get the day's attention summary by mail (0: 7).
	SummaryHour int
}

// NewDesks builds the shipping desk and the returns workbench on the service's
// clients: create calls are limited by the upstream time limit, and an order
// is called missing only after that limit plus the settle window; the
// workbench mails its written confirmations through outbox, the desk the
// customers' mail of their parcels' steps. Both `serve` and
// `shipdesk jobs` build them here.
func NewDesks(db *storage.DB, up *upstream.Clients, settle time.Duration, outbox *mail.Outbox, log *slog.Logger) (*desk.Desk, *workbench.Workbench) {
	d := desk.New(db, up.Shipping, up.Cart, up.Clock(), log)
	wb := workbench.New(db, up.Returns, up.Clock(), log)
	wb.Outbox, d.Outbox = outbox, outbox
	if up.Config.Timeout > 0 {
		d.OrderTimeout, wb.CreateTimeout = up.Config.Timeout, up.Config.Timeout
	}
	if settle > 0 {
		d.Settle, wb.Settle = settle, settle
	}
	return d, wb
}

// NewJobs builds the pollers of both desks: the runner leases due work and
// hands it to the desks, which ask the service and record the answers. Both
// `serve` and `shipdesk jobs` build them here, on the desks of NewDesks.
func NewJobs(db *storage.DB, d *desk.Desk, wb *workbench.Workbench, cfg jobs.Config, clk *clock.Clock, log *slog.Logger) *jobs.Runner {
	wb.MaxBackoff = cfg.RefreshConfig.WithDefaults().MaxBackoff // one back-off for the poller and the pages
	return jobs.New(db, d, wb, cfg, clk, log)
}

// SandboxCarriers are the in-process sandbox's carriers for the carrier table.
func SandboxCarriers(facts []sandboxshipping.CarrierFact) []storage.Carrier {
	out := make([]storage.Carrier, 0, len(facts))
	for _, f := range facts {
		out = append(out, storage.Carrier{Code: f.Code, Name: f.Name, LabelFree: sql.NullBool{Valid: true, Bool: f.LabelFree},
			CODPackages: f.CODPackages})
	}
	return out
}

// App is the assembled dashboard.
type App struct {
	DB       *storage.DB
	Staff    *staff.Service
	Upstream *upstream.Clients
	Desk     *desk.Desk
	Jobs     *jobs.Runner // the pollers; serve runs them, tests call their cycles
	Bench    *workbench.Workbench
	Handler  http.Handler
	// Outbox records and sends mail; Catcher, in sandbox mode without an
	// SMTP server, is where that mail goes (nil otherwise).
	Outbox  *mail.Outbox
	Catcher *mailcatch.Catcher
	// Claims runs the customers' claim page.
	Claims *claims.Service
	// Shop follows the connected shop's orders (the clerk's inbox).
	Shop *shop.Service
	// Hooks take the shop's webhooks (Shop.Listen registers them).
	Hooks *shoptet.Hooks

	log *slog.Logger
}

// Close stops what New started in the background (the mail catcher).
func (a *App) Close() {
	if a.Catcher != nil {
		a.Catcher.Close()
	}
}

// New assembles the dashboard on an open, migrated database; Close stops
// what it starts.
func New(db *storage.DB, log *slog.Logger, o Options) (a *App, err error) {
	if o.MaxSession == 0 {
		o.MaxSession = 12 * time.Hour
	}
	// Sessions and sign-in are measured in real time, judged by the database's
	// own clock: a simulated week must sign nobody out. Everything the shop's
	// parcels and claims record or show is on the service's clock (upstream).
	wall := clock.Real()
	accounts, err := staff.New(db, staff.Config{IdleTimeout: o.IdleTimeout, AbsoluteTimeout: o.MaxSession, BcryptCost: o.BcryptCost, Throttle: o.Throttle,
		Clock: wall})
	if err != nil {
		return nil, err
	}
	sess, err := web.NewSessions(o.SessionKey, o.MaxSession, o.TrustProxy, wall)
	if err != nil {
		return nil, err
	}
	h := &handlers.Handlers{
		Staff:      accounts,
		Audit:      db,
		Sessions:   sess,
		Database:   db,
		Log:        log,
		TrustProxy: o.TrustProxy,
	}
	if o.Upstream == nil {
		return nil, errors.New("assemble app: no upstream clients")
	}
	h.Link = o.Upstream
	a = &App{DB: db, Staff: accounts, Upstream: o.Upstream, log: log}
	if a.Outbox, a.Catcher, err = NewMail(db, o.Mail, o.Upstream.IsSandbox(), o.Upstream.Clock(), o.Jobs.Who(), log); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil && a.Catcher != nil {
			a.Catcher.Close()
		}
	}()
	a.Desk, a.Bench = NewDesks(db, o.Upstream, o.Settle, a.Outbox, log)
	a.Desk.PublicURL, a.Desk.Zone = o.Mail.PublicURL, o.Zone // the links and days of the customers' parcel mail
	h.Clock = o.Upstream.Clock()                             // the pages read the clock the desks record on
	if len(o.KnownCarriers) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := a.Desk.SeedCarriers(ctx, o.KnownCarriers); err != nil {
			return nil, fmt.Errorf("assemble app: %w", err)
		}
	}
	if o.RefreshAfter == 0 {
		o.RefreshAfter = 3 * time.Second
	}
	a.Jobs = NewJobs(db, a.Desk, a.Bench, o.Jobs, o.Upstream.Clock(), log)
	h.SentMail, h.UserMails = sentMail{DB: db, catcher: a.Catcher}, db
	a.Claims = NewClaims(db, a.Desk, a.Bench, a.Outbox, o.Mail.PublicURL, o.Upstream.Clock(), log)
	if o.ClaimLimits != nil {
		a.Claims.Limits = *o.ClaimLimits
	}
	a.Jobs.AdvanceClaims(a.Claims)
	if a.Shop, err = NewShop(db, a.Desk, o.Upstream, o.SessionKey, o.Jobs.Who(), o.HooksBase, o.Mail.PublicURL, log); err != nil {
		return nil, err
	}
	a.Jobs.FollowShop(a.Shop)
	a.Hooks = shoptet.NewHooks(a.Shop.HookKey, a.Shop.Touch, log)
	h.Shop, h.ShopHooks, h.ShopConn, h.ShopAPI = a.Shop, a.Hooks, a.Shop, shopAPI(o.Upstream)
	a.Claims.Purchases = a.Shop                // a claim for a shop's purchase offers its items
	a.Bench.StatusLink = a.Claims.StatusLinkOf // the customer's confirmations link the claim's page
	h.Claims = a.Claims
	h.Returns, h.ReturnsStore = a.Bench, db
	h.Queue = attention.New(db, o.Upstream.Clock(), cmp.Or(o.Zone, i18n.Prague))
	h.ShipDesk, h.Tracker, h.RefreshAfter = a.Desk, a.Jobs.Refresher(), o.RefreshAfter
	h.RefusalHold = cmp.Or(o.PublicHold, time.Second)
	h.ShipReads = db
	h.Identity, h.PublicURL = shopid.New(db), PublicURL(o.Mail.PublicURL)
	a.Jobs.SendMail(a.Outbox, attention.NewDigest(db, a.Outbox, o.Upstream.Clock(), cmp.Or(o.Zone, i18n.Prague), cmp.Or(o.SummaryHour, 7),
		cmp.Or(o.Lang, i18n.Czech), h.AttentionSummaryXLSX))
	burst := cmp.Or(o.PublicBurst, 120)
	public := throttle.NewInMemory(throttle.Limit{Hits: burst, Window: time.Duration(burst) * cmp.Or(o.PublicEvery, 2*time.Second)}, wall.Now)
	srv, err := web.New(web.Deps{Handlers: h, Staff: accounts, Sessions: sess, Log: log, TrustProxy: o.TrustProxy, MetricsToken: o.MetricsToken,
		Lang: o.Lang, Zone: o.Zone, Public: public})
	if err != nil {
		return nil, err
	}
	a.Handler = srv
	return a, nil
}
