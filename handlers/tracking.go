package handlers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
)

// trackingReads are the shipment list, its export, the scan box and the reports.
type trackingReads interface {
	ListShipments(ctx context.Context, f storage.ListFilter) (storage.ListPage, error)
	EachShipment(ctx context.Context, f storage.ListFilter, fn func(storage.Shipment) error) error
	ExportShipments(ctx context.Context, f storage.ListFilter, fn func(*storage.ExportRow) error) error
	ShipmentsByID(ctx context.Context, ids []int64) ([]storage.Shipment, error)
	Carriers(ctx context.Context) ([]storage.Carrier, error)
	Scan(ctx context.Context, code string, limit int) ([]storage.Shipment, bool, error)
	Report(ctx context.Context, from, to time.Time) (storage.Report, error)
}

// ParseListQuery reads the list's filter from the URL, so a view can be shared;
// its problems are in English.
func ParseListQuery(q url.Values) (storage.ListFilter, map[string]string, map[string]string) {
	return parseListQuery(i18n.WithLang(context.Background(), i18n.English), q)
}

// listParams are the list's query parameters: its filter, its page size and
// where the page is (cursors of the rows next to it, or the last page).
var listParams = []string{"status", "carrier", "from", "to", "ref", "q", "sort", "size", "count", "after", "before", "last"}

// pageParams say where a page is.
var pageParams = []string{"after", "before", "last"}

// linkParams come only from links the list made (where a page is, whether
// to count to the end): no field shows them, so their problems are told
// above the list.
var linkParams = append(slices.Clone(pageParams), "count")

// parseListQuery is ParseListQuery with the problems in the request's
// language. Every problem is named on its field: unreadable or overlong
// text, a value not in a list, a day that is no day, a range that ends
// before it starts, a page link that was damaged.
func parseListQuery(ctx context.Context, q url.Values) (storage.ListFilter, map[string]string, map[string]string) {
	errs := map[string]string{}
	vals := map[string]string{}
	for _, k := range listParams {
		limit := 100
		if k == "after" || k == "before" {
			limit = 4000 // a cursor carries a recipient's name, base64-encoded
		}
		v, problem := textin.Line(q.Get(k), limit)
		if textin.IsUnreadable(problem) {
			v = ""
		}
		if !problem.IsZero() {
			errs[k] = problem.In(ctx)
		}
		vals[k] = v
	}
	f := storage.ListFilter{Status: strings.ToUpper(vals["status"]), Carrier: strings.ToUpper(vals["carrier"]), Reference: vals["ref"],
		Text: vals["q"], Sort: vals["sort"], After: vals["after"], Before: vals["before"], Last: vals["last"] != "", Limit: storage.DefaultPageSize}
	if f.Status != "" && !slices.Contains(storage.ListStatuses, f.Status) {
		errs["status"], f.Status = i18n.T(ctx, "trk.err.status"), ""
	}
	if f.Carrier != "" && !carrierCode.MatchString(f.Carrier) {
		errs["carrier"], f.Carrier = i18n.T(ctx, "trk.err.carrier"), ""
	}
	if f.Sort != "" && f.Sort != "new" && f.Sort != "old" && f.Sort != "recipient" {
		errs["sort"], f.Sort = i18n.T(ctx, "trk.err.sort"), ""
	}
	if s := vals["size"]; s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || !slices.Contains(storage.PageSizes, n) {
			errs["size"] = i18n.T(ctx, "fig.err.size")
		} else {
			f.Limit = n
		}
	}
	switch {
	case errs["count"] != "" || (vals["count"] != "" && vals["count"] != "all"):
		errs["count"] = i18n.T(ctx, "perf.list.err.count") // only a link of the list sets it
	case vals["count"] == "all":
		f.Exact = true
	}
	damaged := i18n.T(ctx, "rec.page_link")
	if (f.After != "" && f.Before != "") || (f.Last && (vals["last"] != "1" || f.After != "" || f.Before != "")) {
		errs["last"] = damaged
	}
	for k, c := range map[string]string{"after": f.After, "before": f.Before} {
		if c != "" && errs[k] == "" && storage.CheckCursor(f.Sort, c) != nil {
			errs[k] = damaged
		}
		if errs[k] != "" {
			errs[k] = damaged
		}
	}
	f.From, f.To = dateRangeIn(ctx, vals, errs)
	if !f.From.IsZero() && !f.To.IsZero() && !f.From.Before(f.To) {
		errs["from"] = i18n.T(ctx, "fig.err.from_after_to", i18n.Date(ctx, f.To.AddDate(0, 0, -1)))
		errs["to"] = i18n.T(ctx, "fig.err.to_before_from", i18n.Date(ctx, f.From))
	}
	return f, vals, errs
}

