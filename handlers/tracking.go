package handlers

import (
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
)

// trackingReads are the shipment list, its export, the scan box and the reports.
type trackingReads interface {
	ListShipments(ctx context.Context, f storage.ListFilter) (storage.ListPage, error)
	EachShipment(ctx context.Context, f storage.ListFilter, fn func(storage.Shipment) error) error
	Carriers(ctx context.Context) ([]storage.Carrier, error)
	Scan(ctx context.Context, code string, limit int) ([]storage.Shipment, bool, error)
	Report(ctx context.Context, from, to time.Time) (storage.Report, error)
}

// ParseListQuery reads the list's filter from the URL, so a view can be shared.
func ParseListQuery(q url.Values) (storage.ListFilter, map[string]string, map[string]string) {
	errs := map[string]string{}
	vals := queryValues(q, errs, "status", "carrier", "from", "to", "ref", "q", "sort", "after")
	f := storage.ListFilter{Status: strings.ToUpper(vals["status"]), Carrier: strings.ToUpper(vals["carrier"]), Reference: vals["ref"],
		Text: vals["q"], Sort: vals["sort"], After: vals["after"]}
	if f.Status != "" && !slices.Contains(storage.ListStatuses, f.Status) {
		errs["status"], f.Status = "Choose a status from the list.", ""
	}
	if f.Carrier != "" && !carrierCode.MatchString(f.Carrier) {
		errs["carrier"], f.Carrier = "Choose a carrier from the list.", ""
	}
	if f.Sort != "" && f.Sort != "new" && f.Sort != "old" && f.Sort != "recipient" {
		errs["sort"], f.Sort = "Choose an order from the list.", ""
	}
	f.From, f.To = dateRange(vals, errs)
	return f, vals, errs
}

// queryValues reads filter values from a URL, trimmed and cut to 100
// characters. A value that cannot be read is an error on its field and is ignored.
func queryValues(q url.Values, errs map[string]string, keys ...string) map[string]string {
	vals := map[string]string{}
	for _, k := range keys {
		v, problem := textin.Line(q.Get(k), 100)
		if textin.IsUnreadable(problem) {
			errs[k], v = problem, ""
		}
		vals[k] = v
	}
	return vals
}

// dateRange reads the "from" and "to" days of a filter; "to" includes its whole
// day. A date that cannot be read is an error on its field and is ignored.
func dateRange(vals, errs map[string]string) (from, to time.Time) {
	for _, k := range []string{"from", "to"} {
		if vals[k] == "" {
			continue
		}
		d, err := time.ParseInLocation("2006-01-02", vals[k], time.Local)
		switch {
		case err != nil:
			errs[k] = "Use the date picker (YYYY-MM-DD)."
		case k == "from":
			from = d
		default:
			to = d.AddDate(0, 0, 1)
		}
	}
	return from, to
}

// ShipmentList is the list of shipments with its filters, keyset-paged.
func (h *Handlers) ShipmentList(w http.ResponseWriter, r *http.Request) {
	f, vals, errs := ParseListQuery(r.URL.Query())
	page, err := h.ShipReads.ListShipments(r.Context(), f)
	all := views.Option{Value: "", Label: "All"}
	v := views.ListView{Filter: views.Form{Values: vals, Errors: errs}, Statuses: []views.Option{all}, Carriers: []views.Option{all},
		Sorts: []views.Option{{Value: "new", Label: "Newest first"}, {Value: "old", Label: "Oldest first"}, {Value: "recipient", Label: "Recipient A–Z"}}}
	if err != nil {
		if !apperr.Is(err, apperr.Invalid) {
			h.Fail(w, r, err)
			return
		}
		v.FilterErr = apperr.MessageOf(err, "")
	}
	for _, s := range storage.ListStatuses {
		v.Statuses = append(v.Statuses, views.Option{Value: s, Label: statusFilterText(s)})
	}
	carriers, cerr := h.ShipReads.Carriers(r.Context())
	if cerr != nil {
		h.Fail(w, r, cerr)
		return
	}
	for _, c := range carriers {
		v.Carriers = append(v.Carriers, views.Option{Value: c.Code, Label: cmp.Or(c.Name, c.Code)})
	}
	for _, s := range page.Shipments {
		row := views.ListRow{ShipmentRow: shipmentRow(s), City: s.RecipientCity, Returned: s.Returned, Origin: s.Origin}
		if s.LastCheckedAt != nil {
			row.LastChecked = views.FormatTime(*s.LastCheckedAt)
		}
		v.Rows = append(v.Rows, row)
	}
	var filter map[string]string
	filter, v.NextURL, v.FirstURL = pageLinks("/tracking", vals, page.Next)
	v.CSVURL = views.QueryURL("/tracking.csv", filter)
	h.render(w, r, http.StatusOK, views.ShipmentList(h.page(w, r, "Shipments", identity.Tracking), v))
}

