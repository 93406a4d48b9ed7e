package shoptet

import (
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Paging of GET /api/orders (at most 50 a page: a larger itemsPerPage is cut
// to it, as Shoptet does) and of GET /api/orders/changes.
const (
	OrdersPerPage     = 50
	ChangesPerPage    = 20
	MaxChangesPerPage = 1000
	maxOrderCodes     = 50
)

// paging reads page and itemsPerPage.
func paging(q url.Values, def, max int) (page, per int, p *problem) {
	page, per = 1, def
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1<<20 {
			return 0, 0, invalidParam("page", "Invalid \"page\" parameter. Expected a positive integer.")
		}
		page = n
	}
	if v := q.Get("itemsPerPage"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, 0, invalidParam("itemsPerPage", "Invalid \"itemsPerPage\" parameter. Expected a positive integer.")
		}
		per = min(n, max)
	}
	return page, per, nil
}

// pageOf cuts one page out of n records: the slice bounds and the paginator.
func pageOf(n, page, per int) (lo, hi int, paginator m) {
	lo, hi = min((page-1)*per, n), min(page*per, n)
	return lo, hi, m{"totalCount": n, "page": page, "pageCount": (n + per - 1) / per, "itemsOnPage": hi - lo, "itemsPerPage": per}
}

func timeParam(q url.Values, name string) (time.Time, *problem) {
	v := q.Get(name)
	if v == "" {
		return time.Time{}, nil
	}
	t, ok := parseTime(v)
	if !ok {
		return time.Time{}, invalidParam(name, "Invalid \"%s\" parameter. Expected ISO 8601 date and time, e.g. 2017-12-12T22:08:01+0100.", name)
	}
	return t, nil
}

// orderFilter is what GET /api/orders may filter by.
type orderFilter struct {
	status                     *int
	shipping, company, payment string
	email                      string
	createdFrom, createdTo     time.Time
	changedFrom, changedTo     time.Time
	codes                      map[string]bool
}

func filterOf(q url.Values) (orderFilter, *problem) {
	var f orderFilter
	if v := q.Get("statusId"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return f, invalidParam("statusId", "Invalid \"statusId\" parameter. Expected an integer.")
		}
		f.status = &n
	}
	f.shipping, f.company, f.payment = q.Get("shippingGuid"), strings.ToLower(q.Get("shippingCompanyCode")), q.Get("paymentMethodGuid")
	f.email = strings.ToLower(q.Get("email"))
	var p *problem
	for _, t := range []struct {
		dst  *time.Time
		name string
	}{{&f.createdFrom, "creationTimeFrom"}, {&f.createdTo, "creationTimeTo"}, {&f.changedFrom, "changeTimeFrom"}, {&f.changedTo, "changeTimeTo"}} {
		if *t.dst, p = timeParam(q, t.name); p != nil {
			return f, p
		}
	}
	if v := q.Get("orderCodes"); v != "" {
		parts := strings.Split(v, ",")
		if len(parts) > maxOrderCodes {
			return f, invalidParam("orderCodes", "Invalid \"orderCodes\" parameter. Expected max. %d elements, but %d given.", maxOrderCodes, len(parts))
		}
		f.codes = map[string]bool{}
		for _, c := range parts {
			f.codes[strings.TrimSpace(c)] = true
		}
	}
	return f, nil
}

func (f orderFilter) keeps(o *Order) bool {
	if f.codes != nil { // orderCodes: no other filter applies
		return f.codes[o.Code]
	}
	sm, _ := shippingOf(o.Shipping)
	switch {
	case f.status != nil && o.Status != *f.status,
		f.shipping != "" && o.Shipping != f.shipping,
		f.company != "" && sm.CompanyCode != f.company,
		f.payment != "" && o.Payment != f.payment,
		f.email != "" && strings.ToLower(o.Email) != f.email,
		!f.createdFrom.IsZero() && o.Created.Before(f.createdFrom),
		!f.createdTo.IsZero() && o.Created.After(f.createdTo),
		!f.changedFrom.IsZero() && o.Changed.Before(f.changedFrom),
		!f.changedTo.IsZero() && o.Changed.After(f.changedTo):
		return false
	}
	return true
}

