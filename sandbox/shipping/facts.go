package shipping

import "strings"

// CarrierFact is what a dashboard must know of a carrier beyond its offers
// (the real service does not say it in any answer). The sandbox knows it of
// its own carriers, so a dashboard that runs on the sandbox can start with a
// filled carrier table instead of learning it.
type CarrierFact struct {
	Code      string
	Name      string
	LabelFree bool // the carrier takes label-free packages (the spec's G1)
	// CODPackages is the spec's rule on cash on delivery with several packages:
	// "single" (K1), "single_with_point" (K2), "single_to_sk" (K3) or "".
	CODPackages string
}

// CarrierFacts lists the facts of every carrier of the catalog.
func (s *Service) CarrierFacts() []CarrierFact {
	rules := map[string]string{"K1": "single", "K2": "single_with_point", "K3": "single_to_sk"}
	out := make([]CarrierFact, 0, len(s.carriers))
	for _, c := range s.carriers {
		out = append(out, CarrierFact{Code: strings.ToUpper(c.Code), Name: c.Name, LabelFree: c.Group == "G1", CODPackages: rules[c.CODGroup]})
	}
	return out
}
