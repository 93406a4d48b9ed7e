package desk

import (
	"context"
	"sync"
	"time"

	"shipdesk/clock"
	"shipdesk/shiprules"
	"shipdesk/storage"
)

// rowReads are the tables an order's offers and the order itself are
// checked against besides the form: the shop's bank details, the senders,
// the carrier table and the managers' offer rules. The form reads them each
// time (keep 0). A batch worker keeps what it read for keep, so its rows do
// not read the same few rows once each: a manager's change reaches the rows
// begun keep later at the most. Failed reads are not kept.
type rowReads struct {
	d    *Desk
	keep time.Duration

	mu       sync.Mutex
	since    clock.Stopwatch
	settings *storage.ShippingSettings
	senders  map[int64]storage.Sender
	carriers []storage.Carrier // nil: not read
	rules    []shiprules.Rule
	ruled    bool
	seen     map[string]bool // carriers remembered as seen in offers
}

// batchReadsKept is how long a batch worker keeps what its rows read.
const batchReadsKept = time.Second

// freshReads read every table each time they are asked (the forms).
func (d *Desk) freshReads() *rowReads { return &rowReads{d: d} }

// keptReads keep what they read for a batch worker's rows.
func (d *Desk) keptReads() *rowReads {
	return &rowReads{d: d, keep: batchReadsKept, since: clock.Start()}
}

// lock locks the reads, forgetting what was read more than keep ago.
func (r *rowReads) lock() {
	r.mu.Lock()
	if r.keep > 0 && r.since.Elapsed() > r.keep {
		r.settings, r.senders, r.carriers, r.rules, r.ruled, r.seen = nil, nil, nil, nil, false, nil
		r.since = clock.Start()
	}
}

// bankDetails are the shop's shipping settings (its bank details for COD).
func (r *rowReads) bankDetails(ctx context.Context) (storage.ShippingSettings, error) {
	if r.keep == 0 {
		return r.d.db.Settings(ctx)
	}
	r.lock()
	defer r.mu.Unlock()
	if r.settings != nil {
		return *r.settings, nil
	}
	s, err := r.d.db.Settings(ctx)
	if err == nil {
		r.settings = &s
	}
	return s, err
}

// sender is the form's sender, as Desk.sender reads it.
func (r *rowReads) sender(ctx context.Context, f Form) (storage.Sender, error) {
	if r.keep == 0 || f.SenderID == 0 {
		return r.d.sender(ctx, f)
	}
	r.lock()
	defer r.mu.Unlock()
	if s, ok := r.senders[f.SenderID]; ok {
		return s, nil
	}
	s, err := r.d.sender(ctx, f)
	if err == nil {
		if r.senders == nil {
			r.senders = map[int64]storage.Sender{}
		}
		r.senders[f.SenderID] = s
	}
	return s, err
}

// carrierTable is the carrier table.
func (r *rowReads) carrierTable(ctx context.Context) ([]storage.Carrier, error) {
	if r.keep == 0 {
		return r.d.db.Carriers(ctx)
	}
	r.lock()
	defer r.mu.Unlock()
	return r.carrierTableLocked(ctx)
}

func (r *rowReads) carrierTableLocked(ctx context.Context) ([]storage.Carrier, error) {
	if r.carriers != nil {
		return r.carriers, nil
	}
	list, err := r.d.db.Carriers(ctx)
	if err == nil && list != nil {
		r.carriers = list
	}
	return list, err
}

// carrier is what the carrier table says of a carrier, as Desk.carrier reads it.
func (r *rowReads) carrier(ctx context.Context, code string) storage.Carrier {
	if r.keep == 0 {
		return r.d.carrier(ctx, code)
	}
	list, err := r.carrierTable(ctx)
	if err != nil {
		return r.d.carrier(ctx, code)
	}
	for _, c := range list {
		if c.Code == code {
			return c
		}
	}
	return storage.Carrier{Code: code}
}

// offerRules are the managers' offer rules.
func (r *rowReads) offerRules(ctx context.Context) ([]shiprules.Rule, error) {
	if r.keep == 0 {
		return r.d.db.ShipRules(ctx)
	}
	r.lock()
	defer r.mu.Unlock()
	if r.ruled {
		return r.rules, nil
	}
	rules, err := r.d.db.ShipRules(ctx)
	if err == nil {
		r.rules, r.ruled = rules, true
	}
	return rules, err
}

// seeCarriers remembers the carriers of the service's offers in the
// carrier table. Kept reads write only the carriers the table lacks, and
// each once: the same offers of every row of a batch change nothing there.
func (r *rowReads) seeCarriers(ctx context.Context, codes []string) error {
	if r.keep == 0 {
		return r.d.db.SeeCarriers(ctx, codes)
	}
	r.lock()
	defer r.mu.Unlock()
	known, err := r.carrierTableLocked(ctx)
	if err != nil {
		return r.d.db.SeeCarriers(ctx, codes)
	}
	var fresh []string
	for _, code := range codes {
		if r.seen[code] || containsCarrier(known, code) {
			continue
		}
		fresh = append(fresh, code)
	}
	if len(fresh) == 0 {
		return nil
	}
	if err := r.d.db.SeeCarriers(ctx, fresh); err != nil {
		return err
	}
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	for _, code := range fresh {
		r.seen[code] = true
	}
	r.carriers = nil // read again with the new ones
	return nil
}

func containsCarrier(list []storage.Carrier, code string) bool {
	for _, c := range list {
		if c.Code == code {
			return true
		}
	}
	return false
}
