package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/clock"
	"shipdesk/desk"
	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/printout"
	"shipdesk/storage"
	"shipdesk/views"
)

// printing is what labels, the print queue and the hand-over protocols ask of the desk.
type printing interface {
	Label(ctx context.Context, id int64) ([]byte, error)
	PrintLabels(ctx context.Context, w io.Writer, p desk.Print, by int64) (storage.PrintBatch, error)
	Reprint(ctx context.Context, w io.Writer, batch int64, f printout.Format, start int, by int64) (storage.PrintBatch, error)
	Handovers(ctx context.Context, day time.Time) ([]desk.Handover, error)
	HandoversOf(ctx context.Context, ids []int64, day time.Time) ([]desk.Handover, error)
}

// printReads are the lists of the print queue.
type printReads interface {
	PrintLive(ctx context.Context) (ready, making []storage.Shipment, err error)
	RecentPrintBatches(ctx context.Context, limit int) ([]storage.PrintBatch, error)
	PrintBatchByID(ctx context.Context, id int64) (storage.PrintBatch, error)
}

// lastBatches is how many prints the queue offers again.
const lastBatches = 10

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

func pdfHeaders(w http.ResponseWriter, name string) {
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", name))
	w.Header().Set("Cache-Control", "no-store")
}

func servePDF(w http.ResponseWriter, name string, pdf []byte) {
	pdfHeaders(w, name)
	_, _ = w.Write(pdf)
}

// pdfStream sends a PDF while it is being made: the headers go out with its
// first bytes, so a failure before them can still be an error page.
type pdfStream struct {
	w       http.ResponseWriter
	name    string
	started bool
}

func (p *pdfStream) Write(b []byte) (int, error) {
	if !p.started {
		p.started = true
		pdfHeaders(p.w, p.name)
		p.w.WriteHeader(http.StatusOK)
	}
	return p.w.Write(b)
}

// streamLabels runs a print onto the response. A batch of hundreds of labels
// takes longer than a page: the write deadline is moved for it. When the
// print fails after its first bytes went out, the connection is cut, so the
// browser shows a failed download rather than a short PDF.
func (h *Handlers) streamLabels(w http.ResponseWriter, r *http.Request, run func(io.Writer) error) {
	h.streamLabelsOr(w, r, run, func(err error) {
		h.renderPrintQueue(w, r, statusOf(apperr.CodeOf(err)), views.Form{Message: apperr.MessageOf(r.Context(), err, "")})
	})
}

// streamLabelsOr is streamLabels with its own page for an expected failure
// before the PDF's first bytes.
func (h *Handlers) streamLabelsOr(w http.ResponseWriter, r *http.Request, run func(io.Writer) error, fail func(error)) {
	_ = http.NewResponseController(w).SetWriteDeadline(clock.Deadline(15 * time.Minute))
	out := &pdfStream{w: w, name: fmt.Sprintf("labels-%s.pdf", h.now().In(i18n.ZoneOf(r.Context())).Format("20060102-150405"))}
	err := run(out)
	switch {
	case err == nil:
	case out.started:
		h.Log.Error("label PDF cut short", "err", err, "request_id", httpx.RequestID(r.Context()))
		panic(http.ErrAbortHandler)
	case apperr.CodeOf(err) == apperr.Internal:
		h.Fail(w, r, err)
	default:
		fail(err)
	}
}

// PrintQueue lists the labels ready to print and those being made, the
// paper, and the last prints.
func (h *Handlers) PrintQueue(w http.ResponseWriter, r *http.Request) {
	h.renderPrintQueue(w, r, http.StatusOK, views.Form{})
}

