package shipping

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"shipdesk/sandbox/apijson"
)

// maxReference is the longest own reference, in characters (public-evidence.md).
const maxReference = 255

var datePattern = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// problems collects field errors under a path prefix such as "shipments[0]".
type problems struct {
	prefix string
	list   []apijson.FieldError
}

func (p *problems) add(field string, msg apijson.Phrase, args ...any) {
	f := p.prefix
	if field != "" {
		if f != "" && !strings.HasPrefix(field, "[") {
			f += "."
		}
		f += field
	}
	p.list = append(p.list, apijson.Err(f, msg, args...))
}

func (p *problems) has(field string) bool {
	for _, e := range p.list {
		if strings.HasPrefix(e.Field, p.prefix+"."+field) {
			return true
		}
	}
	return false
}

// plan is a shipment request resolved against the catalog.
type plan struct {
	svc       *Svc
	handover  Handover
	labelMode string
	pickup    *Point // nil: no specific pickup point ('1' or none)
	delivery  *Point
	from      address
	cod       *codData
	insured   *money // insurance: the insured value
}

// checkCommon checks what does not depend on the service: type, date, addresses,
// packages and the service list. forRates relaxes what rates/get does not need.
func (s *Service) checkCommon(p *problems, acct *account, r *shipmentReq, forRates bool, now time.Time) address {
	normalize(r)
	switch r.Type {
	case "ONDEMAND", "REGULAR", "OCCASIONAL":
	case "":
		// Without a type: rates offers every pickup type, and a pickup point
		// given on create means hand-over there.
		if !forRates && !handsOverAtPoint(r) {
			p.add("type", msgTypeRequired)
		}
	default:
		p.add("type", msgTypeUnknown, r.Type)
	}
	if r.PickupDate != "" {
		d, err := time.ParseInLocation("2006-01-02", r.PickupDate, now.Location())
		today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
		switch {
		case !datePattern.MatchString(r.PickupDate) || err != nil:
			p.add("pickup_date", msgPickupDateShape)
		case d.Before(today):
			p.add("pickup_date", msgPickupDatePast)
		case d.After(today.AddDate(0, 0, 30)):
			p.add("pickup_date", msgPickupDateAhead)
		}
	}
	if len(r.Carrier) > 20 {
		p.add("carrier", msgCarrierLong)
	} else if r.Carrier != "" && s.carrier(r.Carrier) == nil {
		p.add("carrier", msgCarrierUnknown, r.Carrier)
	}
	if r.ServiceID != 0 && s.serviceByID[r.ServiceID] == nil {
		p.add("service_id", msgServiceUnknown, r.ServiceID)
	}
	// rates/get may name a point without a carrier: the carriers that have a
	// point of that code are offered, the others not selectable.
	if (r.PickupBranch != "" || r.DeliveryBranch != "") && r.Carrier == "" && !forRates {
		p.add("carrier", msgCarrierWithBranch)
	}
	if utf8.RuneCountInString(r.Reference) > maxReference {
		p.add("reference", msgReferenceMax, maxReference)
	}
	if len(r.Note) > 255 {
		p.add("note", msgNoteLong255)
	}

	from := r.From
	if r.From.ID != nil {
		if acct == nil {
			p.add("from.id", msgStoredNeedsKey)
		} else if c := acct.contact(*r.From.ID); c == nil {
			p.add("from.id", msgStoredUnknown, *r.From.ID)
		} else {
			from = c.address
		}
	} else {
		checkAddress(p, "from", r.From, forRates, false)
	}
	toPoint := r.DeliveryBranch != "" || r.DeliveryBranchLocation != 0
	checkAddress(p, "to", r.To, forRates, toPoint)

	if len(r.Packages) == 0 {
		p.add("packages", msgPackagesRequired)
	}
	if len(r.Packages) > 20 {
		p.add("packages", msgPackagesMax)
	}
	for i, k := range r.Packages {
		switch {
		case k.Weight <= 0:
			p.add(fmt.Sprintf("packages[%d].weight", i), msgWeightPositive)
		case k.Weight > 1000:
			p.add(fmt.Sprintf("packages[%d].weight", i), msgWeightMax)
		}
		for name, v := range map[string]float64{"width": k.Width, "height": k.Height, "length": k.Length} {
			if v < 0 || v > 600 {
				p.add(fmt.Sprintf("packages[%d].%s", i, name), msgDimension, name)
			}
		}
	}
	checkServiceCodes(p, r.Services)
	if acct != nil && !forRates {
		fillStoredBank(r.Services, acct.Bank)
	}
	return from
}

