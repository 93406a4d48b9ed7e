package handlers

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/views"
)

// ExportCSV streams the filtered list as CSV, any size, one row at a time, in
// the person's language, every state and label in words as the list says
// them: in Czech with a byte-order mark (so a spreadsheet
// reads UTF-8), ";" between cells, decimal commas and local times; in English
// with "," and decimal points.
func (h *Handlers) ExportCSV(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	f, _, errs := parseListQuery(ctx, r.URL.Query())
	if len(errs) > 0 {
		h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(ctx, "trk.csv.bad_filter"))
		return
	}
	h.writeShipmentsCSV(w, r, func(fn func(*storage.ExportRow) error) error { return h.ShipReads.ExportShipments(ctx, f, fn) })
}

// csvFlushRows is how many rows of an export go to the client at once.
const csvFlushRows = 1000

// writeShipmentsCSV streams the shipments each gives as the list's CSV, in
// the request's language (see ExportCSV): each row is put together in one
// line buffer as it comes from the database and written into the download's
// buffer, which goes out every csvFlushRows rows; the export's memory does
// not grow with its size.
func (h *Handlers) writeShipmentsCSV(w http.ResponseWriter, r *http.Request, each func(func(*storage.ExportRow) error) error) {
	ctx := r.Context()
	out := startCSV(ctx, w, fmt.Sprintf("shipments-%s.csv", h.now().In(i18n.ZoneOf(ctx)).Format("20060102-1504")))
	line := out.newLine()
	for _, c := range csvColumns {
		line.text(i18n.T(ctx, "trk.csv."+c))
	}
	_, _ = out.buf.Write(line.end())
	yes, no := i18n.T(ctx, "trk.csv.yes"), i18n.T(ctx, "trk.csv.no")
	// when writes a time in the shop's zone: as pages do in Czech, RFC 3339
	// (with the zone's offset) in English; none: nothing.
	zone := i18n.ZoneOf(ctx)
	when := func(t time.Time) {
		line.open()
		switch {
		case t.IsZero():
		case out.czech:
			line.buf = i18n.AppendDateTime(ctx, line.buf, t)
		default:
			line.buf = t.In(zone).AppendFormat(line.buf, time.RFC3339)
		}
	}
	flusher, _ := w.(http.Flusher)
	names := h.carrierNames(ctx)
	n := 0
	err := each(func(s *storage.ExportRow) error {
		label, codeOnly := desk.ExportLabel(*s)
		line.start()
		line.open()
		line.buf = strconv.AppendInt(line.buf, s.ID, 10)
		when(s.CreatedAt)
		line.text(s.Reference)
		line.text(s.TrackingNumber)
		line.text(s.RecipientName)
		line.text(s.RecipientCity)
		line.text(names.of(s.Carrier))
		line.text(s.ServiceName)
		line.text(views.ShipmentStateWords(ctx, s.State, s.Status))
		line.text(views.LabelModeText(ctx, s.LabelMode))
		line.text(views.LabelState(ctx, label, codeOnly))
		returned := no
		if s.Returned {
			returned = yes
		}
		line.text(returned)
		line.open()
		if s.CODCurrency != "" {
			line.buf = out.appendDecimal(line.buf, s.CODValue)
		}
		line.text(s.CODCurrency)
		when(s.DeliveredAt)
		when(s.LastCheckedAt)
		line.text(s.Origin)
		if _, err := out.buf.Write(line.end()); err != nil {
			return err // the client went away
		}
		if n++; n%csvFlushRows == 0 {
			if err := out.buf.Flush(); err != nil {
				return err
			}
			if flusher != nil {
				flusher.Flush()
			}
		}
		return nil
	})
	_ = out.buf.Flush()
	if err != nil && ctx.Err() == nil {
		// The header is out: the truncated file must not pass as complete.
		h.Log.Error("csv export", "err", err)
		_, _ = fmt.Fprintf(w, "\n# export stopped: %s\n", i18n.T(ctx, "trk.csv.stopped"))
	}
}

// csvColumns are the export's columns; their headers are in the catalog as
// trk.csv.<column>.
var csvColumns = []string{"id", "created", "reference", "tracking_number", "recipient", "town", "carrier", "service",
	"state", "label_mode", "label_status", "returned", "cod", "cod_currency", "delivered", "last_checked", "origin"}
