package desk

import (
	"context"
	"errors"
	"fmt"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/textin"
)

// Keeping the desk's picture of created shipments current. The service sends
// no webhooks, so the desk asks: the pollers in jobs have a Refresher lease
// due shipments, ask about them and back off what failed (PollLabels,
// PollTracking); a shipment page waiting for its label goes the same way
// (RefreshDue), and "refresh now" asks and records as they do (Labels,
// Tracking), so a shipment's state is asked for and recorded one way.

// ReplyOf is what we keep of the service's view of a shipment. The order's
// token and number come only with the create reply.
func ReplyOf(si shipping.ShipmentInfo) storage.Reply {
	r := storage.Reply{TrackingNumber: si.TrackingNumber, Status: si.Status, LabelMode: si.LabelMode, LabelStatus: si.LabelStatus}
	if _, err := time.Parse(time.DateOnly, si.DeliveryDate); err == nil {
		r.ExpectedDelivery = si.DeliveryDate
	}
	for _, k := range si.Packages {
		p := storage.PackageInfo{Number: k.Number, Status: k.Status}
		if k.PackagePassword != nil {
			p.Password = *k.PackagePassword
		}
		r.Packages = append(r.Packages, p)
	}
	if si.TrackingInformation != nil {
		r.Returned = si.TrackingInformation.Returned
	}
	textin.FromService(&r)
	return r
}

// stateOf is the reply to store for a known shipment from a detail answer:
// detail answers without tracking say nothing of a return, so the stored flag
// stays.
func stateOf(s storage.Shipment, si shipping.ShipmentInfo) storage.Reply {
	r := ReplyOf(si)
	r.Returned = s.Returned
	return r
}

// RefreshConfig is how often the service is asked about a created shipment
// again, and how long one call may take: the pollers' cadence (jobs.Config
// holds it), defined here once.
type RefreshConfig struct {
	LabelEvery  time.Duration // a pending label: every few minutes (0: 3 minutes)
	TrackEvery  time.Duration // a moving shipment: every tens of minutes (0: 30 minutes)
	CallTimeout time.Duration // one upstream call (0: 30 seconds)
	MaxBackoff  time.Duration // the longest wait after failures in a row (0: 2 hours)
}

// WithDefaults is c with the default of each duration left zero.
func (c RefreshConfig) WithDefaults() RefreshConfig {
	set := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&c.LabelEvery, 3*time.Minute)
	set(&c.TrackEvery, 30*time.Minute)
	set(&c.CallTimeout, 30*time.Second)
	set(&c.MaxBackoff, 2*time.Hour)
	return c
}

// Refresher asks the service about created shipments and records what it
// says, with the next time each is due.
type Refresher struct {
	d   *Desk
	cfg RefreshConfig
}

// Refresher returns a refresher of the desk's shipments, on the desk's clock.
func (d *Desk) Refresher(cfg RefreshConfig) *Refresher {
	return &Refresher{d: d, cfg: cfg.WithDefaults()}
}

// Refreshed is what one batch brought.
type Refreshed struct {
	Events   int     // tracking events received (the database skips stored ones)
	Failed   []int64 // shipments not reported or not stored: ask again later
	Unstored error   // why answers were not stored (logged too), nil when all were
}

func detailRequest(batch []storage.Shipment) shipping.DetailRequest {
	var req shipping.DetailRequest
	for _, s := range batch {
		req.Shipments = append(req.Shipments, s.Tracking())
		if s.OrderToken != nil {
			req.Tokens = append(req.Tokens, *s.OrderToken)
		}
	}
	return req
}

func numbersOf(batch []storage.Shipment) []string {
	numbers := make([]string, 0, len(batch))
	for _, s := range batch {
		numbers = append(numbers, s.Tracking())
	}
	return numbers
}

// details asks for the batch's details in one call.
func (f *Refresher) details(ctx context.Context, batch []storage.Shipment) (map[string]shipping.ShipmentInfo, error) {
	ctx, cancel := context.WithTimeout(ctx, f.cfg.CallTimeout)
	defer cancel()
	return f.d.ship.Detail(ctx, detailRequest(batch), false)
}

