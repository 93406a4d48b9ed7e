package returns

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"shipdesk/sandbox/apijson"
)

func (s *Service) get(w http.ResponseWriter, r *http.Request) {
	acct := s.account(r)
	if acct < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		apijson.WriteProblem(w, r, apijson.Invalid(apijson.Err("id", msgIDWhole)))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.commissions[id]
	if c == nil || c.Account != acct {
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusNotFound, msgNotFound, id))
		return
	}
	c.settle(s.clock.Now())
	apijson.Write(w, r, http.StatusOK, msgFound.With(), c.in(apijson.DataLangOf(r)))
}

// List paging.
const (
	DefaultPerPage = 50
	MaxPerPage     = 200
)

func (s *Service) list(w http.ResponseWriter, r *http.Request) {
	acct := s.account(r)
	if acct < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	q := r.URL.Query()
	p := &problems{}
	status, typ := q.Get("status"), q.Get("type")
	if status != "" && !slices.Contains(States, status) {
		p.add("status", msgStatusUnknown, status)
	}
	if typ != "" && !slices.Contains(Types, typ) {
		p.add("type", msgKindUnknown, typ)
	}
	var from, to string
	for name, dst := range map[string]*string{"date_from": &from, "date_to": &to} {
		if v := q.Get(name); v != "" {
			if _, err := time.Parse("2006-01-02", v); err != nil {
				p.add(name, msgDateForm)
			}
			*dst = v
		}
	}
	page, perPage := intParam(p, q.Get("page"), "page", 1, 1<<20), intParam(p, q.Get("per_page"), "per_page", DefaultPerPage, MaxPerPage)
	if len(p.list) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(p.list...))
		return
	}
	cust, prod := strings.ToLower(q.Get("customer")), q.Get("product")
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	var match []*commission
	for _, c := range s.commissions {
		c.settle(now)
		day := c.Created[:10]
		if c.Account != acct || (status != "" && c.Status != status) || (typ != "" && c.Type != typ) ||
			(from != "" && day < from) || (to != "" && day > to) ||
			(cust != "" && !strings.Contains(strings.ToLower(c.Customer.Name+" "+c.Customer.Email), cust)) ||
			(prod != "" && fmt.Sprint(c.Product.ModelID) != prod && fmt.Sprint(c.Product.TypeID) != prod) {
			continue
		}
		match = append(match, c)
	}
	sort.Slice(match, func(i, j int) bool { return match[i].ID > match[j].ID })
	total := len(match)
	lo := min((page-1)*perPage, total)
	hi := min(lo+perPage, total)
	items := []commission{}
	for _, c := range match[lo:hi] {
		items = append(items, c.in(apijson.DataLangOf(r)))
	}
	apijson.Write(w, r, http.StatusOK, msgFoundCommissions.With(total), map[string]any{
		"commissions": items, "page": page, "per_page": perPage, "total": total, "pages": (total + perPage - 1) / perPage,
	})
}