// normalize makes the parts clients spell in either case canonical: carrier
// codes are upper-case, as are the additional service codes (cod, COD, ins).
func normalize(r *shipmentReq) {
	r.Carrier = strings.ToUpper(r.Carrier)
	for i := range r.Services {
		r.Services[i].Code = strings.ToUpper(r.Services[i].Code)
	}
}

// handsOverAtPoint: a pickup point (by code, '1' or location) is given.
func handsOverAtPoint(r *shipmentReq) bool {
	return r.PickupBranch != "" || r.PickupBranchLocation != 0
}

func checkAddress(p *problems, field string, a address, forRates, toPoint bool) {
	served := recipientCountries
	if field == "from" {
		served = senderCountries
	}
	if forRates {
		if a.Country != "" && !slices.Contains(served, a.Country) {
			p.add(field+".country", msgCountryNotServed, a.Country, strings.Join(served, ", "))
		}
		// A checkout asks before it knows the whole postal code (the
		// Netherlands' "1011" for "1011 AB"): the shape is checked on
		// validate and create, here only that it could be one.
		if a.Zip != "" && !partialZip.MatchString(a.Zip) {
			p.add(field+".zip", msgZipPartial, maxZip)
		}
		return
	}
	if strings.TrimSpace(a.Firstname+a.Surname+a.Company) == "" {
		p.add(field+".surname", msgNameRequired)
	}
	switch {
	case a.Country == "":
		p.add(field+".country", msgCountryRequired)
	case !slices.Contains(served, a.Country):
		p.add(field+".country", msgCountryNotServed, a.Country, strings.Join(served, ", "))
	}
	if !toPoint {
		if strings.TrimSpace(a.Street) == "" {
			p.add(field+".street", msgStreetRequired)
		}
		if strings.TrimSpace(a.City) == "" {
			p.add(field+".city", msgCityRequired)
		}
		if a.Zip == "" && hasPostalCodes(a.Country) {
			p.add(field+".zip", msgZipRequired)
		}
	}
	checkZip(p, field, a)
	if a.Phone == "" && a.Email == "" {
		p.add(field+".phone", msgContactRequired)
	}
	if a.Email != "" && !strings.Contains(a.Email, "@") {
		p.add(field+".email", msgEmailInvalid)
	}
}

// defaultContact is the account's default sending address (the first one when
// none is marked). The caller holds the service's lock.
func (a *account) defaultContact() *contact {
	for i := range a.Contacts {
		if a.Contacts[i].Default {
			return &a.Contacts[i]
		}
	}
	return &a.Contacts[0]
}

func (a *account) contact(id int64) *contact {
	for i := range a.Contacts {
		if a.Contacts[i].ID == id {
			return &a.Contacts[i]
		}
	}
	return nil
}

// candidates are the services a request may use: the one named, the carrier's,
// or every service for rates.
func (s *Service) candidates(r *shipmentReq) []*Svc {
	if r.ServiceID != 0 {
		if sv := s.serviceByID[r.ServiceID]; sv != nil {
			return []*Svc{sv}
		}
		return nil
	}
	var out []*Svc
	for _, c := range s.carriers {
		if r.Carrier != "" && !strings.EqualFold(c.Code, r.Carrier) {
			continue
		}
		for i := range c.Services {
			out = append(out, &c.Services[i])
		}
	}
	return out
}

// chooseForCreate picks the service of a create request that names only a
// carrier: its point service when a delivery point is given, else its home one.
func (s *Service) chooseForCreate(r *shipmentReq) *Svc {
	cands := s.candidates(r)
	toPoint := r.DeliveryBranch != "" || r.DeliveryBranchLocation != 0
	for _, sv := range cands {
		if sv.ToPoint == toPoint {
			return sv
		}
	}
	if len(cands) > 0 {
		return cands[0]
	}
	return nil
}

