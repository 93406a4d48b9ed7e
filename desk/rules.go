package desk

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/shiprules"
	"shipdesk/textin"
)

// The managers' rules that choose an offer for a row of a batch live in
// shiprules, which knows nothing of the desk (so the desk may use it); these
// are the desk's side of it: the rules stored and edited through the desk,
// and the choice of an offer with the desk's own checks of an offer.

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

// RuleShipment is what the rules know of a filled-in form: where it goes,
// cash on delivery, the packages' total weight and largest sizes, and the
// point it is delivered to (whose, when the chosen offer delivers to points).
func RuleShipment(f Form) shiprules.Shipment {
	s := shiprules.Shipment{Country: f.To.Country, COD: f.COD, PointCode: f.DeliveryBranch}
	for _, p := range f.Packages {
		s.AddPackage(p.Weight, p.Length, p.Width, p.Height)
	}
	if f.DeliveryBranch != "" && f.Offer.DeliveryRequired {
		s.PointCarrier = f.Offer.Carrier
	}
	return s
}

// Limits of the rule form's fields beyond the rules' own.
const (
	maxRuleCodes   = 60 // checkboxes of one list
	maxRuleNumber  = 40 // characters of a typed number
	maxRuleService = 9  // digits of a service number
)

// ParseRule reads a manager's rule form: the name, the countries and
// carriers ticked, the options, and the numbers as people type them ("2,5").
// What cannot be read is a problem on its field; the rest is left to
// SaveRule's checks. id is the rule edited (0: a new one).
func ParseRule(v url.Values, id int64) (shiprules.Rule, apperr.Problems) {
	p := apperr.Problems{}
	fields := textin.NewFields(v, p)
	r := shiprules.Rule{ID: id,
		Name:     fields.Line("name", shiprules.MaxName),
		COD:      fields.Line("cod", 10),
		Delivery: fields.Line("delivery", 10),
		Choice:   fields.Line("choice", 10),
		Carrier:  fields.Line("carrier", shiprules.MaxCarrier),
		Service:  fields.Line("service", shiprules.MaxService),
	}
	r.Countries = ruleCodes(v["countries"], p, "countries", 2)
	r.Carriers = ruleCodes(v["carriers"], p, "carriers", shiprules.MaxCarrier)
	r.WeightMinKg = ruleNumber(fields, p, "weight_min_kg", shiprules.MaxWeightKg, "kg")
	r.WeightMaxKg = ruleNumber(fields, p, "weight_max_kg", shiprules.MaxWeightKg, "kg")
	r.LongestMaxCm = ruleNumber(fields, p, "longest_side_max_cm", shiprules.MaxSideCm, "cm")
	r.DimsSumMaxCm = ruleNumber(fields, p, "dims_sum_max_cm", shiprules.MaxDimsSumCm, "cm")
	if s := fields.Line("service_id", maxRuleNumber); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 || len(s) > maxRuleService {
			p.Add("service_id", "rules.problem.service_id")
		} else {
			r.ServiceID = n
		}
	}
	if r.Choice != shiprules.Named {
		// The named service's fields stay on the page for a later change of
		// mind; a rule that does not name a service does not keep them.
		r.Carrier, r.Service, r.ServiceID = "", "", 0
		delete(p, "carrier")
		delete(p, "service")
		delete(p, "service_id")
	} else {
		r.Carriers = nil
		delete(p, "carriers")
	}
	return r, p
}

func ruleCodes(values []string, p apperr.Problems, field string, limit int) shiprules.Codes {
	if len(values) > maxRuleCodes {
		p.Add(field, "shiprules.err.too_many")
		values = values[:maxRuleCodes]
	}
	var out shiprules.Codes
	for _, x := range values {
		code, problem := textin.Line(x, limit)
		if !problem.IsZero() {
			p.Put(field, problem)
			continue
		}
		if code != "" {
			out = append(out, code)
		}
	}
	return out
}

func ruleNumber(fields textin.Fields, p apperr.Problems, field string, limit float64, unit string) *float64 {
	s := fields.Line(field, maxRuleNumber)
	if s == "" {
		return nil
	}
	x, problem := textin.Decimal(s, textin.Range{OrEqual: true, Max: limit, Unit: unit})
	if !problem.IsZero() {
		p.Put(field, problem)
		return nil
	}
	return &x
}