func (h *Handlers) renderPrintQueue(w http.ResponseWriter, r *http.Request, status int, f views.Form) {
	ctx := r.Context()
	live, err := h.printLive(ctx, r.PostForm)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	batches, err := h.ShipReads.RecentPrintBatches(ctx, lastBatches)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	q := views.PrintQueue{Live: live, Format: string(printout.A6), Start: 1, Form: f}
	for _, fm := range printout.Formats {
		q.Formats = append(q.Formats, string(fm))
	}
	if len(batches) > 0 { // the paper of the last print is likely the paper in the printer
		q.Format = batches[0].Format
	}
	if fm, ok := printout.ParseFormat(r.PostFormValue("format")); ok {
		q.Format = string(fm)
	}
	if n, err := strconv.Atoi(r.PostFormValue("start")); err == nil && n >= 1 && n <= 4 {
		q.Start = n
	}
	for _, b := range batches {
		row := views.PrintBatchRow{ID: b.ID, Printed: i18n.DateTime(ctx, b.PrintedAt), PrintedAt: b.PrintedAt.UTC().Format(time.RFC3339),
			By: b.PrintedByName, Shipments: len(b.ShipmentIDs), Labels: b.Labels, Format: b.Format, Start: b.StartAt}
		if b.ReprintOf != nil {
			row.ReprintOf = *b.ReprintOf
		}
		q.Batches = append(q.Batches, row)
	}
	if len(q.Batches) > 0 {
		q.Last = &q.Batches[0]
	}
	h.render(w, r, status, views.PrintQueuePage(h.page(w, r, i18n.T(ctx, "ship.print_queue"), identity.Shipping), q))
}