// listOrders is GET /api/orders: newest first.
func (s *Service) listOrders(w http.ResponseWriter, r *http.Request) *problem {
	q := r.URL.Query()
	page, per, p := paging(q, OrdersPerPage, OrdersPerPage)
	if p != nil {
		return p
	}
	f, p := filterOf(q)
	if p != nil {
		return p
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp(s.clock.Now())
	var match []*Order
	for _, o := range s.orders {
		if !o.Deleted && f.keeps(o) {
			match = append(match, o)
		}
	}
	sort.Slice(match, func(i, j int) bool {
		if !match[i].Created.Equal(match[j].Created) {
			return match[i].Created.After(match[j].Created)
		}
		return match[i].Code > match[j].Code
	})
	lo, hi, paginator := pageOf(len(match), page, per)
	list := make([]any, 0, hi-lo)
	for _, o := range match[lo:hi] {
		list = append(list, s.listView(o))
	}
	writeData(w, r, http.StatusOK, m{"orders": list, "paginator": paginator})
	return nil
}

// order finds a live order; nil when there is none.
func (s *Service) order(code string) *Order {
	if o := s.orders[code]; o != nil && !o.Deleted {
		return o
	}
	return nil
}

func (s *Service) orderDetail(w http.ResponseWriter, r *http.Request) *problem {
	code := r.PathValue("code")
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp(s.clock.Now())
	o := s.order(code)
	if o == nil {
		return notFound(code)
	}
	writeData(w, r, http.StatusOK, m{"order": s.detailView(o, includesOf(r.URL.Query().Get("include")))})
	return nil
}

// changes is GET /api/orders/changes: each order once, with its last
// change, oldest first. Creation counts as an edit, as in Shoptet.
func (s *Service) changes(w http.ResponseWriter, r *http.Request) *problem {
	q := r.URL.Query()
	if q.Get("from") == "" {
		return fail(http.StatusBadRequest, "missing-parameter", "from", "Missing value for parameter \"from\".")
	}
	from, p := timeParam(q, "from")
	if p != nil {
		return p
	}
	kind := q.Get("changeType")
	if kind != "" && kind != "edit" && kind != "delete" {
		return invalidParam("changeType", "Invalid \"changeType\" parameter. Expected edit or delete.")
	}
	page, per, p := paging(q, ChangesPerPage, MaxChangesPerPage)
	if p != nil {
		return p
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp(s.clock.Now())
	var match []*Order
	for _, o := range s.orders {
		if o.Changed.Before(from) || kind == "delete" && !o.Deleted || kind == "edit" && o.Deleted {
			continue
		}
		match = append(match, o)
	}
	sort.Slice(match, func(i, j int) bool {
		if !match[i].Changed.Equal(match[j].Changed) {
			return match[i].Changed.Before(match[j].Changed)
		}
		return match[i].Code < match[j].Code
	})
	lo, hi, paginator := pageOf(len(match), page, per)
	list := make([]any, 0, hi-lo)
	for _, o := range match[lo:hi] {
		typ := "edit"
		if o.Deleted {
			typ = "delete"
		}
		list = append(list, m{"code": text(o.Code), "changeTime": stamp(o.Changed), "changeType": typ})
	}
	writeData(w, r, http.StatusOK, m{"changes": list, "paginator": paginator})
	return nil
}

// history is GET /api/orders/{code}/history: what happened to the order,
// the mails and texts to the customer among it.
func (s *Service) history(w http.ResponseWriter, r *http.Request) *problem {
	code := r.PathValue("code")
	var onlySystem *bool
	if v := r.URL.Query().Get("system"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return invalidParam("system", "Invalid \"system\" parameter. Expected true or false.")
		}
		onlySystem = &b
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.order(code)
	if o == nil {
		return notFound(code)
	}
	list := []any{}
	for _, h := range o.History {
		if onlySystem != nil && h.System != *onlySystem {
			continue
		}
		typ, user := "system", any(nil)
		if h.Comment {
			typ = "comment"
		}
		if !h.System {
			user = m{"id": "api.private-token@demo-obchod.myshoptet.com", "name": "Soukromé API"}
		}
		list = append(list, m{"id": h.ID, "creationTime": stamp(h.At), "text": text(h.Text), "user": user, "system": h.System, "type": typ})
	}
	writeData(w, r, http.StatusOK, m{"orderHistory": list})
	return nil
}
