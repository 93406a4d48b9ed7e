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
// shipment instead of ordering again.
func (d *Desk) orderRow(ctx context.Context, b storage.Batch, row storage.BatchRow, _ time.Time) {
	r := ReadBatchRow(row)
	f, _, err := d.rowForm(ctx, b, row.RequestKey, r.Order)
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
		s, err = d.Order(ctx, f, by)
	}
	if s.ID != 0 {
		if rerr := d.db.RowOrdered(ctx, row.ID, &s.ID, apperr.Text{}); rerr != nil {
			d.log.Warn("batch row: record order", "row", row.ID, "err", rerr)
		}
		return
	}
	why := apperr.TextOf(err)
	if why.IsZero() || apperr.CodeOf(err) == apperr.Internal {
		d.log.Warn("batch row: order", "row", row.ID, "err", err)
		why = apperr.Msg("batch.err.order_failed")
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
	if len(parts) > 0 {
		why = apperr.Join(append([]apperr.Text{why}, parts...)...)
	}
	if rerr := d.db.RowOrdered(ctx, row.ID, nil, why); rerr != nil {
		d.log.Warn("batch row: record failure", "row", row.ID, "err", rerr)
	}
}
