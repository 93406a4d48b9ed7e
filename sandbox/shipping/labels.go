package shipping

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"time"

	"shipdesk/sandbox/apijson"
	"shipdesk/sandbox/labelpdf"
)

// lockOwned is the start of the operations that need a valid key and act on the
// account's own shipments (label, storno, manifest): on success the service is
// locked and the caller unlocks.
func (s *Service) lockOwned(w http.ResponseWriter, r *http.Request) (*account, numbersReq, []*shipment, time.Time, bool) {
	acct := s.accountOf(r)
	if acct == nil {
		apijson.WriteProblem(w, r, errUnauthorized)
		return nil, numbersReq{}, nil, time.Time{}, false
	}
	req, ok := s.numbers(w, r, MaxBatch)
	if !ok {
		return nil, req, nil, time.Time{}, false
	}
	s.mu.Lock()
	list, ok := s.owned(w, r, acct, req.Shipments)
	if !ok {
		s.mu.Unlock()
		return nil, req, nil, time.Time{}, false
	}
	return acct, req, list, s.clock.Now(), true
}

// owned finds the account's shipments; anything unknown or another account's is
// a 404, as the spec says for labels.
func (s *Service) owned(w http.ResponseWriter, r *http.Request, acct *account, numbers []string) ([]*shipment, bool) {
	var out []*shipment
	for _, tn := range numbers {
		sh := s.shipments[tn]
		if sh == nil || sh.Account != acct.Index {
			apijson.WriteProblem(w, r, apijson.Fail(http.StatusNotFound, msgShipmentNotFound, clip(tn)))
			return nil, false
		}
		out = append(out, sh)
	}
	return out, true
}

func (s *Service) label(w http.ResponseWriter, r *http.Request) {
	_, _, list, now, ok := s.lockOwned(w, r)
	if !ok {
		return
	}
	var pages []labelpdf.Page
	for _, sh := range list {
		switch st := s.status(sh, now); {
		case st == "CREATED":
			s.mu.Unlock()
			apijson.WriteProblem(w, r, apijson.Fail(http.StatusNotFound, msgNotExported, sh.TrackingNumber))
			return
		case sh.LabelMode == "CARRIER":
			s.mu.Unlock()
			apijson.WriteProblem(w, r, apijson.Invalid(apijson.Err("shipments", msgCarrierLabel, sh.TrackingNumber)))
			return
		case s.labelStatus(sh, now) == "FAILED":
			s.mu.Unlock()
			apijson.WriteProblem(w, r, apijson.Invalid(apijson.Err("shipments", msgLabelFailed, sh.TrackingNumber)))
			return
		case s.labelStatus(sh, now) != "READY":
			s.mu.Unlock()
			apijson.WriteProblem(w, r, apijson.Fail(http.StatusNotFound, msgLabelNotReady, sh.TrackingNumber))
			return
		}
		pages = append(pages, s.pages(sh, now)...)
	}
	for _, sh := range list {
		if sh.LabelFetched == nil {
			t := now
			sh.LabelFetched = &t
		}
	}
	s.mu.Unlock()
	for i := range pages {
		pages[i].Lang = apijson.DataLangOf(r)
	}
	pdf, err := s.cfg.Render(pages)
	if err != nil {
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusInternalServerError, msgLabelDraw))
		return
	}
	apijson.Write(w, r, http.StatusOK, msgLabels.With(len(list)), base64.StdEncoding.EncodeToString(pdf))
}

