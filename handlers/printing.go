package handlers

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/views"
)

// printing is what labels, the print queue and the hand-over protocol ask of the desk.
type printing interface {
	Label(ctx context.Context, id int64) ([]byte, error)
	PrintBatch(ctx context.Context, ids []int64) ([]byte, error)
	Manifest(ctx context.Context, day time.Time) ([]byte, int, error)
}

// printReads are the lists of the print queue and the hand-over protocol.
type printReads interface {
	PrintQueue(ctx context.Context) ([]storage.Shipment, error)
	ShipmentsOfDay(ctx context.Context, day time.Time) ([]storage.Shipment, error)
}

// Label serves the label PDF of a shipment for printing.
func (h *Handlers) Label(w http.ResponseWriter, r *http.Request) {
	id, ok := h.shipmentID(w, r)
	if !ok {
		return
	}
	pdf, err := h.ShipDesk.Label(r.Context(), id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	servePDF(w, fmt.Sprintf("label-%d.pdf", id), pdf)
}

func servePDF(w http.ResponseWriter, name string, pdf []byte) {
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", name))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(pdf)
}

// PrintQueue lists the labels ready to print.
func (h *Handlers) PrintQueue(w http.ResponseWriter, r *http.Request) {
	h.renderPrintQueue(w, r, http.StatusOK, views.Form{})
}

func (h *Handlers) renderPrintQueue(w http.ResponseWriter, r *http.Request, status int, f views.Form) {
	list, err := h.ShipReads.PrintQueue(r.Context())
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	h.render(w, r, status, views.PrintQueuePage(h.page(w, r, i18n.T(r.Context(), "ship.print_queue"), identity.Shipping), shipmentRows(r.Context(), list), f))
}

// PrintSelected serves one PDF with the selected labels and marks them printed.
func (h *Handlers) PrintSelected(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	var ids []int64
	for _, s := range r.PostForm["ids"] {
		if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 && len(ids) < 500 {
			ids = append(ids, id)
		}
	}
	pdf, err := h.ShipDesk.PrintBatch(r.Context(), ids)
	if err != nil {
		if apperr.CodeOf(err) == apperr.Internal {
			h.Fail(w, r, err)
			return
		}
		h.renderPrintQueue(w, r, statusOf(apperr.CodeOf(err)), views.Form{Message: apperr.MessageOf(r.Context(), err, "")})
		return
	}
	servePDF(w, fmt.Sprintf("labels-%s.pdf", time.Now().Format("20060102-1504")), pdf)
}

func manifestDay(r *http.Request) (time.Time, string) {
	day, err := time.ParseInLocation("2006-01-02", r.URL.Query().Get("date"), time.Local)
	if err != nil {
		day = time.Now()
	}
	return day, day.Format("2006-01-02")
}

// Manifest lists a day's shipments with the link to their hand-over protocol.
func (h *Handlers) Manifest(w http.ResponseWriter, r *http.Request) {
	day, text := manifestDay(r)
	list, err := h.ShipReads.ShipmentsOfDay(r.Context(), day)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, views.ManifestPage(h.page(w, r, i18n.T(r.Context(), "ship.manifest"), identity.Shipping), text, shipmentRows(r.Context(), list)))
}

// ManifestPDF serves the hand-over protocol of a day.
func (h *Handlers) ManifestPDF(w http.ResponseWriter, r *http.Request) {
	day, text := manifestDay(r)
	pdf, _, err := h.ShipDesk.Manifest(r.Context(), day)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	servePDF(w, "handover-"+text+".pdf", pdf)
}
