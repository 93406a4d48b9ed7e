package handlers

import (
	"cmp"
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"time"

	"shipdesk/apperr"
	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
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
	if len(errs) == 0 && httpx.PolledBy(r, "tracking-rows") {
		h.listRowsAgain(w, r, f, v)
		return
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
	listRows(ctx, &v, page.Shipments, h.now(), h.carrierNames(ctx))
	v.LiveURL = liveURL(r)
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
		v.Total = i18n.T(ctx, "trk.list.total_more", total)
		v.CountURL = at("count", "all")
		v.Selection.Whole = i18n.T(ctx, "trk.list.whole_more", total)
	default:
		v.Total = shipmentsText(ctx, page.Total)
		if page.Total > len(page.Shipments) {
			v.Selection.Whole = i18n.N(ctx, "bulk.whole", page.Total, total)
		}
	}
	if len(page.Shipments) > 0 {
		position := "fig.list.position"
		if page.More {
			position = "trk.list.position_more"
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

// listRows fills the list's rows, each with its age.
func listRows(ctx context.Context, v *views.ListView, list []storage.Shipment, now time.Time, names carrierNames) {
	for _, s := range list {
		row := views.ListRow{ShipmentRow: shipmentRow(ctx, s, names), City: s.RecipientCity, Returned: s.Returned, Origin: s.Origin}
		aged(ctx, &row.ShipmentRow, s, now)
		row.LastChecked = row.CheckedAt
		v.Rows = append(v.Rows, row)
		v.Live = v.Live || row.Changing
	}
}

// listRowsAgain answers the rows' own polling: the same page's rows in one
// statement, without the count and the carriers of the filter, which the
// poll leaves where they are.
func (h *Handlers) listRowsAgain(w http.ResponseWriter, r *http.Request, f storage.ListFilter, v views.ListView) {
	ctx := r.Context()
	f.RowsOnly = true
	page, err := h.ShipReads.ListShipments(ctx, f)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	listRows(ctx, &v, page.Shipments, h.now(), h.carrierNames(ctx))
	v.LiveURL = liveURL(r)
	h.render(w, r, http.StatusOK, views.ShipmentList(h.page(w, r, i18n.T(ctx, "trk.title"), identity.Tracking), v))
}
