package handlers

import (
	"context"
	"net/http"

	"shipdesk/desk"
	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/printout"
	"shipdesk/storage"
	"shipdesk/views"
)

// A batch page's live part: its rows' work (priced, ordered), then the labels
// still being made, and its prints offered as soon as they exist. The
// progress asks for itself while either goes on and brings the prints out of
// band; the label poller makes the labels, the page only reads.

// batchLive reads a batch's progress and prints.
func (h *Handlers) batchLive(ctx context.Context, b storage.Batch) (views.BatchProgress, views.BatchPrints, error) {
	prints := views.BatchPrints{BatchID: b.ID}
	labels, codes, pending, err := h.batchPrints(ctx, b.ID)
	if err != nil {
		return views.BatchProgress{}, prints, err
	}
	prints.Labels = labels
	if codes > 0 {
		prints.Codes = i18n.N(ctx, "batch.codes_pdf", codes)
	}
	if labels {
		for _, fm := range printout.Formats {
			prints.Formats = append(prints.Formats, string(fm))
		}
		hos, err := h.ShipDesk.BatchHandovers(ctx, b.ID, i18n.ZoneOf(ctx))
		if err != nil {
			return views.BatchProgress{}, prints, err
		}
		for _, ho := range hos {
			prints.Protocols = append(prints.Protocols, views.BatchProtocol{Carrier: ho.Carrier, Name: ho.CarrierName,
				Count: i18n.N(ctx, "handover.parcels", len(ho.Parcels))})
		}
	}
	return progressOf(ctx, b, pending), prints, nil
}

// batchPrints says whether some shipment of the batch has a label to print,
// how many go on the sheet of label-free codes and how many labels are still
// being made, reading its shipments one at a time in one statement.
func (h *Handlers) batchPrints(ctx context.Context, batch int64) (labels bool, codes, pending int, err error) {
	err = h.ShipReads.EachBatchShipment(ctx, batch, func(s storage.Shipment) error {
		labels = labels || desk.LabelReady(s)
		if desk.OnCodeSheet(s) {
			codes++
		}
		if desk.NeedsRefresh(s) {
			pending++
		}
		return nil
	})
	return labels, codes, pending, err
}

func progressOf(ctx context.Context, b storage.Batch, pending int) views.BatchProgress {
	working := b.Counts[storage.RowPricing] + b.Counts[storage.RowOrdering]
	p := views.BatchProgress{BatchID: b.ID, Rows: working > 0, Working: working > 0 || pending > 0, Pending: pending,
		Total: b.Rows, Done: b.Rows - working, Counts: counts(ctx, b.Counts)}
	switch {
	case b.Counts[storage.RowOrdering] > 0:
		p.Text = i18n.T(ctx, "batch.progress.ordering", p.Done, p.Total)
	case working > 0:
		p.Text = i18n.T(ctx, "batch.progress.pricing", p.Done, p.Total)
	case pending > 0:
		p.Text = i18n.N(ctx, "live.batch.labels_pending", pending)
	default:
		p.Text = i18n.N(ctx, "batch.progress.done", p.Total)
	}
	return p
}

// BatchProgress is the live part of a batch page, with its prints. When the
// rows' work the page was waiting for is done, htmx reloads the page to show
// the rows; labels made later come with the prints, without a reload.
func (h *Handlers) BatchProgress(w http.ResponseWriter, r *http.Request) {
	b, ok := h.batchOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	if b.Counts[storage.RowPricing]+b.Counts[storage.RowOrdering] > 0 { // only queued rows can have lost their worker
		h.ShipDesk.ResumeBatch(ctx, b.ID)
	}
	p, prints, err := h.batchLive(ctx, b)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if !p.Rows && r.URL.Query().Get("working") == "1" && httpx.IsHTMX(r) {
		w.Header().Set("HX-Refresh", "true")
	}
	h.render(w, r, http.StatusOK, views.BatchLive(p, prints))
}
