package shiprules

import (
	"slices"
	"strings"
)

func orElse(t *Text, key string) Text {
	if t != nil {
		return *t
	}
	return text(key)
}

// fails says which of the rule's conditions the shipment does not meet.
func (r Rule) fails(s Shipment) (Text, bool) {
	if !r.usable() {
		return text("rules.skip.invalid"), true
	}
	if len(r.Countries) > 0 && !r.Countries.has(s.Country) {
		if strings.TrimSpace(s.Country) == "" {
			return text("rules.skip.country_none"), true
		}
		return text("rules.skip.country", clip(strings.ToUpper(s.Country)), r.Countries.list()), true
	}
	switch {
	case r.COD == CODYes && !s.COD:
		return text("rules.skip.cod_yes"), true
	case r.COD == CODNo && s.COD:
		return text("rules.skip.cod_no"), true
	}
	if r.WeightMinKg != nil || r.WeightMaxKg != nil {
		w := s.WeightKg
		switch {
		case !finite(w) || w < 0:
			return text("rules.skip.weight_unknown"), true
		case r.WeightMinKg != nil && w < *r.WeightMinKg:
			return text("rules.skip.weight_below", w, *r.WeightMinKg), true
		case r.WeightMaxKg != nil && w > *r.WeightMaxKg:
			return text("rules.skip.weight_above", w, *r.WeightMaxKg), true
		}
	}
	if r.LongestMaxCm != nil {
		l := s.longest()
		switch {
		case !finite(l) || l <= 0:
			return text("rules.skip.size_unknown"), true
		case l > *r.LongestMaxCm:
			return text("rules.skip.longest_above", l, *r.LongestMaxCm), true
		}
	}
	if r.DimsSumMaxCm != nil {
		sum := s.dimsSum()
		switch {
		case !finite(sum) || sum <= 0:
			return text("rules.skip.size_unknown"), true
		case sum > *r.DimsSumMaxCm:
			return text("rules.skip.dims_sum_above", sum, *r.DimsSumMaxCm), true
		}
	}
	switch {
	case r.Delivery == DeliveryPoint && !s.toPoint():
		return text("rules.skip.to_door"), true
	case r.Delivery == DeliveryDoor && s.toPoint():
		return text("rules.skip.to_point"), true
	}
	return Text{}, false
}

// usable says whether a stored rule can be followed at all (Validate says
// more); one that cannot is passed over.
func (r Rule) usable() bool {
	for _, x := range []*float64{r.WeightMinKg, r.WeightMaxKg, r.LongestMaxCm, r.DimsSumMaxCm} {
		if x != nil && !finite(*x) {
			return false
		}
	}
	if !slices.Contains([]string{"", CODAny, CODYes, CODNo}, r.COD) ||
		!slices.Contains([]string{"", DeliveryAny, DeliveryPoint, DeliveryDoor}, r.Delivery) {
		return false
	}
	switch strings.TrimSpace(r.Choice) {
	case Cheapest, Fastest:
		return true
	case Named:
		return strings.TrimSpace(r.Carrier) != "" && (r.ServiceID > 0 || strings.TrimSpace(r.Service) != "")
	}
	return false
}
