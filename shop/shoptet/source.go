// Package shoptet is a Shoptet shop as a shop.Source: the one conversion
// between Shoptet's wire types (client/shoptet) and the desk's orders, and
// the walk over the pages of the shop's changes. Failures are apperr errors
// (errors.go); Shoptet's own codes stay in the log.
package shoptet

import (
	"cmp"
	"context"
	"strings"
	"time"

	api "shipdesk/client/shoptet"
	"shipdesk/shop"
)

// StatusCancelled is Shoptet's system status of a cancelled order (the
// document's example of a system status, -4 "Cancelled").
const StatusCancelled = -4

// Source is one Shoptet shop, read and written through one client (so
// through one limiter of the token's three connections).
type Source struct {
	c *api.Client
}

var _ shop.Source = (*Source)(nil)

// New is the shop the client's token opens.
func New(c *api.Client) *Source { return &Source{c: c} }

// Shop is the shop the token opens.
func (s *Source) Shop(ctx context.Context) (shop.Shop, error) {
	e, err := s.c.Eshop(ctx)
	if err != nil {
		return shop.Shop{}, fail(err)
	}
	ci := e.ContactInformation
	return shop.Shop{ID: ci.EshopID, Name: cmp.Or(ci.EshopTitle, ci.EshopName), URL: ci.URL}, nil
}

// Statuses are the shop's order statuses in the administration's order.
func (s *Source) Statuses(ctx context.Context) ([]shop.Status, error) {
	st, err := s.c.Statuses(ctx)
	if err != nil {
		return nil, fail(err)
	}
	out := make([]shop.Status, 0, len(st.Statuses))
	for _, x := range st.Statuses {
		out = append(out, statusOf(x.ID, x.Name))
	}
	return out, nil
}

// statusOf is a status of the shop's. Only cancellation is known to be
// final: Shoptet documents no flag for a finished order.
func statusOf(id int, name string) shop.Status {
	return shop.Status{ID: id, Name: name, Final: id == StatusCancelled}
}

// ShippingMethods are the shop's shipping methods.
func (s *Source) ShippingMethods(ctx context.Context) ([]shop.Method, error) {
	list, err := s.c.ShippingMethods(ctx)
	if err != nil {
		return nil, fail(err)
	}
	out := make([]shop.Method, 0, len(list))
	for _, m := range list {
		out = append(out, shop.Method{GUID: m.GUID, Name: m.Name})
	}
	return out, nil
}

// PaymentMethods are the shop's payment methods. Shoptet's list does not
// say which collects the money on delivery: COD is a hint for the mapping
// (the operator's code "cod", or the name Czech shops give it), which the
// manager confirms; an order says it for sure (billing method 1).
func (s *Source) PaymentMethods(ctx context.Context) ([]shop.Method, error) {
	list, err := s.c.PaymentMethods(ctx)
	if err != nil {
		return nil, fail(err)
	}
	out := make([]shop.Method, 0, len(list))
	for _, m := range list {
		name := strings.ToLower(m.Name)
		cod := strings.EqualFold(m.PaymentType.Code, "cod") || strings.Contains(name, "dobírk") ||
			strings.Contains(name, "dobirk") || strings.Contains(name, "cash on delivery")
		out = append(out, shop.Method{GUID: m.GUID, Name: m.Name, COD: cod})
	}
	return out, nil
}

// Order reads one order whole.
func (s *Source) Order(ctx context.Context, code string) (shop.Order, error) {
	o, err := s.c.Order(ctx, code)
	if err != nil {
		return shop.Order{}, fail(err)
	}
	return OrderOf(o), nil
}

// WriteTracking puts the tracking number on the order ("" clears it).
// Shoptet takes no link (its notes' write has no trackingUrl: it makes the
// order's tracking link itself from the shipping method's tracking URL), so
// trackingURL, our tracking page, is not sent.
func (s *Source) WriteTracking(ctx context.Context, code, trackingNumber, trackingURL string) error {
	return fail(s.c.SetTracking(ctx, code, trackingNumber))
}

// SetStatus moves the order to a status of the shop's.
func (s *Source) SetStatus(ctx context.Context, code string, statusID int, quiet bool) error {
	_, err := s.c.SetStatus(ctx, code, statusID, quiet)
	return fail(err)
}

// Changes are the orders changed since from (inclusive: the orders of
// that very second come again), oldest first, every page.
//
// Shoptet lists each order once, at its last change, so an order changed
// again while the pages are read moves to the end and the orders after its
// old place move one up: the first of the next page would slip onto a page
// already read. Such an order is seen twice with two times; the walk then
// reads again from the page it was first seen on. Nothing else costs a
// call more than the pages.
func (s *Source) Changes(ctx context.Context, from time.Time) ([]shop.Change, error) {
	const rewalks = 5
	type seen struct {
		at   int // index in out
		page int
	}
	var out []shop.Change
	byCode := map[string]seen{}
	again, rewalked := 0, 0
	for page := 1; ; page++ {
		list, err := s.c.Changes(ctx, from, page)
		if err != nil {
			return nil, fail(err)
		}
		for _, c := range list.Changes {
			ch := changeOf(c)
			if was, ok := byCode[ch.Code]; ok {
				if !out[was.at].Changed.Equal(ch.Changed) && (again == 0 || was.page < again) {
					again = was.page
				}
				out[was.at] = ch
				continue
			}
			byCode[ch.Code] = seen{at: len(out), page: page}
			out = append(out, ch)
		}
		if page < list.Paginator.PageCount && len(list.Changes) > 0 {
			continue
		}
		if again == 0 {
			break
		}
		if rewalked++; rewalked > rewalks {
			return nil, moving()
		}
		page, again = again-1, 0
	}
	sortChanges(out)
	return out, nil
}
