package shipping

import (
	"fmt"
	"math"
	"net/http"
	"sort"
	"time"

	"shipdesk/sandbox/apijson"
)

// rateView is one offer as answered.
type rateView struct {
	Carrier                string `json:"carrier"`
	CarrierGroup           string `json:"carrier_group"`
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

func (s *Service) rates(w http.ResponseWriter, r *http.Request) {
	var req rateReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &req); p != nil {
		apijson.WriteProblem(w, p)
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
		p.add("currency", "Unknown currency %q: use CZK or EUR", currency)
	}
	s.mu.Lock()
	from := s.checkCommon(p, acct, &req.shipmentReq, true, now)
	s.mu.Unlock()
	if req.To.Country == "" {
		p.add("to.country", "The recipient's country is required")
	}
	if len(p.list) > 0 {
		apijson.WriteProblem(w, apijson.Invalid(p.list...))
		return
	}
	pickup := pickupDate(req.PickupDate, now)
	var out []rateView
	for _, sv := range s.candidates(&req.shipmentReq) {
		op := &problems{}
		pl := s.checkOffer(op, &req.shipmentReq, from, sv, true, currency)
		if LabelMode(sv.carrier.Group, pl.handover) == "" || !sv.carrier.serves(req.To.Country) {
			continue // not offered at all
		}
		price := s.price(sv, req.Packages, pl.cod != nil)
		if currency == "EUR" {
			price = math.Round(price/25*100) / 100
		}
		v := rateView{
			Carrier: sv.carrier.Code, CarrierGroup: sv.carrier.Group, Service: sv.Name, ServiceID: sv.ID,
			PickupDate: pickup.Format("2006-01-02"), DeliveryDate: addWorkdays(pickup, max(sv.TransitDays, 0)).Format("2006-01-02"),
			Price: money{price, currency}, PriceVAT: money{math.Round(price*121) / 100, currency},
			Selectable: len(op.list) == 0, LabelMode: pl.labelMode, DeliveryBranchRequired: sv.ToPoint,
			Printable: pl.labelMode != "CARRIER",
		}
		if pl.labelMode == "CODE" {
			v.LabelMode = "PRINT" // an offer never has CODE: label-free is chosen at order time
		}
		if len(op.list) > 0 {
			v.Reason = op.list[0].Message
		}
		out = append(out, v)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Price.Value < out[j].Price.Value })
	if out == nil {
		out = []rateView{}
	}
	apijson.WriteRaw(w, http.StatusOK, map[string]any{
		"status": http.StatusOK, "message": fmt.Sprintf("Found %d offers", len(out)), "rates": out,
	})
}

// price is deterministic: base, per kilogram, a COD fee.
func (s *Service) price(sv *Svc, pkgs []pkgReq, withCOD bool) float64 {
	p := 0.0
	for _, k := range pkgs {
		p += sv.BasePrice + sv.PerKg*math.Ceil(k.Weight)
	}
	if withCOD {
		p += 25
	}
	return math.Round(p*100) / 100
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
