// Package jobs schedules the polling that keeps shipdesk's picture of the
// service current. The service sends no webhooks, so state comes by polling:
// pending labels every few minutes, tracking of moving shipments every tens of
// minutes in batches, open commissions, and the list of active shipments to find
// those created outside shipdesk. The runner leases due work in PostgreSQL, so
// any number of instances can run side by side, hands each batch to the desk
// that knows how to ask the service and record the answer, and backs off what
// failed.
package jobs

import (
	"context"
	"log/slog"
	"os"
	"strconv"
	"time"

	"shipdesk/clock"
	"shipdesk/desk"
	"shipdesk/mail"
	"shipdesk/storage"
	"shipdesk/workbench"
)

// Config is the cadence of the pollers: the shipping desk's (how often a
// label or a shipment's tracking is asked for again, one call's time limit,
// the longest back-off) and the runner's own.
type Config struct {
	desk.RefreshConfig
	DiscoverEvery time.Duration // shipments/list ACTIVE, for shipments made elsewhere
	Batch         int           // tracking numbers per call (the service takes 100)
	Lease         time.Duration // how long a lease holds a shipment
	Tick          time.Duration // how often the runner looks for due work
	Instance      string        // names this instance in leases
}

func (c *Config) defaults() {
	set := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	c.RefreshConfig = c.RefreshConfig.WithDefaults()
	set(&c.DiscoverEvery, 30*time.Minute)
	set(&c.Lease, 2*time.Minute)
	set(&c.Tick, 30*time.Second)
	if c.Batch <= 0 || c.Batch > 100 {
		c.Batch = 100
	}
	if c.Instance == "" {
		host, _ := os.Hostname()
		c.Instance = host + "/" + strconv.Itoa(os.Getpid())
	}
}

// Runner runs the pollers.
type Runner struct {
	db      *storage.DB
	desk    *desk.Desk
	refresh *desk.Refresher
	bench   *workbench.Workbench
	cfg     Config
	log     *slog.Logger
	clock   *clock.Clock // the dashboard's one clock: leases are made on it
	outbox  *mail.Outbox // nil: this instance sends no mail
	daily   DailyMail    // nil: this instance queues no daily mail
	claims  Claims       // nil: this instance takes no claim steps
	shop    Shop         // nil: no shop's orders are followed here

	lastDiscover time.Time
}

// New returns a runner of the shipping desk's pollers and, when bench is not
// nil, of the returns desk's commission poller.
// It runs on the dashboard's clock; the refresher it hands its batches to is
// the one the pages' refresh uses too (Refresher).
func New(db *storage.DB, d *desk.Desk, bench *workbench.Workbench, cfg Config, clk *clock.Clock, log *slog.Logger) *Runner {
	cfg.defaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Runner{db: db, desk: d, bench: bench, cfg: cfg, log: log, clock: clk, refresh: d.Refresher(cfg.RefreshConfig)}
}

// DailyMail queues the mail that is due once a day (the managers' summary).
type DailyMail interface {
	QueueDue(ctx context.Context) (int, error)
}

// SendMail has each cycle queue the daily mail (daily may be nil) and send
// the outbox's due mail too.
func (r *Runner) SendMail(o *mail.Outbox, daily DailyMail) { r.outbox, r.daily = o, daily }

// Claims take the steps the customers' claims have due (their commissions,
// return parcels, the mail of their codes).
type Claims interface {
	Advance(ctx context.Context) (int, error)
}

// AdvanceClaims has each cycle take the claims' due steps, before the mail
// is sent, so a code found in this cycle's label poll is mailed in it.
func (r *Runner) AdvanceClaims(c Claims) { r.claims = c }

// Who names this instance in leases (Config.Instance, or host and process).
func (c Config) Who() string {
	c.defaults()
	return c.Instance
}

// Refresher is the pollers' refresher, which the pages share: a shipment's
// state is asked for and recorded one way.
func (r *Runner) Refresher() *desk.Refresher { return r.refresh }

// now is the time on the dashboard's clock.
func (r *Runner) now() time.Time { return r.clock.Now() }

// Stats counts what one cycle did.
type Stats struct {
	Shipments int     // shipments handled
	Calls     int     // upstream calls made
	Failed    int     // shipments (or commissions) whose call failed (backed off)
	Events    int     // events received (stored ones deduplicated by the database)
	Handled   []int64 // the shipments (or commissions) this instance fetched, in order
}

