// Package jobs keeps shipdesk's picture of the service current. The service sends
// no webhooks, so state comes by polling: pending labels every few minutes,
// tracking of moving shipments every tens of minutes in batches, and the list of
// active shipments to find those created outside shipdesk. Work is claimed in
// PostgreSQL, so any number of instances can run the pollers side by side.
package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/desk"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/workbench"
)

// Config is the cadence of the pollers.
type Config struct {
	LabelEvery    time.Duration // pending labels: every few minutes
	TrackEvery    time.Duration // moving shipments: every tens of minutes
	DiscoverEvery time.Duration // shipments/list ACTIVE, for shipments made elsewhere
	Batch         int           // tracking numbers per call (the service takes 100)
	Lease         time.Duration // how long a claim holds a shipment
	MaxBackoff    time.Duration // the longest wait after failures in a row
	Tick          time.Duration // how often the runner looks for due work
	CallTimeout   time.Duration // one upstream call
	Instance      string        // names this instance in claims
}

func (c *Config) defaults() {
	set := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	set(&c.LabelEvery, 3*time.Minute)
	set(&c.TrackEvery, 30*time.Minute)
	set(&c.DiscoverEvery, 30*time.Minute)
	set(&c.Lease, 2*time.Minute)
	set(&c.MaxBackoff, 2*time.Hour)
	set(&c.Tick, 30*time.Second)
	set(&c.CallTimeout, 30*time.Second)
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
	db   *storage.DB
	ship *shipping.Client
	desk *desk.Desk
	cfg  Config
	log  *slog.Logger
	// Now is the runner's clock; tests move it.
	Now func() time.Time

	lastDiscover time.Time
	// Bench keeps the returns desk's commissions current (nil: not run).
	Bench *workbench.Workbench
}

// New returns a runner.
func New(db *storage.DB, ship *shipping.Client, d *desk.Desk, cfg Config, log *slog.Logger) *Runner {
	cfg.defaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Runner{db: db, ship: ship, desk: d, cfg: cfg, log: log, Now: time.Now}
}

// Stats counts what one cycle did.
type Stats struct {
	Shipments int     // shipments handled
	Calls     int     // upstream calls made
	Failed    int     // shipments whose call failed (backed off)
	Events    int     // events received (stored ones deduplicated by the database)
	Handled   []int64 // the shipments this instance fetched, in order
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

// Cycle runs each poller once, and the desk's upkeep.
func (r *Runner) Cycle(ctx context.Context) {
	if r.desk != nil {
		r.desk.MaintainOnce(ctx)
	}
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
	if r.Bench != nil {
		r.Bench.MaintainOnce(ctx)
		if ids, err := r.Bench.SyncDue(ctx, r.claim(), r.cfg.MaxBackoff); err != nil && ctx.Err() == nil {
			r.log.Warn("commission poller", "err", err)
		} else if len(ids) > 0 {
			r.log.Info("commissions refreshed", "commissions", len(ids))
		}
	}
	if r.Now().Sub(r.lastDiscover) >= r.cfg.DiscoverEvery {
		if s, err := r.Discover(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("discovery poller", "err", err)
		} else {
			r.lastDiscover = r.Now()
			if s.Shipments > 0 {
				r.log.Info("shipments found at the service", "shipments", s.Shipments)
			}
		}
	}
}

func (r *Runner) claim() storage.Claim {
	return storage.Claim{Who: r.cfg.Instance, Now: r.Now(), Limit: r.cfg.Batch, Lease: r.cfg.Lease}
}

func (r *Runner) call(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, r.cfg.CallTimeout)
}

func numbersOf(list []storage.Shipment) ([]string, []string, []int64) {
	var numbers, tokens []string
	var ids []int64
	for _, s := range list {
		numbers, ids = append(numbers, s.Tracking()), append(ids, s.ID)
		if s.OrderToken != nil {
			tokens = append(tokens, *s.OrderToken)
		}
	}
	return numbers, tokens, ids
}

