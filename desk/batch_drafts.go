package desk

import (
	"context"
	"encoding/json"
	"slices"
	"time"

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
	rows, err := d.db.ClaimDrafts(ctx, batch)
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

// BatchHandovers are the hand-over protocols of a batch's shipments: one per
// carrier and place, as the day's protocols have them, with only the
// batch's parcels.
func (d *Desk) BatchHandovers(ctx context.Context, batch int64, loc *time.Location) ([]Handover, error) {
	ids, list, err := d.batchShipments(ctx, batch)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	days := map[string]time.Time{}
	for _, s := range list {
		day := s.CreatedAt.In(loc)
		var order struct {
			Shipments []struct {
				PickupDate string `json:"pickup_date"`
			} `json:"shipments"`
		}
		if json.Unmarshal(s.Request, &order) == nil && len(order.Shipments) > 0 && order.Shipments[0].PickupDate != "" {
			if t, err := time.ParseInLocation(time.DateOnly, order.Shipments[0].PickupDate, loc); err == nil {
				day = t
			}
		}
		days[day.Format(time.DateOnly)] = day
	}
	keys := make([]string, 0, len(days))
	for k := range days {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []Handover
	for _, k := range keys {
		hos, err := d.Handovers(ctx, days[k])
		if err != nil {
			return nil, err
		}
		for _, ho := range hos {
			ho.Parcels = slices.DeleteFunc(ho.Parcels, func(p Parcel) bool { return !slices.Contains(ids, p.ID) })
			if len(ho.Parcels) > 0 {
				out = append(out, ho)
			}
		}
	}
	return out, nil
}