// Run runs every poller on each tick until ctx ends. A failing or slow service
// only delays the pollers; pages never wait for them.
func (r *Runner) Run(ctx context.Context) {
	t := time.NewTicker(r.cfg.Tick)
	defer t.Stop()
	for {
		r.Cycle(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// Cycle runs each poller once, and the desks' upkeep.
func (r *Runner) Cycle(ctx context.Context) {
	r.desk.MaintainOnce(ctx)
	if s, err := r.Labels(ctx); err != nil && ctx.Err() == nil {
		r.log.Warn("label poller", "err", err)
	} else if s.Shipments > 0 {
		r.log.Info("labels checked", "shipments", s.Shipments, "calls", s.Calls, "failed", s.Failed)
	}
	if s, err := r.Tracking(ctx); err != nil && ctx.Err() == nil {
		r.log.Warn("tracking poller", "err", err)
	} else if s.Shipments > 0 {
		r.log.Info("tracking updated", "shipments", s.Shipments, "calls", s.Calls, "failed", s.Failed, "events", s.Events)
	}
	if r.bench != nil {
		r.bench.MaintainOnce(ctx)
		if s, err := r.Commissions(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("commission poller", "err", err)
		} else if len(s.Handled) > 0 {
			r.log.Info("commissions refreshed", "commissions", len(s.Handled))
		}
	}
	r.shopCycle(ctx)
	if r.claims != nil {
		if n, err := r.claims.Advance(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("claims", "err", err)
		} else if n > 0 {
			r.log.Info("claims advanced", "claims", n)
		}
	}
	if r.daily != nil {
		if n, err := r.daily.QueueDue(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("daily mail", "err", err)
		} else if n > 0 {
			r.log.Info("daily mail queued", "mails", n)
		}
	}
	if r.outbox != nil {
		if s, err := r.outbox.SendDue(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("mail sender", "err", err)
		} else if s != (mail.Stats{}) {
			r.log.Info("mail sent", "sent", s.Sent, "retried", s.Retried, "failed", s.Failed)
		}
		// The outbox's upkeep, on the clock its times are on: a mail that
		// carried a customer's key keeps only its record once it is done.
		if n, err := r.outbox.Forget(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("forget sent mail", "err", err)
		} else if n > 0 {
			r.log.Info("sent mail forgotten", "mails", n)
		}
	}
	if r.now().Sub(r.lastDiscover) >= r.cfg.DiscoverEvery {
		if s, err := r.Discover(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("discovery poller", "err", err)
		} else {
			r.lastDiscover = r.now()
			if s.Shipments > 0 {
				r.log.Info("shipments found at the service", "shipments", s.Shipments)
			}
		}
	}
}

func (r *Runner) lease() storage.Lease {
	return storage.Lease{Who: r.cfg.Instance, Now: r.now(), Limit: r.cfg.Batch, For: r.cfg.Lease}
}

// Labels checks every shipment whose label is pending and due, in batches of
// detail calls, until none is due. Each shipment is leased first.
func (r *Runner) Labels(ctx context.Context) (Stats, error) {
	return r.poll(ctx, "label check", r.refresh.PollLabels)
}

// Tracking refreshes every moving shipment that is due, in batches of the
// tracking call; arrived and cancelled shipments drop out.
func (r *Runner) Tracking(ctx context.Context) (Stats, error) {
	return r.poll(ctx, "tracking", r.refresh.PollTracking)
}

// poll has the desk poll leased batches until none is due; the desk backs
// off what failed.
func (r *Runner) poll(ctx context.Context, what string, poll func(context.Context, storage.Lease) (desk.Polled, error)) (Stats, error) {
	var st Stats
	for ctx.Err() == nil {
		p, err := poll(ctx, r.lease())
		if len(p.Leased) == 0 {
			return st, err
		}
		st.Shipments += len(p.Leased)
		st.Calls++
		st.Handled = append(st.Handled, p.Leased...)
		if p.Err != nil {
			st.Failed += len(p.Leased)
		} else {
			st.Failed += len(p.Failed)
			st.Events += p.Events
		}
		if err != nil {
			return st, err
		}
		if p.Err != nil {
			r.log.Warn(what+" failed; backing off", "shipments", len(p.Leased), "err", p.Err)
		}
	}
	return st, ctx.Err()
}

// Discover pages through the service's active shipments and has the desk
// store those shipdesk does not know: ordered elsewhere, or by hand.
func (r *Runner) Discover(ctx context.Context) (Stats, error) {
	var st Stats
	for offset := 0; ctx.Err() == nil; {
		found, err := r.refresh.Discover(ctx, offset)
		st.Calls++
		st.Shipments += found.Imported
		st.Events += found.Events
		if err != nil {
			return st, err
		}
		if found.Last {
			return st, nil
		}
		offset = found.Next
	}
	return st, ctx.Err()
}

// Commissions reads every open commission that is due again, leasing each
// first so several instances never read the same one; a failure backs off.
func (r *Runner) Commissions(ctx context.Context) (Stats, error) {
	var st Stats
	for ctx.Err() == nil {
		batch, err := r.db.LeaseCommissionSync(ctx, r.lease())
		if err != nil || len(batch) == 0 {
			return st, err
		}
		for _, c := range batch {
			st.Handled = append(st.Handled, c.ID)
		}
		st.Calls += len(batch)
		failed := r.bench.RefreshCommissions(ctx, batch)
		st.Failed += len(failed)
		if len(failed) > 0 {
			if err := r.bench.SyncFailed(ctx, failed, r.now()); err != nil {
				return st, err
			}
		}
	}
	return st, ctx.Err()
}
