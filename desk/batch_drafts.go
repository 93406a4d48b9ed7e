package desk

import (
	"context"

	"shipdesk/apperr"
	"shipdesk/storage"
)

// SendBatchDrafts sends a batch's ready and priced rows as drafts to the
// service's shipment manager instead of ordering them, each once.
func (d *Desk) SendBatchDrafts(ctx context.Context, batch int64, by int64) (sent int, err error) {
	b, err := d.db.BatchByID(ctx, batch)
	if err != nil {
		return 0, err
	}
	rows, err := d.db.TakeDrafts(ctx, batch)
	if err != nil {
		return 0, err
	}
	for _, row := range rows {
		r := ReadBatchRow(row)
		f, _, err := d.rowForm(ctx, b, row.RequestKey, r.Order, d.freshReads())
		if chosen, ok := r.Chosen(); ok {
			f.take(chosen.Offer)
		}
		var draft storage.Draft
		if err == nil {
			draft, err = d.SendDraft(ctx, f, by)
		}
		if err != nil {
			why := apperr.TextOf(err)
			if why.IsZero() || apperr.CodeOf(err) == apperr.Internal {
				d.log.Warn("batch row: draft", "row", row.ID, "err", err)
				why = apperr.Msg("batch.err.draft_failed")
			}
			if rerr := d.db.RowDrafted(ctx, row.ID, nil, why); rerr != nil {
				return sent, rerr
			}
			continue
		}
		if err := d.db.RowDrafted(ctx, row.ID, &draft.ID, apperr.Text{}); err != nil {
			return sent, err
		}
		sent++
	}
	return sent, nil
}