// queryValues reads filter values from a URL, trimmed and cut to 100
// characters. A value that cannot be read is an error on its field and is ignored.
func queryValues(ctx context.Context, q url.Values, errs map[string]string, keys ...string) map[string]string {
	vals := map[string]string{}
	for _, k := range keys {
		v, problem := textin.Line(q.Get(k), 100)
		if textin.IsUnreadable(problem) {
			errs[k], v = problem.In(ctx), ""
		}
		vals[k] = v
	}
	return vals
}

// dateRange reads the "from" and "to" days of a filter, written the Czech way
// (22. 11. 2026) or as ISO; "to" includes its whole day. A date that cannot be
// read is an error on its field (in English) and is ignored.
func dateRange(vals, errs map[string]string) (from, to time.Time) {
	return dateRangeIn(i18n.WithLang(context.Background(), i18n.English), vals, errs)
}

// dateRangeIn is dateRange with the problems in the request's language; days
// begin at midnight in the shop's time zone.
func dateRangeIn(ctx context.Context, vals, errs map[string]string) (from, to time.Time) {
	for _, k := range []string{"from", "to"} {
		if vals[k] == "" {
			continue
		}
		d, problem := localDay(ctx, vals[k])
		switch {
		case !problem.IsZero():
			errs[k] = i18n.T(ctx, "trk.err.date")
		case k == "from":
			from = d
		default:
			to = d.AddDate(0, 0, 1)
		}
	}
	return from, to
}

// ShipmentList is the list of shipments with its filters, keyset-paged both
// ways, with the filter's total and the page's place in it. A filter that
// cannot be used is answered 422 with its problems on its fields and no list.
func (h *Handlers) ShipmentList(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	f, vals, errs := parseListQuery(ctx, r.URL.Query())
	all := views.Option{Value: "", Label: i18n.T(ctx, "trk.filter.all")}
	shown := maps.Clone(vals)
	if shown["size"] == "" {
		shown["size"] = strconv.Itoa(storage.DefaultPageSize)
	}
	v := views.ListView{Filter: views.Form{Values: shown, Errors: errs}, Statuses: []views.Option{all}, Carriers: []views.Option{all},
		Sorts: []views.Option{{Value: "new", Label: i18n.T(ctx, "trk.sort.new")}, {Value: "old", Label: i18n.T(ctx, "trk.sort.old")},
			{Value: "recipient", Label: i18n.T(ctx, "trk.sort.recipient")}}}
	for _, n := range storage.PageSizes {
		v.Sizes = append(v.Sizes, views.Option{Value: strconv.Itoa(n), Label: i18n.Int(ctx, int64(n))})
	}
	for _, s := range storage.ListStatuses {
		v.Statuses = append(v.Statuses, views.Option{Value: s, Label: i18n.T(ctx, "trk.list.status."+s)})
	}
	// The carriers of the filter's choice are read beside the page's rows.
	type carriersRead struct {
		list []storage.Carrier
		err  error
	}
	carriersDone := make(chan carriersRead, 1)
	go func() {
		list, err := h.ShipReads.Carriers(ctx)
		carriersDone <- carriersRead{list, err}
	}()
	carriers := func() bool {
		c := <-carriersDone
		if c.err != nil {
			h.Fail(w, r, c.err)
			return false
		}
		for _, c := range c.list {
			v.Carriers = append(v.Carriers, views.Option{Value: c.Code, Label: cmp.Or(c.Name, c.Code)})
		}
		return true
	}
	filter := map[string]string{} // the filter without the page's place
	for k, x := range vals {
		if !slices.Contains(pageParams, k) {
			filter[k] = x
		}
	}
	title := i18n.T(ctx, "trk.title")
	// refuse shows the list's problem; a damaged page link also offers the
	// filter's first page.
	refuse := func(problem string, damagedLink bool) {
		if !carriers() {
			return
		}
		v.FilterErr = problem
		if damagedLink {
			v.FirstURL = views.QueryURL("/tracking", filter)
		}
		h.render(w, r, http.StatusUnprocessableEntity, views.ShipmentList(h.page(w, r, title, identity.Tracking), v))
	}
	if len(errs) > 0 {
		refuse(filterProblem(ctx, errs), errs["after"] != "" || errs["before"] != "" || errs["last"] != "")
		return
	}
	page, err := h.ShipReads.ListShipments(ctx, f)
	if errors.Is(err, storage.ErrDamagedCursor) { // a page link the checks above let through
		refuse(apperr.TextOf(err).In(ctx), true)
		return
	}
	if err != nil {
		<-carriersDone
		h.Fail(w, r, err)
		return
	}
	if !carriers() {
		return
	}
	now := h.now()
	v.LiveURL = liveURL(r)
	for _, s := range page.Shipments {
		row := views.ListRow{ShipmentRow: shipmentRow(ctx, s), City: s.RecipientCity, Returned: s.Returned, Origin: s.Origin}
		aged(ctx, &row.ShipmentRow, s, now)
		row.LastChecked = row.CheckedAt
		v.Rows = append(v.Rows, row)
		v.Live = v.Live || row.Changing
	}
	total := i18n.Int(ctx, int64(page.Total))
	v.Selection.Query = listHidden(vals)
	if st := identity.From(ctx); st != nil {
		v.Selection.CanStorno = st.Role.May(identity.Shipping)
	}
	at := func(k, x string) string {
		q := maps.Clone(filter)
		q[k] = x
		return views.QueryURL("/tracking", q)
	}
	switch {
	case page.More: // counted as far as CountCap: how many more, the manager may ask
		v.Total = i18n.T(ctx, "perf.list.total_more", total)
		v.CountURL = at("count", "all")
		v.Selection.Whole = i18n.T(ctx, "perf.list.whole_more", total)
	default:
		v.Total = shipmentsText(ctx, page.Total)
		if page.Total > len(page.Shipments) {
			v.Selection.Whole = i18n.N(ctx, "bulk.whole", page.Total, total)
		}
	}
	if len(page.Shipments) > 0 {
		position := "fig.list.position"
		if page.More {
			position = "perf.list.position_more"
		}
		v.Position = i18n.T(ctx, position, i18n.Int(ctx, int64(page.Start+1)), i18n.Int(ctx, int64(page.Start+len(page.Shipments))), total)
	}
	if page.Prev != "" {
		v.FirstURL, v.PrevURL = views.QueryURL("/tracking", filter), at("before", page.Prev)
	} else if f.After != "" || f.Before != "" || f.Last {
		v.FirstURL = views.QueryURL("/tracking", filter) // an empty page after a link: back to the start
	}
	if page.Next != "" {
		v.NextURL, v.LastURL = at("after", page.Next), at("last", "1")
	}
	delete(filter, "size")
	delete(filter, "count")
	v.CSVURL = views.QueryURL("/tracking.csv", filter)
	h.render(w, r, http.StatusOK, views.ShipmentList(h.page(w, r, title, identity.Tracking), v))
}