// PrintQueueLive is the part of the print queue that refreshes itself. The
// page sends its form along: the ticks are kept, a label that has just
// arrived comes ticked (as the whole queue does when the page opens), and an
// unchanged list is answered with 204, which htmx leaves alone.
func (h *Handlers) PrintQueueLive(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	live, err := h.printLive(r.Context(), q)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if v := q.Get("v"); v != "" && v == live.Version {
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	h.render(w, r, http.StatusOK, views.PrintLiveList(live))
}

// printLive reads the queue's lists; form holds the ticks the page had
// (ids) among the labels it showed (shown). Without them every label is
// ticked. Values that are no ids are ignored: they only tick nothing.
func (h *Handlers) printLive(ctx context.Context, form url.Values) (views.PrintLive, error) {
	ready, making, err := h.ShipReads.PrintLive(ctx)
	if err != nil {
		return views.PrintLive{}, err
	}
	ticked, _ := formIDs(form["ids"])
	shown, _ := formIDs(form["shown"])
	version := sha256.New()
	var l views.PrintLive
	now := h.now()
	names := h.carrierNames(ctx)
	// The version covers each row's age too, so the ages the queue shows
	// stay true while nothing else changes.
	for _, s := range ready {
		row := views.PrintRow{ShipmentRow: shipmentRow(ctx, s, names)}
		aged(ctx, &row.ShipmentRow, s, now)
		row.Selected = slices.Contains(ticked, s.ID) || !slices.Contains(shown, s.ID)
		l.Ready = append(l.Ready, row)
		fmt.Fprintf(version, "r%d:%s,", s.ID, row.Age)
	}
	for _, s := range making {
		row := shipmentRow(ctx, s, names)
		aged(ctx, &row, s, now)
		l.Making = append(l.Making, row)
		fmt.Fprintf(version, "m%d:%s,", s.ID, row.Age)
	}
	l.Version = hex.EncodeToString(version.Sum(nil))[:16]
	return l, nil
}

// formIDs reads the ids a form ticked, at most desk.MaxPrint of them,
// each once; ok is false when a value is no id or there are too many.
func formIDs(values []string) ([]int64, bool) {
	var ids []int64
	ok := len(values) <= desk.MaxPrint
	for _, s := range values {
		id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil || id <= 0 {
			ok = false
			continue
		}
		if len(ids) < desk.MaxPrint && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, ok
}

// paper reads the paper of a print: the format (A6 when none is sent) and
// the first position on an A4 sheet (1 when none is sent). What is sent
// must be one of those offered.
func paper(ctx context.Context, form url.Values) (printout.Format, int, string) {
	f := printout.A6
	if s, sent := form["format"]; sent {
		var ok bool
		if f, ok = printout.ParseFormat(s[0]); !ok || len(s) > 1 {
			return "", 0, i18n.T(ctx, "print.bad_format")
		}
	}
	start := 1
	if s, sent := form["start"]; sent {
		n, err := strconv.Atoi(strings.TrimSpace(s[0]))
		if err != nil || n < 1 || n > 4 || len(s) > 1 {
			return "", 0, i18n.T(ctx, "print.bad_start")
		}
		start = n
	}
	if f != printout.A4 {
		start = 1 // one label per page: no position
	}
	return f, start, ""
}

// PrintSelected writes one PDF of the ticked labels on the paper chosen,
// records the print and takes the labels out of the queue.
func (h *Handlers) PrintSelected(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	ctx := r.Context()
	f, start, problem := paper(ctx, r.PostForm)
	ids, ok := formIDs(r.PostForm["ids"])
	switch {
	case problem != "":
	case len(r.PostForm["ids"]) > desk.MaxPrint:
		problem = i18n.T(ctx, "print.too_many", desk.MaxPrint)
	case !ok:
		problem = i18n.T(ctx, "print.bad_ids")
	case len(ids) == 0:
		problem = i18n.T(ctx, "print.select_some")
	}
	if problem != "" {
		h.renderPrintQueue(w, r, http.StatusUnprocessableEntity, views.Form{Message: problem})
		return
	}
	h.streamLabels(w, r, func(out io.Writer) error {
		_, err := h.ShipDesk.PrintLabels(ctx, out, desk.Print{IDs: ids, Format: f, Start: start}, h.userID(r))
		return err
	})
}

// Reprint prints one of the last prints again, on the paper chosen.
func (h *Handlers) Reprint(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, ok := pathID(r)
	if ok {
		_, err := h.ShipReads.PrintBatchByID(ctx, id)
		if err != nil && !apperr.Is(err, apperr.NotFound) {
			h.Fail(w, r, err)
			return
		}
		ok = err == nil
	}
	if !ok {
		h.ErrorStatus(w, r, http.StatusNotFound, i18n.T(ctx, "print.no_batch"))
		return
	}
	if !h.readForm(w, r) {
		return
	}
	f, start, problem := paper(ctx, r.PostForm)
	if problem != "" {
		h.renderPrintQueue(w, r, http.StatusUnprocessableEntity, views.Form{Message: problem})
		return
	}
	h.streamLabels(w, r, func(out io.Writer) error {
		_, err := h.ShipDesk.Reprint(ctx, out, id, f, start, h.userID(r))
		return err
	})
}

// handoverDay reads the day of the protocols (today when none is given) in
// the shop's zone; ok is false when what was given is no date.
func (h *Handlers) handoverDay(r *http.Request) (time.Time, bool) {
	loc := i18n.ZoneOf(r.Context())
	today := h.now().In(loc)
	s := strings.TrimSpace(r.URL.Query().Get("date"))
	if s == "" {
		return today, true
	}
	day, err := time.ParseInLocation(time.DateOnly, s, loc)
	if err != nil {
		return today, false
	}
	return day, true
}

// Manifest shows a day's hand-over protocols: one per carrier and place.
func (h *Handlers) Manifest(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	day, ok := h.handoverDay(r)
	list, err := h.ShipDesk.Handovers(ctx, day)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := views.Handovers{Day: day.Format(time.DateOnly), DayText: i18n.Date(ctx, day)}
	status := http.StatusOK
	if !ok {
		v.Form.Message = i18n.T(ctx, "handover.bad_date")
		status = http.StatusUnprocessableEntity
	}
	for _, ho := range list {
		v.Protocols = append(v.Protocols, protocolView(ctx, ho))
		v.Shipments += len(ho.Parcels)
	}
	h.render(w, r, status, views.HandoversPage(h.page(w, r, i18n.T(ctx, "handover.title"), identity.Shipping), v))
}

// ManifestPDF serves a day's hand-over protocols as one PDF, each from a new
// page; with carrier, only that carrier's.
func (h *Handlers) ManifestPDF(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	day, ok := h.handoverDay(r)
	if !ok {
		h.ErrorStatus(w, r, http.StatusUnprocessableEntity, i18n.T(ctx, "handover.bad_date"))
		return
	}
	list, err := h.ShipDesk.Handovers(ctx, day)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	name := "handover-" + day.Format(time.DateOnly)
	if carrier := r.URL.Query().Get("carrier"); carrier != "" {
		list = slices.DeleteFunc(list, func(ho desk.Handover) bool { return ho.Carrier != carrier })
		if len(list) == 0 {
			h.ErrorStatus(w, r, http.StatusNotFound, i18n.T(ctx, "handover.no_carrier", i18n.Date(ctx, day)))
			return
		}
		name += "-" + strings.ToLower(list[0].Carrier)
	}
	if len(list) == 0 {
		h.ErrorStatus(w, r, http.StatusNotFound, i18n.T(ctx, "handover.none", i18n.Date(ctx, day)))
		return
	}
	h.serveProtocols(w, r, list, name)
}

// serveProtocols draws hand-over protocols as one PDF, each from a new page.
func (h *Handlers) serveProtocols(w http.ResponseWriter, r *http.Request, list []desk.Handover, name string) {
	ctx := r.Context()
	printed := i18n.DateTime(ctx, h.now())
	protocols := make([]printout.Protocol, 0, len(list))
	for _, ho := range list {
		v := protocolView(ctx, ho)
		p := printout.Protocol{Carrier: v.CarrierName, Pickup: v.Pickup, Place: v.Place, Count: v.Count,
			Packages: v.Packages, CODTotal: v.CODTotal, Printed: printed}
		for _, row := range v.Parcels {
			p.Parcels = append(p.Parcels, printout.ProtocolParcel{Tracking: row.Tracking, Recipient: row.Recipient,
				Town: row.Town, Packages: row.Packages, COD: row.COD})
		}
		protocols = append(protocols, p)
	}
	var buf strings.Builder
	if err := printout.Protocols(ctx, &buf, protocols); err != nil {
		h.Fail(w, r, fmt.Errorf("draw hand-over protocols: %w", err))
		return
	}
	servePDF(w, name+".pdf", []byte(buf.String()))
}

// protocolView is a hand-over protocol in the request's language.
func protocolView(ctx context.Context, ho desk.Handover) views.ProtocolView {
	v := views.ProtocolView{Carrier: ho.Carrier, CarrierName: ho.CarrierName, Pickup: i18n.Date(ctx, ho.Day),
		Place: placeLines(ho.Sender), Packages: i18n.Int(ctx, int64(ho.Packages()))}
	v.Count = i18n.T(ctx, "handover.count_text", i18n.N(ctx, "handover.parcels", len(ho.Parcels)), i18n.N(ctx, "handover.packages", ho.Packages()))
	cod := map[string]float64{}
	var currencies []string
	for _, p := range ho.Parcels {
		row := views.ParcelRow{ID: p.ID, Tracking: p.Tracking, Recipient: p.Recipient, Town: p.City, Packages: i18n.Int(ctx, int64(p.Packages))}
		if p.COD != nil {
			row.COD = i18n.Money(ctx, p.COD.Value, p.COD.Currency)
			if _, seen := cod[p.COD.Currency]; !seen {
				currencies = append(currencies, p.COD.Currency)
			}
			cod[p.COD.Currency] += p.COD.Value
		}
		v.Parcels = append(v.Parcels, row)
	}
	var totals []string
	for _, c := range currencies {
		totals = append(totals, i18n.Money(ctx, cod[c], c))
	}
	v.CODTotal = strings.Join(totals, ", ")
	return v
}

// placeLines is the sender's address as a protocol shows it: the name, the
// street, the postcode and town, the country.
func placeLines(a desk.Address) []string {
	var out []string
	name := strings.TrimSpace(a.Firstname + " " + a.Surname)
	for _, line := range []string{a.Company, name, a.Street, strings.TrimSpace(a.Zip + " " + a.City), a.Country} {
		if line = strings.TrimSpace(line); line != "" && !slices.Contains(out, line) {
			out = append(out, line)
		}
	}
	return out
}
