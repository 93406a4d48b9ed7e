package desk

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"time"

	"shipdesk/storage"
)

// BatchLive is what a batch page's live part shows: the batch with its
// counts, whether some label is ready to print, how many shipments go on
// the sheet of label-free codes, how many labels are still being made, and
// the batch's hand-over protocols once a label is ready.
type BatchLive struct {
	Batch     storage.Batch
	Labels    bool
	Codes     int
	Pending   int
	Protocols []Handover
}

// BatchLive reads a batch's live part in one statement: the page asks every
// few seconds. Queued rows nobody works on (after a restart) get a worker
// at once, before the pollers' upkeep (ResumeBatches) would come to them.
func (d *Desk) BatchLive(ctx context.Context, batch int64, loc *time.Location) (BatchLive, error) {
	l, err := d.db.BatchLive(ctx, batch, d.staleLease(d.now()))
	if err != nil {
		return BatchLive{}, err
	}
	if l.Unleased {
		d.startBatch(batch)
	}
	out := BatchLive{Batch: l.Batch}
	names := map[string]string{}
	byContact := map[int64]Address{}
	list := make([]storage.Shipment, 0, len(l.Shipments))
	for _, s := range l.Shipments {
		out.Labels = out.Labels || LabelReady(s.Shipment)
		if OnCodeSheet(s.Shipment) {
			out.Codes++
		}
		if NeedsRefresh(s.Shipment) {
			out.Pending++
		}
		if s.CarrierName != "" {
			names[s.Carrier] = s.CarrierName
		}
		if s.SenderContact != nil {
			byContact[*s.SenderContact] = AddressOf(s.Sender)
		}
		list = append(list, s.Shipment)
	}
	if out.Labels {
		out.Protocols = d.batchProtocols(list, loc, parties{names: names, byContact: byContact})
	}
	return out, nil
}

// BatchHandovers are the hand-over protocols of a batch's shipments: one per
// day, carrier and place, as the day's protocols have them, with only the
// batch's parcels.
func (d *Desk) BatchHandovers(ctx context.Context, batch int64, loc *time.Location) ([]Handover, error) {
	_, list, err := d.batchShipments(ctx, batch)
	if err != nil || len(list) == 0 {
		return nil, err
	}
	p, err := d.protocolParties(ctx, list)
	if err != nil {
		return nil, err
	}
	return d.batchProtocols(list, loc, p), nil
}

// batchProtocols groups a batch's shipments into the day's protocols they
// are on (the days in order), leaving out those no day's protocol lists
// (HandoverShipments): not ordered, cancelled, or with a pickup day that
// cannot be read.
func (d *Desk) batchProtocols(list []storage.Shipment, loc *time.Location, p parties) []Handover {
	byDay := map[string][]storage.Shipment{}
	starts := map[string]time.Time{}
	for _, s := range list {
		if s.State != storage.StateCreated || Cancelled(s) {
			continue
		}
		day, ok := protocolDay(s, loc)
		if !ok {
			continue
		}
		k := day.Format(time.DateOnly)
		byDay[k] = append(byDay[k], s)
		starts[k] = time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, loc)
	}
	keys := make([]string, 0, len(byDay))
	for k := range byDay {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []Handover
	for _, k := range keys {
		day := byDay[k]
		slices.SortStableFunc(day, func(a, b storage.Shipment) int { return cmp.Compare(a.ID, b.ID) })
		out = append(out, d.groupHandovers(day, starts[k], p)...)
	}
	return out
}

// protocolDay is the day a shipment is handed over on: the pickup day it was
// ordered with, or without one the day it was ordered. ok is false when its
// pickup day cannot be read.
func protocolDay(s storage.Shipment, loc *time.Location) (day time.Time, ok bool) {
	var order struct {
		Shipments []struct {
			PickupDate string `json:"pickup_date"`
		} `json:"shipments"`
	}
	if json.Unmarshal(s.Request, &order) != nil || len(order.Shipments) == 0 || order.Shipments[0].PickupDate == "" {
		return s.CreatedAt.In(loc), true
	}
	t, err := time.ParseInLocation(time.DateOnly, order.Shipments[0].PickupDate, loc)
	return t, err == nil
}
