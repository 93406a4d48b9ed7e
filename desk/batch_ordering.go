package desk

import (
	"context"
	"slices"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/orderfile"
	"shipdesk/storage"
)

// OrderBatch orders every priced row of a batch, each once: the rows are
// claimed by one update, so a second press (or a second clerk) finds them
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

// orderRow orders a row's shipment with its chosen offer and its own
// request key: a row ordered before (a worker gone after the call) finds its
// shipment instead of ordering again. A row that repeats what was ordered
// meanwhile (another batch, the form) becomes known instead, before it is
// sent, or when its reference turns out taken.
func (d *Desk) orderRow(ctx context.Context, b storage.Batch, row storage.BatchRow, _ time.Time, w *batchWork) {
	rd := w.reads
	sent, m, found, err := d.sentOrOrderedBefore(ctx, row, row.RequestKey)
	if err != nil {
		d.log.Warn("batch row: match", "row", row.ID, "err", err)
		w.outcomes.add(storage.RowOutcome{Ordered: row.ID, Why: apperr.Msg("batch.err.order_failed")})
		return
	}
	if found {
		d.rowKnown(ctx, row.ID, m)
		return
	}
	keyChecked := !sent // the order finds what was sent under the key
	r := ReadBatchRow(row)
	f, _, err := d.rowForm(ctx, b, row.RequestKey, r.Order, rd)
	chosen, ok := r.Chosen()
	switch {
	case err != nil:
	case !ok:
		err = apperr.New(apperr.Invalid, "batch.err.no_offer")
	default:
		f.take(chosen.Offer)
	}
	var s storage.Shipment
	if err == nil {
		by := int64(0)
		if b.CreatedBy != nil {
			by = *b.CreatedBy
		}
		s, err = d.order(ctx, f, by, rd, keyChecked)
	}
	if s.ID != 0 {
		w.outcomes.add(storage.RowOutcome{Ordered: row.ID, Shipment: &s.ID})
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