// tracking asks for the batch's tracking in one call (the service takes 100
// tracking numbers).
func (f *Refresher) tracking(ctx context.Context, batch []storage.Shipment) (map[string]shipping.Tracking, error) {
	ctx, cancel := context.WithTimeout(ctx, f.cfg.CallTimeout)
	defer cancel()
	return f.d.ship.Tracking(ctx, numbersOf(batch))
}

// recordLabel stores a detail answer and schedules the next label check
// while the label is pending.
func (f *Refresher) recordLabel(ctx context.Context, s storage.Shipment, si shipping.ShipmentInfo, now time.Time) error {
	reply := stateOf(s, si)
	var next *time.Time
	if reply.LabelStatus == shipping.LabelPending {
		t := now.Add(f.cfg.LabelEvery)
		next = &t
	}
	return f.d.db.RecordLabelCheck(ctx, s.ID, reply, now, next)
}

// tracked is what is stored of one shipment's tracking answer, with the next
// update while it moves.
func (f *Refresher) tracked(id int64, tr shipping.Tracking, now time.Time) storage.Tracked {
	textin.FromService(&tr)
	events, err := EventsOf(tr)
	if err != nil {
		f.d.log.Warn("tracking event with a bad date", "shipment", id, "err", err)
	}
	t := storage.Tracked{ID: id, Status: tr.Status, Returned: tr.Returned, Events: events}
	if tr.Status != shipping.StatusDelivered && tr.Status != shipping.StatusCancelled {
		next := now.Add(f.cfg.TrackEvery)
		t.Next = &next
	}
	return t
}

// recordTracking stores one shipment's tracking and schedules the next update
// while it moves; it returns the number of events received.
func (f *Refresher) recordTracking(ctx context.Context, id int64, tr shipping.Tracking, now time.Time) (int, error) {
	t := f.tracked(id, tr, now)
	return len(t.Events), f.d.db.RecordTrackingsThen(ctx, []storage.Tracked{t}, now, f.d.mailParcels(ctx, now))
}

// Labels asks about the labels of a batch of shipments in one detail call and
// records each answer. An error means the call failed and nothing was stored.
func (f *Refresher) Labels(ctx context.Context, batch []storage.Shipment) (Refreshed, error) {
	var res Refreshed
	details, err := f.details(ctx, batch)
	if err != nil {
		return res, err
	}
	now := f.d.now()
	for _, s := range batch {
		si, ok := details[s.Tracking()]
		if !ok { // not reported: ask again later, as for a failure
			res.Failed = append(res.Failed, s.ID)
			continue
		}
		if err := f.recordLabel(ctx, s, si, now); err != nil {
			f.d.log.Error("store label check", "shipment", s.ID, "err", err)
			res.Failed, res.Unstored = append(res.Failed, s.ID), errors.Join(res.Unstored, err)
		}
	}
	return res, nil
}

// Tracking refreshes the tracking of a batch of shipments (at most 100) in one
// call and records the answers together; arrived and cancelled shipments are
// not due again. An error means the call failed and nothing was stored.
func (f *Refresher) Tracking(ctx context.Context, batch []storage.Shipment) (Refreshed, error) {
	var res Refreshed
	tracks, err := f.tracking(ctx, batch)
	if err != nil {
		return res, err
	}
	now := f.d.now()
	answered := make([]storage.Tracked, 0, len(batch))
	for _, s := range batch {
		tr, ok := tracks[s.Tracking()]
		if !ok {
			res.Failed = append(res.Failed, s.ID)
			continue
		}
		answered = append(answered, f.tracked(s.ID, tr, now))
	}
	err = f.d.db.RecordTrackingsThen(ctx, answered, now, f.d.mailParcels(ctx, now))
	if err == nil {
		for _, t := range answered {
			res.Events += len(t.Events)
		}
		return res, nil
	}
	if ctx.Err() != nil {
		return res, err
	}
	f.d.log.Warn("store tracking of a batch; storing one by one", "shipments", len(answered), "err", err)
	// One bad answer must not stop the others.
	for _, t := range answered {
		if err := f.d.db.RecordTrackingsThen(ctx, []storage.Tracked{t}, now, f.d.mailParcels(ctx, now)); err != nil {
			f.d.log.Error("store tracking", "shipment", t.ID, "err", err)
			res.Failed, res.Unstored = append(res.Failed, t.ID), errors.Join(res.Unstored, err)
			continue
		}
		res.Events += len(t.Events)
	}
	return res, nil
}

