package shipping

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"shipdesk/sandbox/apijson"
)

// Made is one shipment made by CreateMany, as the create call answers it.
type Made struct {
	TrackingNumber string
	Reference      string
	Carrier        string
	ServiceID      int
	OrderID        int64
	OrderNumber    string
	OrderToken     string
	LabelMode      string
	Packages       []string // package numbers, in order
}

// CreateMany makes n shipments at once for the account of key, each like the
// one shipment of body (a shipments/create body), its reference followed by
// "-1" … "-n". The order is checked once, as create checks it, and the
// shipments are made as create makes them, in orders of at most 50. The
// service has no such call: it lets benchmarks and tests start from many
// shipments without n calls over HTTP.
func (s *Service) CreateMany(key string, body []byte, n int) ([]Made, error) {
	var req orderReq
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, fmt.Errorf("create many: %w", err)
	}
	if len(req.Shipments) != 1 || n < 1 {
		return nil, errors.New("create many: give an order of one shipment and n ≥ 1")
	}
	var acct *account
	for i, k := range s.cfg.Keys {
		if k == key {
			acct = s.accounts[i]
		}
	}
	if acct == nil {
		return nil, errors.New("create many: unknown API key")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	plans, errs, refusal := s.checkOrder(acct, &req, now)
	if refusal != nil {
		return nil, fmt.Errorf("create many: refused: %s", refusal.Message)
	}
	if len(errs) > 0 {
		var b strings.Builder
		for _, e := range errs {
			fmt.Fprintf(&b, "; %s: %s", e.Field, e.In(apijson.English).Message)
		}
		return nil, fmt.Errorf("create many: invalid order%s", b.String())
	}
	const perOrder = 50
	out := make([]Made, 0, n)
	var o *order
	for i := range n {
		if i%perOrder == 0 {
			o = s.newOrder(acct, req, now)
		}
		r := req.Shipments[0]
		r.Reference = fmt.Sprintf("%s-%d", r.Reference, i+1)
		sh := s.newShipment(o, r, plans[0], now)
		o.Shipments = append(o.Shipments, sh.TrackingNumber)
		out = append(out, s.made(o, sh, now))
	}
	return out, nil
}

func (s *Service) made(o *order, sh *shipment, now time.Time) Made {
	m := Made{TrackingNumber: sh.TrackingNumber, Reference: sh.Req.Reference, Carrier: sh.Carrier, ServiceID: sh.ServiceID,
		OrderID: o.ID, OrderNumber: o.Number, OrderToken: o.Token, LabelMode: s.labelMode(sh, now)}
	for _, k := range sh.Packages {
		m.Packages = append(m.Packages, k.Number)
	}
	return m
}

// LabelsFetched records the labels of the account's shipments as fetched
// now, as shipments/label does on their first fetch, without drawing them: a
// courier takes a printed-label parcel only once its label was fetched.
// Like CreateMany, the service has no such call: it lets benchmarks and tests
// start from many shipments printed, without their PDFs.
func (s *Service) LabelsFetched(key string, numbers []string) error {
	var acct *account
	for i, k := range s.cfg.Keys {
		if k == key {
			acct = s.accounts[i]
		}
	}
	if acct == nil {
		return errors.New("labels fetched: unknown API key")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	for _, tn := range numbers {
		if sh := s.shipments[tn]; sh == nil || sh.Account != acct.Index {
			return fmt.Errorf("labels fetched: no shipment %s of this account", tn)
		}
	}
	for _, tn := range numbers {
		if sh := s.shipments[tn]; sh.LabelFetched == nil {
			t := now
			sh.LabelFetched = &t
		}
	}
	return nil
}