// Labels checks every shipment whose label is pending and due, in batches of
// detail calls, until none is due. Each shipment is claimed first.
func (r *Runner) Labels(ctx context.Context) (Stats, error) {
	var st Stats
	for ctx.Err() == nil {
		batch, err := r.db.ClaimLabelChecks(ctx, r.claim())
		if err != nil || len(batch) == 0 {
			return st, err
		}
		st.Shipments += len(batch)
		st.Calls++
		numbers, tokens, ids := numbersOf(batch)
		st.Handled = append(st.Handled, ids...)
		cctx, cancel := r.call(ctx)
		details, err := r.ship.Detail(cctx, shipping.DetailRequest{Shipments: numbers, Tokens: tokens}, false)
		cancel()
		now := r.Now()
		if err != nil {
			st.Failed += len(batch)
			if ferr := r.db.PollFailed(ctx, ids, true, now, r.cfg.LabelEvery, r.cfg.MaxBackoff); ferr != nil {
				return st, ferr
			}
			r.log.Warn("label check failed; backing off", "shipments", len(batch), "err", err)
			continue
		}
		for _, s := range batch {
			si, ok := details[s.Tracking()]
			if !ok { // not reported: ask again later, as for a failure
				st.Failed++
				if err := r.db.PollFailed(ctx, []int64{s.ID}, true, now, r.cfg.LabelEvery, r.cfg.MaxBackoff); err != nil {
					return st, err
				}
				continue
			}
			reply := desk.ReplyOf(si)
			reply.Returned = s.Returned
			var next *time.Time
			if reply.LabelStatus == shipping.LabelPending {
				t := now.Add(r.cfg.LabelEvery)
				next = &t
			}
			if err := r.db.RecordLabelCheck(ctx, s.ID, reply, now, next); err != nil {
				r.log.Error("store label check", "shipment", s.ID, "err", err)
				st.Failed++
				if err := r.db.PollFailed(ctx, []int64{s.ID}, true, now, r.cfg.LabelEvery, r.cfg.MaxBackoff); err != nil {
					return st, err
				}
			}
		}
	}
	return st, ctx.Err()
}

// Tracking refreshes every moving shipment that is due, in batches of the
// tracking call; arrived and cancelled shipments drop out.
func (r *Runner) Tracking(ctx context.Context) (Stats, error) {
	var st Stats
	for ctx.Err() == nil {
		batch, err := r.db.ClaimTracking(ctx, r.claim())
		if err != nil || len(batch) == 0 {
			return st, err
		}
		st.Shipments += len(batch)
		st.Calls++
		numbers, _, ids := numbersOf(batch)
		st.Handled = append(st.Handled, ids...)
		cctx, cancel := r.call(ctx)
		tracks, err := r.ship.Tracking(cctx, numbers)
		cancel()
		now := r.Now()
		if err != nil {
			st.Failed += len(batch)
			if ferr := r.db.PollFailed(ctx, ids, false, now, r.cfg.TrackEvery, r.cfg.MaxBackoff); ferr != nil {
				return st, ferr
			}
			r.log.Warn("tracking failed; backing off", "shipments", len(batch), "err", err)
			continue
		}
		for _, s := range batch {
			tr, ok := tracks[s.Tracking()]
			if !ok {
				st.Failed++
				if err := r.db.PollFailed(ctx, []int64{s.ID}, false, now, r.cfg.TrackEvery, r.cfg.MaxBackoff); err != nil {
					return st, err
				}
				continue
			}
			n, err := r.record(ctx, s.ID, tr, now)
			if err != nil { // one bad answer must not stop the others
				r.log.Error("store tracking", "shipment", s.ID, "err", err)
				st.Failed++
				if err := r.db.PollFailed(ctx, []int64{s.ID}, false, now, r.cfg.TrackEvery, r.cfg.MaxBackoff); err != nil {
					return st, err
				}
				continue
			}
			st.Events += n
		}
	}
	return st, ctx.Err()
}

// record stores one shipment's tracking and schedules the next update.
func (r *Runner) record(ctx context.Context, id int64, tr shipping.Tracking, now time.Time) (int, error) {
	textin.FromService(&tr)
	events, err := EventsOf(tr)
	if err != nil {
		r.log.Warn("tracking event with a bad date", "shipment", id, "err", err)
	}
	var next *time.Time
	if tr.Status != shipping.StatusDelivered && tr.Status != shipping.StatusCancelled {
		t := now.Add(r.cfg.TrackEvery)
		next = &t
	}
	return len(events), r.db.RecordTracking(ctx, id, tr.Status, tr.Returned, events, now, next)
}