// RefreshNow asks the service about one shipment at once ("refresh now"),
// as the pollers ask about a batch: its label when still pending, and its
// tracking while it moves. A person's press is no poll: it takes no lease
// and a failure leaves the pollers' schedule as it is.
func (f *Refresher) RefreshNow(ctx context.Context, id int64) error {
	s, err := f.d.db.ShipmentByID(ctx, id)
	if err != nil {
		return err
	}
	if s.State != storage.StateCreated {
		return nil
	}
	one := []storage.Shipment{s}
	if s.LabelStatus == shipping.LabelPending {
		res, err := f.Labels(ctx, one)
		if err != nil {
			return UpstreamError("ship.doing.refresh_label", err)
		}
		if res.Unstored != nil {
			return res.Unstored
		}
	}
	res, err := f.Tracking(ctx, one)
	if err != nil {
		return UpstreamError("ship.doing.refresh_tracking", err)
	}
	return res.Unstored
}

// EventsOf flattens the per-package lists of a tracking answer. An event whose
// date or time cannot be read is skipped (and reported), never stored wrong.
func EventsOf(tr shipping.Tracking) ([]storage.Event, error) {
	var out []storage.Event
	var errs []error
	for i, list := range tr.Packages {
		for _, e := range list {
			// The service writes its times in Prague's local time.
			at, err := time.ParseInLocation(time.DateTime, e.Date+" "+e.Time, i18n.Prague)
			if err != nil {
				errs = append(errs, fmt.Errorf("package %d event %q: %w", i, e.Name, err))
				continue
			}
			out = append(out, storage.Event{PackageIndex: i, Occurred: at, Status: e.Status, Name: e.Name, Location: e.Location})
		}
	}
	return out, errors.Join(errs...)
}

// Found is what one page of the service's active shipments brought.
type Found struct {
	Imported int  // shipments stored for the first time
	Events   int  // their tracking events
	Last     bool // no page follows
	Next     int  // the offset of the page that follows
}

// Discover reads one page of the service's active shipments (with their
// tracking) from offset, as the service pages its list (0, 100, 200…), and
// stores those shipdesk does not know: ordered elsewhere, or by hand. An order
// under the reference of one of ours goes to FoundAtService.
func (f *Refresher) Discover(ctx context.Context, offset int) (Found, error) {
	var found Found
	cctx, cancel := context.WithTimeout(ctx, f.cfg.CallTimeout)
	res, err := f.d.ship.List(cctx, shipping.ListQuery{Status: shipping.ListActive, Tracking: true, Offset: offset})
	cancel()
	if err != nil {
		return found, fmt.Errorf("list active shipments (from %d): %w", offset, err)
	}
	var numbers, refs []string
	for _, si := range res.Shipments {
		numbers, refs = append(numbers, si.TrackingNumber), append(refs, si.Reference)
	}
	known, err := f.d.db.KnownNumbers(ctx, numbers, refs)
	if err != nil {
		return found, err
	}
	now := f.d.now()
	for _, si := range res.Shipments {
		if known[si.TrackingNumber] {
			continue
		}
		if si.Reference != "" && known["ref:"+si.Reference] {
			// One of our orders carries this reference: the desk binds a late
			// order to it, or keeps a second one as a duplicate to cancel.
			if err := f.d.FoundAtService(ctx, si); err != nil {
				return found, err
			}
			continue
		}
		id, err := f.d.db.ImportShipment(ctx, importedShipment(si), ReplyOf(si), now)
		if err != nil {
			return found, err
		}
		if id != 0 && si.TrackingInformation != nil {
			n, err := f.recordTracking(ctx, id, *si.TrackingInformation, now)
			if err != nil {
				return found, err
			}
			found.Events += n
		}
		found.Imported++
	}
	found.Last, found.Next = res.Last, res.Next()
	return found, nil
}

// importedShipment is the local record of a shipment found at the service.
func importedShipment(si shipping.ShipmentInfo) storage.Shipment {
	s := storage.Shipment{Reference: si.Reference, Carrier: si.Carrier, ServiceID: si.ServiceID}
	if si.To != nil {
		s.RecipientName = RecipientName(*si.To)
		s.RecipientCity = si.To.City
	}
	textin.FromService(&s)
	return s
}
