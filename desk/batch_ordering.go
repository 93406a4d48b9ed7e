package desk

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/orderfile"
	"shipdesk/storage"
)

// OrderBatch orders every priced row of a batch, each once: the rows are
// leased by one update, so a second press (or a second clerk) finds them
// taken; the worker orders them a few at a time, each with its own request
// key.
func (d *Desk) OrderBatch(ctx context.Context, batch int64) (int, error) {
	if _, err := d.db.BatchByID(ctx, batch); err != nil {
		return 0, err
	}
	n, err := d.db.QueueRows(ctx, batch, storage.RowPriced, storage.RowOrdering)
	if err != nil {
		return 0, err
	}
	d.startBatch(batch)
	if n == 0 {
		return 0, apperr.New(apperr.Conflict, "batch.err.nothing_to_order")
	}
	return n, nil
}

// orderRows orders a lease's rows side by side, each row's shipment with
// its chosen offer and its own request key: a row ordered before (a worker
// gone after the call) finds its shipment instead of ordering again. A row
// that repeats what was ordered meanwhile (another batch, the form) becomes
// known instead, before it is sent, or when its reference turns out taken.
// The rows go to the database together: what they repeat is asked in one
// statement and their intents are recorded in one, each before its own call
// is sent; the service's answers are written with the rows' outcomes. The
// calls to the service go BatchWorkers at a time.
func (d *Desk) orderRows(ctx context.Context, b storage.Batch, rows []storage.BatchRow, w *batchWork) {
	matched, err := d.db.RowMatchesOf(ctx, matchAsks(rows))
	if err != nil {
		d.log.Warn("batch rows: match", "rows", len(rows), "err", err)
		for _, row := range rows {
			w.outcomes.add(storage.RowOutcome{Ordered: row.ID, Why: apperr.Msg("batch.err.order_failed")})
		}
		return
	}
	ready := make([]*rowOrder, len(rows))
	sideBySide(len(rows), func(i int) { ready[i] = d.readyRow(ctx, b, rows[i], matched[i], w) })
	var intents []storage.Shipment
	for _, r := range ready {
		if r != nil {
			intents = append(intents, r.o.intent)
		}
	}
	begun := d.beginAll(ctx, intents)
	for _, r := range ready {
		if r != nil {
			r.begun, begun = begun[0], begun[1:]
		}
	}
	sideBySide(len(rows), func(i int) {
		if r := ready[i]; r != nil {
			d.sendRow(ctx, r, w)
		}
	})
}

// matchAsks ask what each of the rows repeats, under its request key.
func matchAsks(rows []storage.BatchRow) []storage.RowMatch {
	asks := make([]storage.RowMatch, len(rows))
	for i, row := range rows {
		asks[i] = storage.RowMatch{Key: row.RequestKey, Reference: row.Reference, Fingerprint: row.Fingerprint, Row: row.ID}
	}
	return asks
}

// rowOrder is a row whose order is checked and ready (o), then recorded (begun).
type rowOrder struct {
	row   storage.BatchRow
	f     Form
	o     orderReady
	begun begun
}

// readyRow checks a row's order by our rules and the service's; nil when
// the row ended there (known, failed, or sent before under its key).
func (d *Desk) readyRow(ctx context.Context, b storage.Batch, row storage.BatchRow, m storage.RowMatched, w *batchWork) *rowOrder {
	if !m.Keyed {
		if match, found := matchOf(row, m.Matches); found {
			d.rowKnown(ctx, row.ID, match)
			return nil
		}
	}
	keyChecked := !m.Keyed // the order finds what was sent under the key
	r := ReadBatchRow(row)
	f, _, err := d.rowForm(ctx, b, row.RequestKey, r.Order, w.reads)
	chosen, ok := r.Chosen()
	switch {
	case err != nil:
	case !ok:
		err = apperr.New(apperr.Invalid, "batch.err.no_offer")
	default:
		f.take(chosen.Offer)
	}
	var o orderReady
	if err == nil {
		by := int64(0)
		if b.CreatedBy != nil {
			by = *b.CreatedBy
		}
		o, err = d.readyOrder(ctx, f, by, w.reads, keyChecked)
	}
	if err != nil || o.sent != nil {
		d.rowOrdered(ctx, row, f, o.sentBefore(), nil, err, w)
		return nil
	}
	return &rowOrder{row: row, f: f, o: o}
}

