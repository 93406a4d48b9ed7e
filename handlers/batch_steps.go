package handlers

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/printout"
)

// PriceBatch prices again the rows waiting for it.
func (h *Handlers) PriceBatch(w http.ResponseWriter, r *http.Request) {
	h.batchStep(w, r, "batch.pricing_started", func(ctx context.Context, id int64) (int, error) { return h.ShipDesk.PriceBatch(ctx, id) })
}

// OrderBatch orders every priced row of the batch.
func (h *Handlers) OrderBatch(w http.ResponseWriter, r *http.Request) {
	h.batchStep(w, r, "batch.ordering_started", func(ctx context.Context, id int64) (int, error) { return h.ShipDesk.OrderBatch(ctx, id) })
}

// BatchDrafts sends the batch's ready rows as drafts instead.
func (h *Handlers) BatchDrafts(w http.ResponseWriter, r *http.Request) {
	h.batchStep(w, r, "batch.drafts_sent", func(ctx context.Context, id int64) (int, error) {
		return h.ShipDesk.SendBatchDrafts(ctx, id, h.userID(r))
	})
}

// batchStep runs one step over the batch the path names and goes back to its
// page, saying how many rows the step took (done: a plural key).
func (h *Handlers) batchStep(w http.ResponseWriter, r *http.Request, done string, step func(context.Context, int64) (int, error)) {
	b, ok := h.batchOf(w, r)
	if !ok {
		return
	}
	n, err := step(r.Context(), b.ID)
	h.finish(w, r, err, i18n.N(r.Context(), done, n), "/shipping/batches/"+strconv.FormatInt(b.ID, 10))
}

// BatchLabels writes one PDF of every label of the batch.
func (h *Handlers) BatchLabels(w http.ResponseWriter, r *http.Request) {
	b, ok := h.batchOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	f, start, problem := paper(ctx, r.URL.Query())
	if problem != "" {
		h.ErrorStatus(w, r, http.StatusUnprocessableEntity, problem)
		return
	}
	ids, err := h.ShipReads.BatchShipmentIDs(ctx, b.ID)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if len(ids) == 0 {
		h.ErrorStatus(w, r, http.StatusConflict, i18n.T(ctx, "batch.err.no_labels"))
		return
	}
	ids = ids[:min(len(ids), desk.MaxPrint)]
	h.streamLabelsOr(w, r, func(out io.Writer) error {
		_, err := h.ShipDesk.PrintLabels(ctx, out, desk.Print{IDs: ids, Format: f, Start: start}, h.userID(r))
		return err
	}, func(err error) {
		h.ErrorStatus(w, r, statusOf(apperr.CodeOf(err)), apperr.MessageOf(ctx, err, ""))
	})
}

// BatchHandover serves the hand-over protocols of the batch's parcels; with
// carrier, only that carrier's.
func (h *Handlers) BatchHandover(w http.ResponseWriter, r *http.Request) {
	b, ok := h.batchOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	list, err := h.ShipDesk.BatchHandovers(ctx, b.ID, i18n.ZoneOf(ctx))
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	name := "handover-batch-" + strconv.FormatInt(b.ID, 10)
	if carrier := r.URL.Query().Get("carrier"); carrier != "" {
		list = slices.DeleteFunc(list, func(ho desk.Handover) bool { return ho.Carrier != carrier })
		if len(list) > 0 {
			name += "-" + strings.ToLower(list[0].Carrier)
		}
	}
	if len(list) == 0 {
		h.ErrorStatus(w, r, http.StatusNotFound, i18n.T(ctx, "batch.err.no_protocols"))
		return
	}
	h.serveProtocols(w, r, list, name)
}

// BatchCodes serves one sheet of the codes of the batch's label-free
// shipments: what the clerk shows at the carrier's point instead of a label.
func (h *Handlers) BatchCodes(w http.ResponseWriter, r *http.Request) {
	b, ok := h.batchOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	list, err := h.ShipDesk.BatchLabelFree(ctx, b.ID)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if len(list) == 0 {
		h.ErrorStatus(w, r, http.StatusNotFound, i18n.T(ctx, "batch.err.no_label_free"))
		return
	}
	sheet := printout.CodeSheet{Title: i18n.T(ctx, "codes.title", h.batchTitle(ctx, b)), Lead: i18n.T(ctx, "codes.lead"),
		Printed: i18n.T(ctx, "handover.printed", i18n.DateTime(ctx, h.now()))}
	for _, p := range list {
		row := printout.CodeRow{Reference: p.Reference, Recipient: p.Recipient, Town: p.City, Carrier: p.CarrierName, Tracking: p.Tracking,
			NoCode: i18n.T(ctx, "codes.not_yet")}
		if len(p.Codes) == 0 {
			sheet.Rows = append(sheet.Rows, row)
		}
		for _, c := range p.Codes {
			row.Code = c
			sheet.Rows = append(sheet.Rows, row)
		}
	}
	var buf bytes.Buffer
	if err := printout.Codes(ctx, &buf, sheet); err != nil {
		h.Fail(w, r, fmt.Errorf("draw label-free codes of batch %d: %w", b.ID, err))
		return
	}
	servePDF(w, "codes-batch-"+strconv.FormatInt(b.ID, 10)+".pdf", buf.Bytes())
}