// ruleProblems are the rules' problems as the form shows them.
func ruleProblems(rp shiprules.Problems) apperr.Problems {
	p := apperr.Problems{}
	for field, t := range rp {
		// The rules' limits are whole numbers: written plainly, they read the
		// same in both languages.
		p.Add(field, t.Key, t.ArgsWith(func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) })...)
	}
	return p
}

// CheckRule is what SaveRule would say of a rule, to show with the problems
// of reading its form.
func CheckRule(r shiprules.Rule) apperr.Problems { return ruleProblems(ValidateRule(r.Normalized())) }

// SaveRule checks a manager's rule and stores it: a new one after the
// others, an edited one in its place. It returns the rule's id.
func (d *Desk) SaveRule(ctx context.Context, r shiprules.Rule) (int64, error) {
	r = r.Normalized()
	if err := invalid(ruleProblems(ValidateRule(r))); err != nil {
		return 0, err
	}
	return d.db.SaveShipRule(ctx, r)
}

// DeleteRule removes a rule.
func (d *Desk) DeleteRule(ctx context.Context, id int64) error { return d.db.DeleteShipRule(ctx, id) }

// MoveRule moves a rule one place up (tried earlier) or down.
func (d *Desk) MoveRule(ctx context.Context, id int64, up bool) error {
	return d.db.MoveShipRule(ctx, id, up)
}

// ChooseOffer chooses the offer for a row by the managers' rules (and the
// clerk's pick in s.OverrideServiceID), with the desk's own checks of each
// offer. decision.Index is an index into offers.
func (d *Desk) ChooseOffer(ctx context.Context, s shiprules.Shipment, offers []Offer) (shiprules.Decision, error) {
	rules, err := d.db.ShipRules(ctx)
	if err != nil {
		return shiprules.Decision{Index: -1}, err
	}
	return d.RuleChooser(ctx, s).Choose(rules, s, RuleOffers(offers)), nil
}

// RuleChooser is the rules' chooser with the desk's checks for the row s: an
// offer handed over without a label must meet the label-free conditions the
// row and the carrier table can tell (the desk's LabelFreeBlockers, with the
// package handed over at a point as such offers are): the carrier takes
// label-free packages, the row goes from and to the Czech Republic. A carrier
// the table does not know is left to the service, as the form does. The
// reasons name carriers by the table's names.
func (d *Desk) RuleChooser(ctx context.Context, s shiprules.Shipment) shiprules.Chooser {
	carriers := map[string]Form{}
	if list, err := d.db.Carriers(ctx); err != nil {
		d.log.Warn("carriers for the rules", "err", err)
	} else {
		for _, c := range list {
			carriers[strings.ToUpper(c.Code)] = Form{Carrier: c}
		}
	}
	from := "CZ" // no sender known: the service decides
	if senders, err := d.db.Senders(ctx); err == nil && len(senders) > 0 && senders[0].Country != "" {
		from = senders[0].Country
	}
	name := func(code string) string { return carriers[strings.ToUpper(code)].Carrier.Name }
	return shiprules.Chooser{CarrierName: name, Eligible: func(o shiprules.Offer) (bool, shiprules.Text) {
		if !o.LabelFree {
			return true, shiprules.Text{}
		}
		f := carriers[strings.ToUpper(strings.TrimSpace(o.Carrier))]
		f.To.Country, f.Handover, f.Packages = strings.ToUpper(strings.TrimSpace(s.Country)), HandoverPoint, []Package{{}}
		for _, why := range f.LabelFreeBlockers(from) {
			return false, shiprules.Text{Key: labelFreeReasons[why.Key]} // none: the rules' own "cannot be used"
		}
		return true, shiprules.Text{}
	}}
}

// labelFreeReasons say the form's label-free problems as reasons an offer
// was not chosen.
var labelFreeReasons = map[string]string{
	"ship.err.label_free_carrier": "shiprules.offer.lf_carrier",
	"ship.err.lf_country":         "shiprules.offer.lf_country",
	"ship.err.lf_packages":        "shiprules.offer.lf_packages",
}