// filterProblem is what is said above the list when its filter cannot be
// used: the page link's problem, which no field shows, or a pointer to the
// marked fields.
func filterProblem(ctx context.Context, errs map[string]string) string {
	var parts []string
	for k := range errs {
		if !slices.Contains(linkParams, k) {
			parts = append(parts, i18n.T(ctx, "fig.list.fix"))
			break
		}
	}
	for _, k := range linkParams {
		if errs[k] != "" {
			parts = append(parts, errs[k])
			break
		}
	}
	return strings.Join(parts, " ")
}

// ExportCSV streams the filtered list as CSV, any size, one row at a time, in
// the person's language: in Czech with a byte-order mark (so a spreadsheet
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
		at := line.open()
		switch {
		case t.IsZero():
		case out.czech:
			line.buf = i18n.AppendDateTime(ctx, line.buf, t)
		default:
			line.buf = t.In(zone).AppendFormat(line.buf, time.RFC3339)
		}
		line.close(at)
	}
	flusher, _ := w.(http.Flusher)
	n := 0
	err := each(func(s *storage.ExportRow) error {
		line.start()
		at := line.open()
		line.buf = strconv.AppendInt(line.buf, s.ID, 10)
		line.close(at)
		when(s.CreatedAt)
		line.text(csvSafe(s.Reference))
		line.text(s.TrackingNumber)
		line.text(csvSafe(s.RecipientName))
		line.text(csvSafe(s.RecipientCity))
		line.text(s.Carrier)
		line.text(csvSafe(s.ServiceName))
		line.text(s.State)
		line.text(s.Status)
		line.text(s.LabelMode)
		line.text(s.LabelStatus)
		returned := no
		if s.Returned {
			returned = yes
		}
		line.text(returned)
		at = line.open()
		if s.CODCurrency != "" {
			line.buf = out.appendDecimal(line.buf, s.CODValue)
		}
		line.close(at)
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
	"state", "status", "label_mode", "label_status", "returned", "cod", "cod_currency", "delivered", "last_checked", "origin"}

// localDay reads a day typed the Czech way or as ISO, as its midnight in the
// shop's time zone.
func localDay(ctx context.Context, s string) (time.Time, apperr.Text) {
	d, problem := textin.Date(s)
	if !problem.IsZero() {
		return time.Time{}, problem
	}
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, i18n.ZoneOf(ctx)), apperr.Text{}
}

