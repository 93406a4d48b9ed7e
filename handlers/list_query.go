package handlers

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/storage"
	"shipdesk/textin"
)

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
		errs["count"] = i18n.T(ctx, "trk.list.err.count") // only a link of the list sets it
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

// localDay reads a day typed the Czech way or as ISO, as its midnight in the
// shop's time zone.
func localDay(ctx context.Context, s string) (time.Time, apperr.Text) {
	d, problem := textin.Date(s)
	if !problem.IsZero() {
		return time.Time{}, problem
	}
	return time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, i18n.ZoneOf(ctx)), apperr.Text{}
}