func (s *Service) pages(sh *shipment, now time.Time) []labelpdf.Page {
	c := s.carrier(sh.Carrier)
	if s.labelMode(sh, now) == "CODE" {
		pt := ""
		if p := s.pointByID[sh.PickupPoint]; p != nil {
			pt = p.Name
		}
		return []labelpdf.Page{{CodeSheet: &labelpdf.CodeSheet{
			TrackingNumber: sh.TrackingNumber, Carrier: c.Name, PackageNumber: sh.Packages[0].Number,
			Password: s.password(sh, 0, now), RecipientName: fullName(sh.Req.To), PickupBranch: pt,
		}}}
	}
	l := &labelpdf.Label{
		TrackingNumber: sh.TrackingNumber, Carrier: c.Name, CarrierGroup: c.Group, Service: s.serviceByID[sh.ServiceID].Name,
		From: printAddr(sh.From), To: printAddr(sh.Req.To), Reference: sh.Req.Reference, Created: sh.Created,
	}
	for _, k := range sh.Packages {
		l.Packages = append(l.Packages, labelpdf.Package{Number: k.Number, Weight: k.Weight})
	}
	if p := s.pointByID[sh.PickupPoint]; p != nil {
		l.PickupBranch = p.Code + " " + p.Name
	}
	if p := s.pointByID[sh.DeliveryPoint]; p != nil {
		l.DeliveryBranch = p.Code + " " + p.Name
		l.To.Street, l.To.City, l.To.Zip = p.Street, p.City, p.Zip
	}
	l.COD = serviceMoney(sh.Req.Services, codeCOD)
	l.Insured = serviceMoney(sh.Req.Services, codeInsurance)
	return []labelpdf.Page{{Label: l}}
}

func fullName(a address) string {
	n := strings.TrimSpace(a.Firstname + " " + a.Surname)
	if n == "" {
		return a.Company
	}
	return n
}

func printAddr(a address) labelpdf.Address {
	name := fullName(a)
	if a.Company != "" && name != a.Company {
		name = a.Company + ", " + name
	}
	return labelpdf.Address{Name: name, Street: a.Street, City: a.City, Zip: a.Zip, Country: a.Country, Phone: a.Phone, Email: a.Email}
}

func (s *Service) storno(w http.ResponseWriter, r *http.Request) {
	_, req, list, now, ok := s.lockOwned(w, r)
	if !ok {
		return
	}
	defer s.mu.Unlock()
	var errs []apijson.FieldError
	for i, sh := range list {
		if st := s.status(sh, now); st != "CREATED" && st != "EXPORTED" {
			errs = append(errs, apijson.Err(fmt.Sprintf("shipments[%d]", i), msgStornoState, sh.TrackingNumber, st))
		}
	}
	if len(errs) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(errs...))
		return
	}
	for _, sh := range list {
		t := now
		sh.Cancelled = &t
	}
	apijson.Write(w, r, http.StatusOK, msgCancelled.With(len(list)), map[string]any{"cancelled": req.Shipments})
}

func (s *Service) manifest(w http.ResponseWriter, r *http.Request) {
	acct, _, list, now, ok := s.lockOwned(w, r)
	if !ok {
		return
	}
	from := acct.defaultContact()
	m := labelpdf.Manifest{Account: from.Company, Sender: printAddr(from.address), Date: now, Lang: apijson.DataLangOf(r)}
	for _, sh := range list {
		if s.status(sh, now) == "CANCELLED" {
			s.mu.Unlock()
			apijson.WriteProblem(w, r, apijson.Invalid(apijson.Err("shipments", msgIsCancelled, sh.TrackingNumber)))
			return
		}
		weight := 0.0
		for _, k := range sh.Packages {
			weight += k.Weight
		}
		ms := labelpdf.ManifestShipment{TrackingNumber: sh.TrackingNumber, Carrier: s.carrier(sh.Carrier).Name,
			Recipient: printAddr(sh.Req.To), Packages: len(sh.Packages), Weight: weight, Reference: sh.Req.Reference, COD: serviceMoney(sh.Req.Services, codeCOD)}
		m.Shipments = append(m.Shipments, ms)
	}
	s.mu.Unlock()
	pdf, err := s.cfg.RenderManifest(m)
	if err != nil {
		apijson.WriteProblem(w, r, apijson.Fail(http.StatusInternalServerError, msgProtocolDraw))
		return
	}
	apijson.Write(w, r, http.StatusOK, msgProtocol.With(len(list)), base64.StdEncoding.EncodeToString(pdf))
}