// checkOffer checks a request against one service: hand-over and label mode,
// branches and locations, sizes, COD and the label-free conditions.
func (s *Service) checkOffer(p *problems, r *shipmentReq, from address, sv *Svc, forRates bool, currency string) plan {
	c := sv.carrier
	pl := plan{svc: sv, from: from}
	if r.Carrier != "" && !strings.EqualFold(r.Carrier, c.Code) {
		p.add("service_id", msgServiceNotOfCarrier, sv.ID, r.Carrier)
	}
	// Hand-over: at a point when a pickup point is named, else by pickup type.
	switch {
	case handsOverAtPoint(r):
		pl.handover = AtPoint
	case r.Type == "REGULAR" || r.Type == "OCCASIONAL":
		pl.handover = FromPickupAddress
	default:
		pl.handover = FromAddress
	}
	pl.labelMode = LabelMode(c.Group, pl.handover)
	if pl.labelMode == "" {
		switch pl.handover {
		case AtPoint:
			p.add("pickup_branch", msgNoPointHandover, c.Code)
		case FromPickupAddress:
			p.add("type", msgNoAddressPickup, c.Code, r.Type)
		default:
			p.add("type", msgNoOnDemand, c.Code)
		}
	}
	if to := r.To.Country; to != "" && !c.serves(to) {
		p.add("to.country", msgNoDelivery, c.Code, to)
	}

	// Points by code (within the carrier) or by location id (shared by carriers).
	if r.PickupBranch != "" && r.PickupBranch != AnyBranch {
		if pl.pickup = s.pointOf(c, r.PickupBranch); pl.pickup == nil {
			p.add("pickup_branch", msgPickupBranchUnknown, r.PickupBranch, c.Code)
		}
	}
	if r.PickupBranch == AnyBranch && !c.Points {
		p.add("pickup_branch", msgNoBranches, c.Code)
	}
	if r.PickupBranchLocation != 0 {
		pl.pickup = s.locationPoint(p, "pickup_branch_location", r.PickupBranchLocation, c)
	}
	if r.DeliveryBranch != "" {
		if pl.delivery = s.pointOf(c, r.DeliveryBranch); pl.delivery == nil {
			p.add("delivery_branch", msgDeliveryBranchOther, r.DeliveryBranch, c.Code)
		}
	}
	if r.DeliveryBranchLocation != 0 {
		pl.delivery = s.locationPoint(p, "delivery_branch_location", r.DeliveryBranchLocation, c)
	}
	wantsPoint := r.DeliveryBranch != "" || r.DeliveryBranchLocation != 0
	if sv.ToPoint && !wantsPoint && !forRates {
		p.add("delivery_branch", msgPointOnly, sv.Name)
	}
	if !sv.ToPoint && wantsPoint {
		p.add("delivery_branch", msgNoPoints, sv.Name)
	}
	if pl.delivery != nil && r.To.Country != "" && pl.delivery.Country != r.To.Country {
		p.add("delivery_branch", msgPointCountry, pl.delivery.Country, r.To.Country)
	}

	for i, k := range r.Packages {
		if k.Weight > sv.MaxWeight {
			p.add(fmt.Sprintf("packages[%d].weight", i), msgServiceWeight, sv.MaxWeight)
		}
		if pl.pickup != nil && !pl.pickup.fits(k.Length, k.Width, k.Height, k.Weight) {
			p.add(fmt.Sprintf("packages[%d]", i), msgTooBigPickup)
		}
		if pl.delivery != nil && !pl.delivery.fits(k.Length, k.Width, k.Height, k.Weight) {
			p.add(fmt.Sprintf("packages[%d]", i), msgTooBigDelivery)
		}
	}

	for i, svc := range r.Services {
		field := fmt.Sprintf("services[%d].data", i)
		switch svc.Code {
		case codeCOD:
			pl.cod = s.checkCOD(p, field, svc.Data, r, from, sv, forRates)
		case codeInsurance:
			pl.insured = checkInsurance(p, field, svc.Data, sv, currency)
		}
	}

	if r.LabelLess && !forRates {
		if c.Group != "G1" {
			p.add("label_less", msgLabelLessCarrier)
		}
		if len(r.Packages) != 1 {
			p.add("label_less", msgLabelLessPackages)
		}
		if from.Country != "CZ" || r.To.Country != "CZ" {
			p.add("label_less", msgLabelLessCountry)
		}
		if c.Group == "G1" && pl.handover != AtPoint {
			p.add("label_less", msgLabelLessPoint)
		}
		if c.Group == "G1" && pl.handover == AtPoint {
			pl.labelMode = "CODE"
		}
	}
	return pl
}

// locationPoint resolves a location id for a carrier: the location must exist
// and serve the carrier (the spec's validation error otherwise).
func (s *Service) locationPoint(p *problems, field string, id int64, c *Carrier) *Point {
	pts := s.pointsByLoc[id]
	if len(pts) == 0 {
		p.add(field, msgLocationUnknown, id)
		return nil
	}
	for _, pt := range pts {
		if pt.Carrier == c.Code {
			return pt
		}
	}
	p.add(field, msgLocationCarrier, id, c.Code)
	return nil
}
