package shoptet

import (
	"errors"
	"fmt"
	"sort"
)

// What the shop's own people and customers do, which its API cannot: tests
// and the sandbox's controls do it through these.

// Errors of the shop's own actions.
var (
	ErrNotFound = errors.New("no such order")
	ErrExists   = errors.New("an order with this code exists")
)

// AddOrder puts a new order into the shop as its checkout would, and tells
// the webhooks. Empty fields are filled: the next code, a GUID, now, the new
// status, CZK, item ids. Its texts, amounts and prices are kept exactly as
// given, however hostile. It returns the order's code.
func (s *Service) AddOrder(o Order) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	if o.Code == "" {
		s.seq++
		o.Code = fmt.Sprintf("%d%06d", now.Year(), 100+s.seq)
	}
	if s.orders[o.Code] != nil {
		return "", fmt.Errorf("order %s: %w", o.Code, ErrExists)
	}
	if o.GUID == "" {
		o.GUID = guid(s.cfg.Seed, o.Code)
	}
	if o.Created.IsZero() {
		o.Created = now
	}
	if o.Changed.IsZero() {
		o.Changed = o.Created
	}
	if o.Status == 0 {
		o.Status = StatusNew
	}
	if o.Currency == "" {
		o.Currency = "CZK"
	}
	for i := range o.Items {
		if o.Items[i].ID == 0 {
			s.nextItem++
			o.Items[i].ID = s.nextItem
		}
	}
	o.Deleted = false
	s.orders[o.Code] = &o
	s.emit("order:create", o.Code, now)
	return o.Code, nil
}

// UpdateOrder changes an order as the shop's staff would in its admin (an
// order that changes while it is being shipped), and tells the webhooks:
// order:update, order:cancel when it became cancelled, order:paid when it
// became paid.
func (s *Service) UpdateOrder(code string, change func(*Order)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.order(code)
	if o == nil {
		return fmt.Errorf("order %s: %w", code, ErrNotFound)
	}
	wasPaid, wasStatus := o.Paid != nil && *o.Paid, o.Status
	change(o)
	o.Code = code
	now := s.clock.Now()
	event := "order:update"
	if o.Status == StatusCancelled && wasStatus != StatusCancelled {
		event = "order:cancel"
	}
	s.touch(o, now, event)
	if !wasPaid && o.Paid != nil && *o.Paid {
		s.emit("order:paid", code, now)
	}
	return nil
}

// CancelOrder cancels an order as a customer's call to the shop does.
func (s *Service) CancelOrder(code string) error {
	return s.UpdateOrder(code, func(o *Order) { o.Status = StatusCancelled })
}

// DeleteOrder deletes an order: the API no longer has it, its change says delete.
func (s *Service) DeleteOrder(code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.order(code)
	if o == nil {
		return fmt.Errorf("order %s: %w", code, ErrNotFound)
	}
	o.Deleted = true
	s.touch(o, s.clock.Now(), "order:delete")
	return nil
}

// Order is a copy of the order as the shop keeps it (notes, status and
// history included); false when there is none.
func (s *Service) Order(code string) (Order, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp(s.clock.Now())
	o := s.order(code)
	if o == nil {
		return Order{}, false
	}
	return copyOrder(o), true
}

// Orders are copies of every live order, oldest first.
func (s *Service) Orders() []Order {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.catchUp(s.clock.Now())
	var out []Order
	for _, o := range s.orders {
		if !o.Deleted {
			out = append(out, copyOrder(o))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

func copyOrder(o *Order) Order {
	c := *o
	c.Items = append([]Item(nil), o.Items...)
	c.History = append([]History(nil), o.History...)
	if o.Delivery != nil {
		d := *o.Delivery
		c.Delivery = &d
	}
	if o.Point != nil {
		p := *o.Point
		c.Point = &p
	}
	if o.Paid != nil {
		p := *o.Paid
		c.Paid = &p
	}
	return c
}

// Open reports whether an order still waits in a status the shop counts open.
func Open(o Order) bool {
	switch o.Status {
	case StatusNew, StatusHandling, StatusAwaitPay, StatusReady:
		return true
	}
	return false
}