// sendRow sends a row's recorded order exactly once. The service's answer
// is written with the row's outcome, not on its own: until it is, the
// order stands as one whose answer was lost (a process gone meanwhile
// leaves it to the reconciler).
func (d *Desk) sendRow(ctx context.Context, r *rowOrder, w *batchWork) {
	var created *storage.Created
	keep := func(_ context.Context, id, attempt int64, answer *shipping.Created, at time.Time) (storage.Shipment, error) {
		created = &storage.Created{Attempt: attempt, Reply: createdReply(answer), At: at}
		return storage.Shipment{ID: id, State: storage.StateOrdering}, nil
	}
	bg := r.begun
	s, err := d.sendBegun(ctx, r.o.order, r.o.fresh, bg.s, bg.attempt, bg.fresh, bg.err, keep)
	d.rowOrdered(ctx, r.row, r.f, s, created, err, w)
}

// rowOrdered hands over what a row's order came to: its shipment (and the
// service's answer, not recorded yet), else why it failed; a row whose
// reference turns out taken becomes known.
func (d *Desk) rowOrdered(ctx context.Context, row storage.BatchRow, f Form, s storage.Shipment, created *storage.Created, err error, w *batchWork) {
	if s.ID != 0 {
		w.outcomes.add(storage.RowOutcome{Ordered: row.ID, Shipment: &s.ID, Created: created})
		return
	}
	if apperr.Is(err, apperr.Conflict) {
		// The reference is taken: the parcel was ordered already.
		if taken, terr := d.db.ShipmentByReference(ctx, reference(f)); terr == nil {
			d.rowKnown(ctx, row.ID, storage.OrderedMatch{Reference: taken.Reference, ShipmentID: &taken.ID})
			return
		}
	}
	w.outcomes.add(storage.RowOutcome{Ordered: row.ID, Why: orderFailure(err)})
}

// begun is what BeginShipment answers of an intent.
type begun struct {
	s       storage.Shipment
	attempt int64
	fresh   bool
	err     error
}

// beginAll records the intents of the rows ordered side by side in one
// statement, at one time taken now (before any is sent); an intent it did
// not record (recorded before under its key, or a reference taken) is
// recorded alone, which says what it is.
func (d *Desk) beginAll(ctx context.Context, intents []storage.Shipment) []begun {
	out := make([]begun, len(intents))
	var recorded map[string]storage.Begun
	if len(intents) > 1 {
		now := d.now()
		var err error
		if recorded, err = d.db.BeginShipments(ctx, intents, now, d.deadline(now)); err != nil {
			d.log.Info("batch orders: recorded one at a time", "orders", len(intents), "err", err)
		}
	}
	for i, in := range intents {
		if b, ok := recorded[in.RequestKey]; ok {
			out[i] = begun{s: b.Shipment, attempt: b.Attempt, fresh: true}
			continue
		}
		now := d.now()
		s, attempt, fresh, err := d.db.BeginShipment(ctx, in, now, d.deadline(now))
		out[i] = begun{s: s, attempt: attempt, fresh: fresh, err: err}
	}
	return out
}

// sideBySide runs fn for 0…n-1, BatchWorkers at a time, and waits for them all.
func sideBySide(n int, fn func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(n, BatchWorkers) {
		wg.Go(func() {
			for i := range next {
				fn(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// orderFailure says why a row's order failed and what to do, from the
// catalog: the service's words with the row's fields it names (fix them and
// save), or, when the reason is ours, to order the row again.
func orderFailure(err error) apperr.Text {
	why := apperr.TextOf(err)
	if why.IsZero() || apperr.CodeOf(err) == apperr.Internal {
		return apperr.Msg("batch.err.order_failed")
	}
	var parts []apperr.Text
	for k, t := range apperr.ProblemsOf(err) {
		if field := rowField(k); field != "" {
			parts = append(parts, apperr.Msg("batch.err.field", apperr.Msg(orderfile.LabelKey(orderfile.Field(field))), t))
		} else {
			parts = append(parts, t)
		}
	}
	slices.SortFunc(parts, func(a, b apperr.Text) int { return strings.Compare(a.String(), b.String()) })
	todo := apperr.Msg("batch.err.todo_again")
	switch {
	case len(parts) > 0:
		todo = apperr.Msg("batch.err.todo_fields")
	case apperr.Is(err, apperr.Invalid):
		todo = apperr.Msg("batch.err.todo_fix")
	}
	return apperr.Join(append(append([]apperr.Text{why}, parts...), todo)...)
}

func (d *Desk) rowKnown(ctx context.Context, id int64, m storage.OrderedMatch) {
	if err := d.db.RowKnownAt(ctx, id, m); err != nil {
		d.log.Warn("batch row: record ordered before", "row", id, "err", err)
	}
}
