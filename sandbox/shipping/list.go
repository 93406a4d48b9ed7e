package shipping

import (
	"net/http"
	"slices"
	"sort"
	"time"

	"shipdesk/sandbox/apijson"
)

// listStatus maps the list filter to shipment statuses.
var listStatus = map[string][]string{
	"OPEN":      {"CREATED"},
	"ACTIVE":    {"EXPORTED", "ONPICKUP", "INTRANSIT", "ONDELIVERY"},
	"DELIVERED": {"DELIVERED"},
	"STORNO":    {"CANCELLED"},
}

// ListStep is how many shipments one answer of shipments/list holds. Real
// clients page with offset=0, 100, 200… and merge the data objects
// (public-evidence.md), so data holds shipments only, keyed by tracking number.
const ListStep = 100

// listQuery is shipments/list's filter, read from the URL.
type listQuery struct {
	status       string
	from, to     time.Time
	reference    string
	offset       int
	withTracking bool
}

func readListQuery(q map[string][]string) (listQuery, []apijson.FieldError) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	p := &problems{}
	lq := listQuery{status: get("status"), reference: get("reference"), withTracking: flag(q, "tracking")}
	if lq.status != "" && listStatus[lq.status] == nil {
		p.add("status", msgStatusUnknown, lq.status)
	}
	for _, d := range []struct {
		name string
		dst  *time.Time
	}{{"date_from", &lq.from}, {"date_to", &lq.to}} {
		if v := get(d.name); v != "" {
			t, err := time.Parse("2006-01-02", v)
			if err != nil {
				p.add(d.name, msgDateForm)
			}
			*d.dst = t
		}
	}
	lq.offset = intParam(p, get("offset"), "offset", 0, 0, 1<<30)
	return lq, p.list
}

func (s *Service) list(w http.ResponseWriter, r *http.Request) {
	acct := s.accountOf(r)
	if acct == nil {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	lq, errs := readListQuery(r.URL.Query())
	if len(errs) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(errs...))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	lang, data := apijson.LangOf(r), apijson.DataLangOf(r)
	match := s.listed(acct, lq, now)
	total := len(match)
	lo := min(lq.offset, total)
	hi := min(lo+ListStep, total)
	views := make(map[string]any, hi-lo)
	for _, sh := range match[lo:hi] {
		views[sh.TrackingNumber] = s.view(sh, acct, nil, now, lq.withTracking, data)
	}
	body := map[string]any{"status": http.StatusOK, "message": msgFoundShipments.With(total).In(lang), "data": views}
	if s.documented() {
		// Outside data, so a client that merges the data of its pages never meets it.
		body["paging"] = map[string]int{"offset": lq.offset, "limit": ListStep, "total": total}
	}
	apijson.WriteRaw(w, r, http.StatusOK, body)
}

// listed are the account's shipments the filter matches, newest first (the
// order the offsets count in). The caller holds s.mu.
func (s *Service) listed(acct *account, lq listQuery, now time.Time) []*shipment {
	var match []*shipment
	for _, sh := range s.shipments {
		if sh.Account != acct.Index || (lq.reference != "" && sh.Req.Reference != lq.reference) {
			continue
		}
		day := time.Date(sh.Created.Year(), sh.Created.Month(), sh.Created.Day(), 0, 0, 0, 0, time.UTC)
		if (!lq.from.IsZero() && day.Before(lq.from)) || (!lq.to.IsZero() && day.After(lq.to)) {
			continue
		}
		if lq.status != "" && !slices.Contains(listStatus[lq.status], s.status(sh, now)) {
			continue
		}
		match = append(match, sh)
	}
	sort.Slice(match, func(i, j int) bool {
		if !match[i].Created.Equal(match[j].Created) {
			return match[i].Created.After(match[j].Created)
		}
		return match[i].TrackingNumber > match[j].TrackingNumber
	})
	return match
}
