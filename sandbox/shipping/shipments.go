package shipping

import (
	"fmt"
	"time"

	"shipdesk/sandbox/apijson"
)

// view is a shipment as answered to acct (nil: no valid key). Owner-only fields
// go to the owner; package_password also to whoever gives the order token.
func (s *Service) view(sh *shipment, acct *account, tokens []string, now time.Time, withTracking bool, lang apijson.Lang) map[string]any {
	owner := acct != nil && acct.Index == sh.Account
	o := s.orders[sh.OrderID]
	tokenOK := false
	for _, t := range tokens {
		if t != "" && t == o.Token {
			tokenOK = true
		}
	}
	pkgs := []map[string]any{}
	for i, k := range sh.Packages {
		pm := map[string]any{"number": k.Number, "status": s.packageStatus(sh, i, now), "package_password": nil,
			"carrier_tracking": carrierTracking(sh, i)}
		if pw := s.password(sh, i, now); pw != "" && (owner || tokenOK) {
			pm["package_password"] = pw
		}
		if owner {
			pm["weight"], pm["width"], pm["height"], pm["length"] = k.Weight, k.Width, k.Height, k.Length
		}
		pkgs = append(pkgs, pm)
	}
	st := s.labelStatus(sh, now)
	v := map[string]any{
		"tracking_number": sh.TrackingNumber,
		"status":          s.status(sh, now),
		"carrier":         sh.Carrier,
		"label_mode":      s.labelMode(sh, now),
		"label_status":    st,
		"labels_ready":    st == "READY", // deprecated: use label_status
		"packages":        pkgs,
		"order_date":      apijson.Stamp(o.Created),
		"delivery_date":   s.deliveryDate(sh, now).Format("2006-01-02"),
	}
	if owner {
		v["label_less"] = s.labelLess(sh, now) // deprecated as an indicator: use label_mode CODE
		v["service_id"] = sh.ServiceID
		if sh.Req.Type != "" { // absent for a hand-over at a point ordered without a type
			v["type"] = sh.Req.Type
		}
		v["pickup_date"] = pickupDate(sh.Req.PickupDate, sh.Created).Format("2006-01-02")
		v["reference"] = sh.Req.Reference
		v["from"] = sh.From
		v["to"] = sh.Req.To
		v["services"] = sh.Req.Services
		if sh.Req.Services == nil {
			v["services"] = []serviceReq{}
		}
		if s.documented() {
			v["order"] = map[string]any{"id": o.ID, "number": o.Number, "payment_type": o.Payment, "paid": o.Payment != payOnline || o.PaidAt != nil}
			v["created"] = apijson.Stamp(sh.Created)
		}
		if p := s.pointByID[sh.PickupPoint]; p != nil {
			v["pickup_branch"] = p.Code
		} else if sh.Req.PickupBranch != "" {
			v["pickup_branch"] = sh.Req.PickupBranch
		}
		if p := s.pointByID[sh.DeliveryPoint]; p != nil {
			v["delivery_branch"] = p.Code
		}
	}
	if withTracking {
		v["tracking_information"] = s.trackingOf(sh, now, lang)
	}
	return v
}

// deliveryDate is the day the last package was delivered, or the expected day
// while one is still on its way.
func (s *Service) deliveryDate(sh *shipment, now time.Time) time.Time {
	if s.status(sh, now) == "DELIVERED" {
		var last time.Time
		for i := range sh.Packages {
			if evs := s.packageEvents(sh, i, now); len(evs) > 0 {
				if d, err := time.Parse("2006-01-02", evs[0].Date); err == nil && d.After(last) {
					last = d
				}
			}
		}
		return last
	}
	pickup := pickupDate(sh.Req.PickupDate, sh.Created)
	return addWorkdays(pickup, transitDays(s.serviceByID[sh.ServiceID], sh.Req.To.Country))
}

// carrierTracking is the carrier's own number of package i: digits, unlike our
// package number, which starts with the carrier code.
func carrierTracking(sh *shipment, i int) string {
	return fmt.Sprintf("%010d%02d", hash(sh.TrackingNumber+"#carrier"), i+1)
}

func (s *Service) trackingOf(sh *shipment, now time.Time, lang apijson.Lang) map[string]any {
	pk := [][]event{}
	for i := range sh.Packages {
		evs := s.packageEvents(sh, i, now)
		for j := range evs {
			evs[j] = evs[j].in(lang)
		}
		pk = append(pk, evs)
	}
	return map[string]any{"status": s.status(sh, now), "returned": s.returnedAt(sh, now), "packages": pk}
}
