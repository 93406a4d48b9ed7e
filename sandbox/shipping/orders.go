package shipping

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"shipdesk/sandbox/apijson"
)

// Payment types. INVOICE is for contract customers: in the sandbox the account
// of the first key has that right.
const (
	payCredit  = "CREDIT"
	payOnline  = "ONLINE"
	payInvoice = "INVOICE"
)

// invoiceAccount is the index of the account allowed to pay by invoice.
const invoiceAccount = 0

var errNoInvoice = apijson.Fail(http.StatusUnauthorized, msgNoInvoice)

// checkOrder validates a create or validate body and resolves each shipment. A
// refusal of the whole order (invoice without the right) comes as a problem;
// field errors as a list.
func (s *Service) checkOrder(acct *account, req *orderReq, now time.Time) ([]plan, []apijson.FieldError, *apijson.Problem) {
	p := &problems{}
	if acct == nil {
		// Without a valid key: not linked to an account, paid online, payer required.
		req.PaymentType = payOnline
		if req.Payer == nil || req.Payer.Email == "" || strings.TrimSpace(req.Payer.Firstname+req.Payer.Surname+req.Payer.Company) == "" {
			p.add("payer", msgPayerRequired)
		}
	}
	req.PaymentType = strings.ToUpper(req.PaymentType) // "invoice" as real modules send it
	switch req.PaymentType {
	case payCredit, payOnline:
	case payInvoice:
		if acct.Index != invoiceAccount {
			return nil, nil, errNoInvoice
		}
	case "":
		p.add("payment_type", msgPaymentRequired)
	default:
		p.add("payment_type", msgPaymentUnknown, req.PaymentType)
	}
	if req.Currency != "CZK" && req.Currency != "EUR" {
		p.add("currency", msgCurrency)
	}
	if len(req.Shipments) == 0 {
		p.add("shipments", msgShipmentsRequired)
	}
	if len(req.Shipments) > 50 {
		p.add("shipments", msgShipmentsMax)
	}
	var plans []plan
	for i := range req.Shipments {
		r := &req.Shipments[i]
		sp := &problems{prefix: fmt.Sprintf("shipments[%d]", i)}
		from := s.checkCommon(sp, acct, r, false, now)
		checkCustoms(sp, r)
		if r.Carrier == "" && r.ServiceID == 0 {
			sp.add("carrier", msgCarrierOrService)
		}
		var pl plan
		if sv := s.chooseForCreate(r); sv != nil && !sp.has("carrier") && !sp.has("service_id") {
			pl = s.checkOffer(sp, r, from, sv, false, req.Currency)
		}
		p.list = append(p.list, sp.list...)
		plans = append(plans, pl)
	}
	return plans, p.list, nil
}

// refuse writes the answer to a refused order; false when it is not refused.
func refuse(w http.ResponseWriter, r *http.Request, errs []apijson.FieldError, refusal *apijson.Problem) bool {
	switch {
	case refusal != nil:
		apijson.WriteProblem(w, r, refusal)
	case len(errs) > 0:
		apijson.WriteProblem(w, r, apijson.Invalid(errs...))
	default:
		return false
	}
	return true
}

func (s *Service) validate(w http.ResponseWriter, r *http.Request) {
	var req orderReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	s.mu.Lock()
	_, errs, refusal := s.checkOrder(s.accountOf(r), &req, s.clock.Now())
	s.mu.Unlock()
	if refuse(w, r, errs, refusal) {
		return
	}
	apijson.Write(w, r, http.StatusOK, msgOrderValid.With(), map[string]any{"valid": true, "shipments": len(req.Shipments)})
}

// create answers as the provider's published example: HTTP 200, the order token
// in order, its number in order_number, and the shipments.
func (s *Service) create(w http.ResponseWriter, r *http.Request) {
	var req orderReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	acct := s.accountOf(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock.Now()
	plans, errs, refusal := s.checkOrder(acct, &req, now)
	if refuse(w, r, errs, refusal) {
		return
	}
	o := s.newOrder(acct, req, now)
	created := []any{}
	for i, pl := range plans {
		sh := s.newShipment(o, req.Shipments[i], pl, now)
		o.Shipments = append(o.Shipments, sh.TrackingNumber)
		created = append(created, s.createdView(sh, now))
	}
	apijson.Write(w, r, http.StatusOK, msgOrderCreated.With(), map[string]any{
		"order": o.Token, "order_number": o.Number, "shipments": created,
	})
}

// newOrder stores a new order of acct (nil: no valid key), still without shipments.
func (s *Service) newOrder(acct *account, req orderReq, now time.Time) *order {
	s.nextOrder++
	o := &order{ID: s.nextOrder, Number: fmt.Sprintf("SO%08d", s.nextOrder), Token: randomToken(), Account: -1,
		Payment: req.PaymentType, Currency: req.Currency, Created: now}
	if acct != nil {
		o.Account = acct.Index
	}
	s.orders[o.ID] = o
	return o
}

// createdView is one created shipment: its tracking number in the minimal
// shapes (the provider's example), an object with the label facts otherwise.
func (s *Service) createdView(sh *shipment, now time.Time) any {
	if !s.documented() {
		return sh.TrackingNumber
	}
	pkgs := []map[string]any{}
	for i, k := range sh.Packages {
		pkgs = append(pkgs, map[string]any{"number": k.Number, "status": s.packageStatus(sh, i, now), "package_password": nil})
	}
	return map[string]any{
		"tracking_number": sh.TrackingNumber, "status": s.status(sh, now), "carrier": sh.Carrier, "service_id": sh.ServiceID,
		"label_mode": s.labelMode(sh, now), "label_status": s.labelStatus(sh, now), "package_password": nil,
		"packages": pkgs, "reference": sh.Req.Reference,
	}
}

func (s *Service) newShipment(o *order, r shipmentReq, pl plan, now time.Time) *shipment {
	s.nextShip++
	c := pl.svc.carrier
	// The code's letters and digits ("GLS-SK" gives "GLSSK…"): one word, as tracking numbers are.
	tn := fmt.Sprintf("%s%09d", strings.ReplaceAll(c.Code, "-", ""), 100000000+s.nextShip)
	b := s.behaviour[c.Code]
	sh := &shipment{
		TrackingNumber: tn, OrderID: o.ID, Account: o.Account, Created: now, Req: r, From: pl.from,
		Carrier: c.Code, ServiceID: pl.svc.ID, Handover: pl.handover, LabelMode: pl.labelMode,
		FailLabel: b.FailLabels, RefuseCode: b.RefuseLabelLess && pl.labelMode == "CODE",
		Returned: hash(tn)%10 == 3,
	}
	if pl.pickup != nil {
		sh.PickupPoint = pl.pickup.ID
	}
	if pl.delivery != nil {
		sh.DeliveryPoint = pl.delivery.ID
	}
	for i, k := range r.Packages {
		sh.Packages = append(sh.Packages, packageRec{Number: fmt.Sprintf("%s%02d", tn, i+1), Weight: k.Weight, Width: k.Width, Height: k.Height, Length: k.Length})
	}
	s.shipments[tn] = sh
	return sh
}
