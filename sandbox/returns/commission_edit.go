package returns

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"shipdesk/sandbox/apijson"
)

type editReq struct {
	ID                 int64     `json:"id"`
	Status             string    `json:"status"`
	ShipmentToCustomer *bool     `json:"shipment_to_customer"`
	Customer           *customer `json:"customer"`
	Reference          *string   `json:"reference"`
	Note               string    `json:"note"`
}

func (s *Service) edit(w http.ResponseWriter, r *http.Request) {
	acct := s.account(r)
	if acct < 0 {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	var req editReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.commissions[req.ID]
	if c == nil || c.Account != acct {
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusNotFound, msgNotFound, req.ID))
		return
	}
	now := s.clock.Now()
	c.settle(now)
	p := &problems{}
	wantsShipment := req.ShipmentToCustomer != nil && *req.ShipmentToCustomer
	if req.Status != "" {
		switch {
		case !slices.Contains(States, req.Status):
			p.add("status", msgStatusUnknownOf, req.Status, strings.Join(States, ", "))
		case req.Status == c.Status:
		case !slices.Contains(moves[c.Status], req.Status):
			p.add("status", msgCannotMove, c.Status, req.Status)
		case req.Status == "outgoing" && !wantsShipment:
			p.add("shipment_to_customer", msgOutgoingShipment)
		}
	}
	if wantsShipment && req.Status != "outgoing" {
		p.add("status", msgOutgoingTogether)
	}
	if req.Customer != nil && req.Customer.Email != "" && !emailPattern.MatchString(req.Customer.Email) {
		p.add("customer.email", msgEmailInvalid)
	}
	if len(req.Note) > 1000 {
		p.add("note", msgNoteLong)
	}
	if len(p.list) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(p.list...))
		return
	}
	if req.Customer != nil {
		mergeCustomer(&c.Customer, *req.Customer)
	}
	if req.Reference != nil {
		c.Reference = *req.Reference
	}
	if req.Status != "" && req.Status != c.Status {
		own := apijson.Phrase{}
		if req.Status == "outgoing" {
			c.ShipmentToCustomer = true
			c.outbound = now
			c.Shipments = append(c.Shipments, transport{Direction: "to_customer", TrackingNumber: fmt.Sprintf("RT%08dOUT", c.ID), Ordered: stamp(now)})
			own = noteOutgoing
		}
		c.move(req.Status, now, req.Note, own)
	}
	c.Updated = stamp(now)
	apijson.Write(w, r, http.StatusOK, msgUpdated.With(), c.in(apijson.DataLangOf(r)))
}

func mergeCustomer(dst *customer, src customer) {
	for _, f := range []struct {
		d *string
		v string
	}{{&dst.Name, src.Name}, {&dst.Email, src.Email}, {&dst.Phone, src.Phone},
		{&dst.Street, src.Street}, {&dst.City, src.City}, {&dst.Zip, src.Zip}, {&dst.Country, src.Country}} {
		if f.v != "" {
			*f.d = f.v
		}
	}
}
