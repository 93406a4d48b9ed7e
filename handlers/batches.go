package handlers

import (
	"context"
	"net/http"
	"time"

	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/orderfile"
	"shipdesk/storage"
	"shipdesk/views"
)

// batchDesk is what the batch pages ask of the desk.
type batchDesk interface {
	ImportBatch(ctx context.Context, in desk.BatchImport, by int64) (desk.ImportResult, error)
	ImportMapped(ctx context.Context, upload int64, m orderfile.Mapping, handover string, by int64) (desk.ImportResult, error)
	KeptMappings(ctx context.Context) ([]string, error)
	EditRow(ctx context.Context, batch, id int64, cells map[orderfile.Field]string) (desk.BatchRow, error)
	NewParcel(ctx context.Context, batch, id int64, reference string) (desk.BatchRow, error)
	SuggestReference(ctx context.Context, reference string) string
	RowPointsOf(ctx context.Context, r desk.BatchRow, wanted string) (desk.RowPoints, error)
	PriceBatch(ctx context.Context, batch int64) (int, error)
	OrderBatch(ctx context.Context, batch int64) (int, error)
	ChooseRowOffer(ctx context.Context, batch, id int64, choice string) error
	BatchLive(ctx context.Context, batch int64, loc *time.Location) (desk.BatchLive, error)
	SendBatchDrafts(ctx context.Context, batch int64, by int64) (int, error)
	BatchHandovers(ctx context.Context, batch int64, loc *time.Location) ([]desk.Handover, error)
	BatchLabelFree(ctx context.Context, batch int64) ([]desk.LabelFreeParcel, error)
}

// batchReads are the batch tables the pages read.
type batchReads interface {
	Batches(ctx context.Context, limit int) ([]storage.Batch, error)
	BatchByID(ctx context.Context, id int64) (storage.Batch, error)
	EachBatchRow(ctx context.Context, batch, open int64, fn func(storage.BatchRow) error) error
	Draftable(ctx context.Context, batch int64) (int, error)
	BatchRow(ctx context.Context, batch, id int64) (storage.BatchRow, error)
	BatchShipmentIDs(ctx context.Context, batch int64) ([]int64, error)
	ShipmentsByID(ctx context.Context, ids []int64) ([]storage.Shipment, error)
}

// uploadLimit is the largest post of the import form: the file's limit and a
// little for the form around it.
const uploadLimit = orderfile.MaxBytes + 64<<10

// batchesShown is how many batches the list shows.
const batchesShown = 100

func (h *Handlers) batchTitle(ctx context.Context, b storage.Batch) string {
	return i18n.T(ctx, "batch.title", i18n.DateTime(ctx, b.CreatedAt))
}

// counts are a batch's rows by state in words, in the states' order.
func counts(ctx context.Context, c map[string]int) []views.BatchCount {
	var out []views.BatchCount
	for _, s := range storage.RowStates {
		if n := c[s]; n > 0 {
			out = append(out, views.BatchCount{State: s, N: n, Text: i18n.T(ctx, "batch.count", i18n.T(ctx, "batch.state."+s), n)})
		}
	}
	return out
}

// Batches lists the imported batches.
func (h *Handlers) Batches(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	list, err := h.ShipReads.Batches(ctx, batchesShown)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	var v views.BatchList
	for _, b := range list {
		v.Rows = append(v.Rows, views.BatchListRow{ID: b.ID, Created: i18n.DateTime(ctx, b.CreatedAt), CreatedAt: b.CreatedAt.UTC().Format(time.RFC3339),
			By: b.ByName, Source: sourceName(ctx, b.Source), File: b.FileName, Rows: b.Rows, Counts: counts(ctx, b.Counts)})
	}
	h.render(w, r, http.StatusOK, views.BatchesPage(h.page(w, r, i18n.T(ctx, "batches.title"), identity.Shipping), v))
}

func sourceName(ctx context.Context, s string) string {
	if s == orderfile.TemplateSource {
		return i18n.T(ctx, "batches.source.template")
	}
	return s
}
