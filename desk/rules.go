package desk

import "shipdesk/shiprules"

// The managers' rules that choose an offer for a row of a batch live in
// shiprules, which knows nothing of the desk (so the desk may use it); these
// are the desk's side of it.

// RuleOffers are the offers as the rules see them, in the same order: a
// decision's Index is an index into offers too.
func RuleOffers(offers []Offer) []shiprules.Offer {
	out := make([]shiprules.Offer, 0, len(offers))
	for _, o := range offers {
		out = append(out, shiprules.Offer{ServiceID: o.ServiceID, Carrier: o.Carrier, Service: o.Service, LabelMode: o.LabelMode,
			DeliveryRequired: o.DeliveryRequired, Price: shiprules.Money(o.Price), PriceVAT: shiprules.Money(o.PriceVAT),
			Delivery: o.Delivery, Selectable: o.Selectable, LabelFree: o.LabelFree})
	}
	return out
}

// ValidateRule checks a rule as a manager saves it, with the countries the
// shop ships to.
func ValidateRule(r shiprules.Rule) shiprules.Problems { return r.Validate(Countries) }