// csvSafe keeps a spreadsheet from running a cell as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// Scan opens the shipment a scanned or typed number names; several or
// near matches are listed.
func (h *Handlers) Scan(w http.ResponseWriter, r *http.Request) {
	code, problem := textin.Line(r.URL.Query().Get("q"), 64)
	if textin.IsUnreadable(problem) {
		h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(r.Context(), "trk.scan.unreadable"))
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
	h.render(w, r, http.StatusOK, views.ScanResults(h.page(w, r, i18n.T(r.Context(), "trk.scan.title", code), identity.Tracking), code, shipmentRows(r.Context(), found)))
}

// RefreshNow asks the service about one shipment at once.
func (h *Handlers) RefreshNow(w http.ResponseWriter, r *http.Request) {
	id, ok := h.shipmentID(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	h.finish(w, r, h.Tracker.RefreshNow(ctx, id), i18n.T(r.Context(), "trk.timeline.refreshed"), fmt.Sprintf("/shipping/shipments/%d", id))
}

// timeline groups a shipment's events by package, newest first.
func timeline(s storage.Shipment, events []storage.Event) views.TimelineView {
	t := views.TimelineView{Returned: s.Returned}
	for i, p := range s.Packages {
		pt := views.PackageTimeline{Number: p.Number, Status: p.Status}
		for _, e := range events {
			if e.PackageIndex == i {
				pt.Events = append(pt.Events, views.EventRow{At: e.Occurred, Status: e.Status, Name: e.Name, Location: e.Location})
			}
		}
		t.Packages = append(t.Packages, pt)
	}
	return t
}

// Reports shows the managers' figures over a period (default: the last 30 days).
func (h *Handlers) Reports(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	v := views.ReportView{}
	zone := i18n.ZoneOf(ctx)
	today := h.now().In(zone)
	to := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, zone).AddDate(0, 0, 1)
	from := to.AddDate(0, 0, -30)
	if s := strings.TrimSpace(q.Get("from")); s != "" {
		if d, problem := localDay(ctx, s); problem.IsZero() {
			from = d
		} else {
			v.Error = i18n.T(ctx, "trk.rep.err.date")
		}
	}
	if s := strings.TrimSpace(q.Get("to")); s != "" {
		if d, problem := localDay(ctx, s); problem.IsZero() {
			to = d.AddDate(0, 0, 1)
		} else {
			v.Error = i18n.T(ctx, "trk.rep.err.date")
		}
	}
	if !from.Before(to) || to.Sub(from) > 366*24*time.Hour {
		v.Error = i18n.T(ctx, "trk.rep.err.period")
		to = time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, zone).AddDate(0, 0, 1)
		from = to.AddDate(0, 0, -30)
	}
	rep, err := h.ShipReads.Report(ctx, from, to)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v.From, v.To = i18n.Date(ctx, from), i18n.Date(ctx, to.AddDate(0, 0, -1))
	if i18n.LangOf(ctx) == i18n.English {
		v.From, v.To = from.Format("2006-01-02"), to.AddDate(0, 0, -1).Format("2006-01-02")
	}
	v.Total, v.Cancelled, v.LabelsFailed = rep.Total, rep.Cancelled, rep.LabelsFailed
	v.Delivered, v.Returned = share(ctx, rep.Delivered, rep.Total), share(ctx, rep.Returned, rep.Total)
	v.AvgDays = "–"
	if rep.AvgDaysToDelivery != nil {
		v.AvgDays = i18n.Number(ctx, *rep.AvgDaysToDelivery, 1)
	}
	v.PerDay = bars(rep.PerDay, func(k string) string { return i18n.Day(ctx, k) })
	v.PerStatus = bars(rep.PerStatus, func(k string) string { return views.StatusText(ctx, k) })
	v.PerCarrier = bars(rep.PerCarrier, func(k string) string { return k })
	if v.Money, err = h.moneyFigures(ctx, from, to); err != nil {
		h.Fail(w, r, err)
		return
	}
	v.Export = views.ReportExport{From: from.Format("2006-01-02"), To: to.AddDate(0, 0, -1).Format("2006-01-02")}
	if v.Returns, err = h.returnsReport(ctx, from, to); err != nil {
		h.Fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, views.ReportPage(h.page(w, r, i18n.T(ctx, "trk.rep.title"), identity.Reports), v))
}

func share(ctx context.Context, n, total int) string {
	if total == 0 {
		return "–"
	}
	return i18n.T(ctx, "trk.rep.share", i18n.Number(ctx, float64(n)*100/float64(total), 0), i18n.Int(ctx, int64(n)))
}

func bars(counts []storage.Count, label func(string) string) []views.Bar {
	out := make([]views.Bar, 0, len(counts))
	for _, c := range counts {
		out = append(out, views.Bar{Key: c.Key, Label: label(c.Key), Count: c.Count})
	}
	return out
}
