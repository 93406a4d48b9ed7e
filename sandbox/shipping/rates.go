package shipping

import (
	"math"
	"net/http"
	"sort"
	"time"

	"shipdesk/cod"
	"shipdesk/sandbox/apijson"
)

// rateView is one offer as answered. CarrierGroup, Reason and Type are the
// sandbox's extras, set only in the documented shapes.
type rateView struct {
	Carrier                string `json:"carrier"`
	CarrierGroup           string `json:"carrier_group,omitempty"`
	Type                   string `json:"type,omitempty"`
	Service                string `json:"service"`
	ServiceID              int    `json:"service_id"`
	PickupDate             string `json:"pickup_date"`
	DeliveryDate           string `json:"delivery_date"`
	Price                  money  `json:"price"`
	PriceVAT               money  `json:"price_vat"`
	Selectable             bool   `json:"selectable"`
	Reason                 string `json:"reason,omitempty"`
	LabelMode              string `json:"label_mode"`
	DeliveryBranchRequired bool   `json:"delivery_branch_required"`
	Printable              bool   `json:"printable"` // deprecated: label_mode other than CARRIER
}

// OfferAtBranch is the offer type of a hand-over at a pickup point: on create
// send pickup_branch and omit type.
const OfferAtBranch = "BRANCH"

func (s *Service) rates(w http.ResponseWriter, r *http.Request) {
	var req rateReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	acct := s.accountOf(r) // optional: an invalid key is processed as unauthenticated
	now := s.clock.Now()
	currency := req.Currency
	if currency == "" {
		currency = "CZK"
	}
	p := &problems{}
	if currency != "CZK" && currency != "EUR" {
		p.add("currency", msgCurrencyUnknown, currency)
	}
	s.mu.Lock()
	from := s.checkCommon(p, acct, &req.shipmentReq, true, now)
	s.mu.Unlock()
	if req.To.Country == "" {
		p.add("to.country", msgRecipientCountry)
	}
	if len(p.list) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(p.list...))
		return
	}
	pickup := pickupDate(req.PickupDate, now)
	out := []rateView{}
	for _, sv := range s.candidates(&req.shipmentReq) {
		for _, variant := range offerVariants(&req.shipmentReq, sv) {
			if v, ok := s.offer(&variant, from, sv, currency, pickup, apijson.LangOf(r)); ok {
				out = append(out, v)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Price.Value < out[j].Price.Value })
	apijson.WriteRaw(w, r, http.StatusOK, map[string]any{
		"status": http.StatusOK, "message": msgFoundOffers.With(len(out)).In(apijson.LangOf(r)), "rates": out,
	})
}

// offerVariants are the hand-overs a request is priced for: the one its type
// or pickup point names; without either, each pickup type among ONDEMAND and
// REGULAR the carrier allows, or hand-over at a point for a carrier that takes
// packages only there.
func offerVariants(r *shipmentReq, sv *Svc) []shipmentReq {
	if r.Type != "" || handsOverAtPoint(r) {
		return []shipmentReq{*r}
	}
	var out []shipmentReq
	for _, typ := range []string{"ONDEMAND", "REGULAR"} {
		if LabelMode(sv.carrier.Group, handoverOf(typ)) != "" {
			v := *r
			v.Type = typ
			out = append(out, v)
		}
	}
	if len(out) == 0 && LabelMode(sv.carrier.Group, AtPoint) != "" {
		v := *r
		v.PickupBranch = AnyBranch
		out = append(out, v)
	}
	return out
}

func handoverOf(typ string) Handover {
	if typ == "REGULAR" || typ == "OCCASIONAL" {
		return FromPickupAddress
	}
	return FromAddress
}

// offer prices one service for one hand-over; false when it is not offered at
// all (the label-mode table says none, or the carrier does not deliver there).
func (s *Service) offer(r *shipmentReq, from address, sv *Svc, currency string, pickup time.Time, lang apijson.Lang) (rateView, bool) {
	op := &problems{}
	pl := s.checkOffer(op, r, from, sv, true, currency)
	if LabelMode(sv.carrier.Group, pl.handover) == "" || !sv.carrier.serves(r.To.Country) {
		return rateView{}, false
	}
	price := s.priceCZK(sv, r.Packages, pl, r.To.Country)
	if currency == "EUR" {
		price = math.Round(price/cod.EURRate*100) / 100
	}
	v := rateView{
		Carrier: sv.carrier.Code, Service: sv.Name, ServiceID: sv.ID,
		PickupDate: pickup.Format("2006-01-02"), DeliveryDate: addWorkdays(pickup, transitDays(sv, r.To.Country)).Format("2006-01-02"),
		Price: money{price, currency}, PriceVAT: money{math.Round(price*121) / 100, currency},
		Selectable: len(op.list) == 0, LabelMode: pl.labelMode, DeliveryBranchRequired: sv.ToPoint,
		Printable: pl.labelMode != "CARRIER",
	}
	if pl.labelMode == "CODE" {
		v.LabelMode = "PRINT" // an offer never has CODE: label-free is chosen at order time
	}
	if s.documented() {
		v.CarrierGroup = sv.carrier.Group
		v.Type = r.Type
		if pl.handover == AtPoint {
			v.Type = OfferAtBranch
		}
		if len(op.list) > 0 {
			v.Reason = op.list[0].In(lang).Message
		}
	}
	return v, true
}

// priceCZK is deterministic: base and per kilogram for each package, then a
// COD fee, the insurance and the surcharge for delivery abroad.
func (s *Service) priceCZK(sv *Svc, pkgs []pkgReq, pl plan, country string) float64 {
	p := 0.0
	for _, k := range pkgs {
		p += sv.BasePrice + sv.PerKg*math.Ceil(k.Weight)
	}
	if pl.cod != nil {
		p += 25
	}
	if pl.insured != nil {
		p += insurancePriceCZK(*pl.insured)
	}
	if d := destinationOf(country); d != nil {
		p += d.surchargeCZK
	}
	return math.Round(p*100) / 100
}

// transitDays are the working days from pickup to delivery.
func transitDays(sv *Svc, country string) int {
	days := max(sv.TransitDays, 0)
	if d := destinationOf(country); d != nil {
		days += d.extraDays
	}
	return days
}

func pickupDate(s string, now time.Time) time.Time {
	if d, err := time.ParseInLocation("2006-01-02", s, now.Location()); err == nil {
		return d
	}
	return addWorkdays(now, 1)
}

func addWorkdays(t time.Time, n int) time.Time {
	for n > 0 || t.Weekday() == time.Saturday || t.Weekday() == time.Sunday {
		t = t.AddDate(0, 0, 1)
		if t.Weekday() != time.Saturday && t.Weekday() != time.Sunday {
			n--
		}
	}
	return t
}