// EventsOf flattens the per-package lists of a tracking answer. An event whose
// date or time cannot be read is skipped (and reported), never stored wrong.
func EventsOf(tr shipping.Tracking) ([]storage.Event, error) {
	var out []storage.Event
	var errs []error
	for i, list := range tr.Packages {
		for _, e := range list {
			at, err := time.Parse("2006-01-02 15:04:05", e.Date+" "+e.Time)
			if err != nil {
				errs = append(errs, fmt.Errorf("package %d event %q: %w", i, e.Name, err))
				continue
			}
			out = append(out, storage.Event{PackageIndex: i, Occurred: at, Status: e.Status, Name: e.Name, Location: e.Location})
		}
	}
	return out, errors.Join(errs...)
}

// Discover pages through the service's active shipments (with their tracking)
// and stores those shipdesk does not know: ordered elsewhere, or by hand.
func (r *Runner) Discover(ctx context.Context) (Stats, error) {
	var st Stats
	for page := 1; ctx.Err() == nil; page++ {
		cctx, cancel := r.call(ctx)
		res, err := r.ship.List(cctx, shipping.ListQuery{Status: shipping.ListActive, Tracking: true, Page: page, PerPage: 100})
		cancel()
		st.Calls++
		if err != nil {
			return st, fmt.Errorf("list active shipments (page %d): %w", page, err)
		}
		var numbers, refs []string
		for _, si := range res.Shipments {
			numbers, refs = append(numbers, si.TrackingNumber), append(refs, si.Reference)
		}
		known, err := r.db.KnownNumbers(ctx, numbers, refs)
		if err != nil {
			return st, err
		}
		now := r.Now()
		for _, si := range res.Shipments {
			if known[si.TrackingNumber] {
				continue
			}
			if si.Reference != "" && known["ref:"+si.Reference] {
				// One of our orders carries this reference: the desk binds a late
				// order to it, or keeps a second one as a duplicate to cancel.
				if err := r.desk.FoundAtService(ctx, si); err != nil {
					return st, err
				}
				continue
			}
			id, err := r.db.ImportShipment(ctx, shipmentOf(si), desk.ReplyOf(si), now)
			if err != nil {
				return st, err
			}
			if id != 0 && si.TrackingInformation != nil {
				n, err := r.record(ctx, id, *si.TrackingInformation, now)
				if err != nil {
					return st, err
				}
				st.Events += n
			}
			st.Shipments++
		}
		if page >= res.Pages || len(res.Shipments) == 0 {
			return st, nil
		}
	}
	return st, ctx.Err()
}

// shipmentOf is the local record of a shipment found at the service.
func shipmentOf(si shipping.ShipmentInfo) storage.Shipment {
	s := storage.Shipment{Reference: si.Reference, Carrier: si.Carrier, ServiceID: si.ServiceID}
	if si.To != nil {
		s.RecipientName = desk.RecipientName(*si.To)
		s.RecipientCity = si.To.City
	}
	textin.FromService(&s)
	return s
}

// RefreshNow asks the service about one shipment at once ("refresh now"): its
// label when still pending, and its tracking while it moves.
func (r *Runner) RefreshNow(ctx context.Context, id int64) error {
	s, err := r.db.ShipmentByID(ctx, id)
	if err != nil {
		return err
	}
	if s.State != storage.StateCreated {
		return nil
	}
	now := r.Now()
	if s.LabelStatus == shipping.LabelPending {
		numbers, tokens, _ := numbersOf([]storage.Shipment{s})
		details, err := r.ship.Detail(ctx, shipping.DetailRequest{Shipments: numbers, Tokens: tokens}, false)
		if err != nil {
			return desk.UpstreamError("refresh the label", err)
		}
		if si, ok := details[s.Tracking()]; ok {
			reply := desk.ReplyOf(si)
			reply.Returned = s.Returned
			next := now.Add(r.cfg.LabelEvery)
			if err := r.db.RecordLabelCheck(ctx, id, reply, now, &next); err != nil {
				return err
			}
		}
	}
	tracks, err := r.ship.Tracking(ctx, []string{s.Tracking()})
	if err != nil {
		return desk.UpstreamError("refresh the tracking", err)
	}
	if tr, ok := tracks[s.Tracking()]; ok {
		_, err = r.record(ctx, id, tr, now)
	}
	return err
}