func statusFilterText(s string) string {
	switch s {
	case "OPEN":
		return "Open (not yet with the carrier)"
	case "ACTIVE":
		return "Active (on the way)"
	case "DELIVERED":
		return "Delivered"
	case "STORNO":
		return "Cancelled (storno)"
	case "LABEL_FAILED":
		return "Label failed"
	case "UNKNOWN":
		return "Unknown outcome"
	case "DUPLICATE":
		return "Ordered twice at the service"
	}
	return s
}

// ExportCSV streams the filtered list as CSV, any size, one row at a time.
func (h *Handlers) ExportCSV(w http.ResponseWriter, r *http.Request) {
	f, _, errs := ParseListQuery(r.URL.Query())
	if len(errs) > 0 {
		h.ErrorStatus(w, r, http.StatusBadRequest, "The filter is not valid: open the list and export from there.")
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="shipments-%s.csv"`, time.Now().Format("20060102-1504")))
	w.Header().Set("Cache-Control", "no-store")
	out := csv.NewWriter(w)
	_ = out.Write([]string{"id", "created", "reference", "tracking_number", "recipient", "town", "carrier", "service",
		"state", "status", "label_mode", "label_status", "returned", "cod", "cod_currency", "delivered", "last_checked", "origin"})
	flusher, _ := w.(http.Flusher)
	n := 0
	err := h.ShipReads.EachShipment(r.Context(), f, func(s storage.Shipment) error {
		cod, cur := "", ""
		if s.CODValue != nil && s.CODCurrency != nil {
			cod, cur = strconv.FormatFloat(*s.CODValue, 'f', -1, 64), *s.CODCurrency
		}
		if err := out.Write([]string{strconv.FormatInt(s.ID, 10), s.CreatedAt.Format(time.RFC3339), csvSafe(s.Reference), s.Tracking(),
			csvSafe(s.RecipientName), csvSafe(s.RecipientCity), s.Carrier, csvSafe(s.ServiceName), s.State, s.Status,
			s.LabelMode, s.LabelStatus, strconv.FormatBool(s.Returned), cod, cur, timeOrEmpty(s.DeliveredAt), timeOrEmpty(s.LastCheckedAt), s.Origin}); err != nil {
			return err
		}
		if n++; n%500 == 0 {
			out.Flush()
			if flusher != nil {
				flusher.Flush()
			}
		}
		return nil
	})
	out.Flush()
	if err != nil {
		// The header is out: the truncated file must not pass as complete.
		h.Log.Error("csv export", "err", err)
		_, _ = fmt.Fprintf(w, "\n# export stopped: %s\n", "an error occurred; export again")
	}
}

// csvSafe keeps a spreadsheet from running a cell as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func timeOrEmpty(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.Format(time.RFC3339)
}

// Scan opens the shipment a scanned or typed number names; several or
// near matches are listed.
func (h *Handlers) Scan(w http.ResponseWriter, r *http.Request) {
	code, problem := textin.Line(r.URL.Query().Get("q"), 64)
	if textin.IsUnreadable(problem) {
		h.ErrorStatus(w, r, http.StatusBadRequest, "The scanned code contains characters that cannot be read: scan or type it again.")
		return
	}
	if code == "" {
		redirect(w, r, "/tracking")
		return
	}
	found, exact, err := h.ShipReads.Scan(r.Context(), code, 10)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if exact && len(found) == 1 {
		http.Redirect(w, r, fmt.Sprintf("/shipping/shipments/%d", found[0].ID), http.StatusSeeOther)
		return
	}
	h.render(w, r, http.StatusOK, views.ScanResults(h.page(w, r, "Scan "+code, identity.Tracking), code, shipmentRows(found)))
}

// RefreshNow asks the service about one shipment at once.
func (h *Handlers) RefreshNow(w http.ResponseWriter, r *http.Request) {
	id, ok := h.shipmentID(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	h.finish(w, r, h.Tracker.RefreshNow(ctx, id), "Asked the service just now.", fmt.Sprintf("/shipping/shipments/%d", id))
}

// timeline groups a shipment's events by package, newest first.
func timeline(s storage.Shipment, events []storage.Event) views.TimelineView {
	t := views.TimelineView{Returned: s.Returned}
	for i, p := range s.Packages {
		pt := views.PackageTimeline{Number: p.Number, Status: p.Status}
		for _, e := range events {
			if e.PackageIndex == i {
				pt.Events = append(pt.Events, views.EventRow{When: e.Occurred.Format("2006-01-02 15:04"), Status: e.Status, Name: e.Name, Location: e.Location})
			}
		}
		t.Packages = append(t.Packages, pt)
	}
	return t
}

// Reports shows the managers' figures over a period (default: the last 30 days).
func (h *Handlers) Reports(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	v := views.ReportView{}
	today := time.Now()
	to := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.Local).AddDate(0, 0, 1)
	from := to.AddDate(0, 0, -30)
	if s := q.Get("from"); s != "" {
		if d, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
			from = d
		} else {
			v.Error = "The dates must be YYYY-MM-DD; showing the last 30 days."
		}
	}
	if s := q.Get("to"); s != "" {
		if d, err := time.ParseInLocation("2006-01-02", s, time.Local); err == nil {
			to = d.AddDate(0, 0, 1)
		} else {
			v.Error = "The dates must be YYYY-MM-DD; showing the last 30 days."
		}
	}
	if !from.Before(to) || to.Sub(from) > 366*24*time.Hour {
		v.Error = "Choose a period of one day to one year, the first day before the last."
		to = time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.Local).AddDate(0, 0, 1)
		from = to.AddDate(0, 0, -30)
	}
	rep, err := h.ShipReads.Report(r.Context(), from, to)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v.From, v.To = from.Format("2006-01-02"), to.AddDate(0, 0, -1).Format("2006-01-02")
	v.Total, v.Cancelled, v.LabelsFailed = rep.Total, rep.Cancelled, rep.LabelsFailed
	v.Delivered, v.Returned = share(rep.Delivered, rep.Total), share(rep.Returned, rep.Total)
	v.AvgDays = "–"
	if rep.AvgDaysToDelivery != nil {
		v.AvgDays = strconv.FormatFloat(*rep.AvgDaysToDelivery, 'f', 1, 64)
	}
	v.PerDay, v.PerStatus, v.PerCarrier = bars(rep.PerDay), bars(rep.PerStatus), bars(rep.PerCarrier)
	h.render(w, r, http.StatusOK, views.ReportPage(h.page(w, r, "Reports", identity.Reports), v))
}

func share(n, total int) string {
	if total == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f %% (%d)", float64(n)*100/float64(total), n)
}

func bars(counts []storage.Count) []views.Bar {
	out := make([]views.Bar, 0, len(counts))
	for _, c := range counts {
		out = append(out, views.Bar{Label: c.Key, Count: c.Count})
	}
	return out
}
