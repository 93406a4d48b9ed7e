package shiprules

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Money is an amount in a currency, as an offer's price.
type Money struct {
	Value    float64 `json:"value"`
	Currency string  `json:"currency"`
}

// Offer is one of the service's offers for a shipment, as the rules see it
// (the desk's Offer, field for field: desk.RuleOffers converts).
type Offer struct {
	ServiceID        int    `json:"service_id"`
	Carrier          string `json:"carrier"`
	Service          string `json:"service"`
	LabelMode        string `json:"label_mode,omitempty"`
	DeliveryRequired bool   `json:"delivery_required,omitempty"` // the service delivers to a point: the row needs one
	Price            Money  `json:"price"`
	PriceVAT         Money  `json:"price_vat"`            // what the rules compare
	Delivery         string `json:"delivery,omitempty"`   // expected delivery date, YYYY-MM-DD
	Selectable       bool   `json:"selectable"`           // the service offers it for these details
	LabelFree        bool   `json:"label_free,omitempty"` // handed over without a label at a point (its code instead)
}

// Shipment is what the rules know of a row: where it goes, cash on delivery,
// weight and size, the point it is delivered to, and the clerk's own pick.
type Shipment struct {
	Country  string  `json:"country"`
	COD      bool    `json:"cod,omitempty"`
	WeightKg float64 `json:"weight_kg"` // all packages together
	// The largest length, width and height among the packages, and the
	// largest length + width + height of one package (0: the sum of the three).
	LengthCm  float64 `json:"length_cm,omitempty"`
	WidthCm   float64 `json:"width_cm,omitempty"`
	HeightCm  float64 `json:"height_cm,omitempty"`
	DimsSumCm float64 `json:"dims_sum_cm,omitempty"`
	// Delivery to a point: the row's preferred point (a code is unique only
	// within its carrier; PointCarrier, when known, is that carrier). A row
	// with a point code goes to a point; ToPoint says so without a code yet.
	ToPoint      bool   `json:"to_point,omitempty"`
	PointCode    string `json:"point_code,omitempty"`
	PointCarrier string `json:"point_carrier,omitempty"`
	// OverrideServiceID is the service the clerk picked for the row (0: none);
	// it wins over the rules.
	OverrideServiceID int `json:"override_service_id,omitempty"`
}

// AddPackage adds a package's weight to the total and keeps its sizes when
// they are the largest so far.
func (s *Shipment) AddPackage(weightKg, lengthCm, widthCm, heightCm float64) {
	s.WeightKg += weightKg
	s.LengthCm = max(s.LengthCm, lengthCm)
	s.WidthCm = max(s.WidthCm, widthCm)
	s.HeightCm = max(s.HeightCm, heightCm)
	s.DimsSumCm = max(s.DimsSumCm, lengthCm+widthCm+heightCm)
}

func (s Shipment) longest() float64 { return max(s.LengthCm, s.WidthCm, s.HeightCm) }

func (s Shipment) dimsSum() float64 {
	if s.DimsSumCm != 0 {
		return s.DimsSumCm
	}
	return s.LengthCm + s.WidthCm + s.HeightCm
}

func (s Shipment) toPoint() bool { return s.ToPoint || strings.TrimSpace(s.PointCode) != "" }

// Text is a text for a person: a catalog key (i18n/messages/*/rules.json) and
// its arguments, strings and float64 numbers. Every argument has a %s in the
// text: numbers are written in the reader's language first (ArgsWith).
type Text struct {
	Key  string `json:"key"`
	Args []any  `json:"args,omitempty"`
}

// ArgsWith is the arguments for the catalog, numbers written by number, e.g.
// func(x float64) string { return i18n.Number(ctx, x, shiprules.Decimals(x)) }.
func (t Text) ArgsWith(number func(float64) string) []any {
	out := make([]any, len(t.Args))
	for i, a := range t.Args {
		if x, ok := a.(float64); ok {
			out[i] = number(x)
		} else {
			out[i] = a
		}
	}
	return out
}

// Decimals is how many decimals (at most 3) write x without losing what a
// person typed: 2 → 0, 2.5 → 1, 0.125 → 3.
func Decimals(x float64) int {
	for d := 0; d < 3; d++ {
		p := math.Pow10(d)
		if math.Abs(math.Round(x*p)-x*p) < 1e-9*math.Max(1, math.Abs(x*p)) {
			return d
		}
	}
	return 3
}

func text(key string, args ...any) Text { return Text{Key: key, Args: args} }

// Attempt is a rule that was tried and did not choose, and why.
type Attempt struct {
	Rule   int    `json:"rule"` // index in the rules as given
	Name   string `json:"name"`
	Why    Text   `json:"why"`
	Detail *Text  `json:"detail,omitempty"` // the named offer's own reason, when it is offered but cannot be chosen
}

// Decision is the offer chosen for a row and how: by which rule or by the
// clerk, the rules passed over, and why each other offer was not chosen.
type Decision struct {
	Offer     *Offer       `json:"offer,omitempty"` // a copy of offers[Index]; nil: none chosen
	Index     int          `json:"index"`           // in the offers as given; -1: none
	Rule      *Rule        `json:"rule,omitempty"`  // a copy of the rule that chose
	Override  bool         `json:"override,omitempty"`
	Why       Text         `json:"why"`              // how it was chosen, or why nothing was
	Detail    *Text        `json:"detail,omitempty"` // the clerk's pick's own reason when it cannot be chosen
	Tried     []Attempt    `json:"tried,omitempty"`
	NotChosen map[int]Text `json:"not_chosen,omitempty"` // every other offer, by index
}

// Chooser chooses offers. The zero Chooser compares prices in the shop's
// currency and takes every offer the service says is selectable.
type Chooser struct {
	// Currency is the currency prices are compared in (ShopCurrency when
	// empty); offers priced in another are not compared.
	Currency string
	// Eligible is the desk's own checks of an offer for the row (for example
	// the label-free conditions); an offer it refuses is not a candidate, and
	// why is its reason (rules.offer.ineligible when it gives no key).
	Eligible func(Offer) (bool, Text)
	// CarrierName is a carrier as people know it, by the service's code for
	// it; the reasons name carriers so. Nil, or "" for a code: the code.
	CarrierName func(code string) string
}

// Choose chooses the offer for a shipment by the rules with the zero Chooser.
func Choose(rules []Rule, s Shipment, offers []Offer) Decision {
	return Chooser{}.Choose(rules, s, offers)
}

// ChooseWithOverride is Choose with the clerk's pick of a service for the row.
func ChooseWithOverride(rules []Rule, s Shipment, offers []Offer, serviceID int) Decision {
	s.OverrideServiceID = serviceID
	return Chooser{}.Choose(rules, s, offers)
}

// Choose chooses the offer for a shipment: the clerk's pick when there is one,
// else the first rule (by position, then as given) whose conditions hold and
// that finds an offer it may choose.
func (c Chooser) Choose(rules []Rule, s Shipment, offers []Offer) Decision {
	if c.Currency == "" {
		c.Currency = ShopCurrency
	}
	blocked := make([]*Text, len(offers)) // why an offer can be chosen by no rule; nil: it can
	for i, o := range offers {
		blocked[i] = c.blocker(o, s)
	}
	d := Decision{Index: -1}
	if s.OverrideServiceID != 0 {
		return c.override(d, s, offers, blocked)
	}
	order := make([]int, len(rules))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(rules[a].Position, rules[b].Position) })
	for _, ri := range order {
		r := rules[ri]
		if why, fails := r.fails(s); fails {
			d.Tried = append(d.Tried, Attempt{Rule: ri, Name: r.Name, Why: why})
			continue
		}
		pick, others, why, detail := c.apply(r, offers, blocked)
		if pick < 0 {
			d.Tried = append(d.Tried, Attempt{Rule: ri, Name: r.Name, Why: why, Detail: detail})
			continue
		}
		chosen, rule := offers[pick], r
		d.Offer, d.Index, d.Rule = &chosen, pick, &rule
		d.Why = text("rules.chosen.rule", clipTo(r.Name, MaxName))
		d.NotChosen = others
		return d
	}
	switch {
	case len(offers) == 0:
		d.Why = text("rules.none.no_offers")
	case len(rules) == 0:
		d.Why = text("rules.none.no_rules")
	default:
		d.Why = text("rules.none.no_match")
	}
	d.NotChosen = map[int]Text{}
	for i := range offers {
		d.NotChosen[i] = orElse(blocked[i], "rules.offer.no_rule")
	}
	return d
}

// override takes the clerk's pick: the first offer of that service that may
// be chosen; nothing when there is none (the rules are not asked instead).
func (c Chooser) override(d Decision, s Shipment, offers []Offer, blocked []*Text) Decision {
	d.Override = true
	id := strconv.Itoa(s.OverrideServiceID)
	d.Why = text("rules.none.override_missing", id)
	d.NotChosen = map[int]Text{}
	for i, o := range offers {
		switch {
		case o.ServiceID != s.OverrideServiceID:
			d.NotChosen[i] = orElse(blocked[i], "rules.offer.override_other")
		case blocked[i] != nil:
			d.NotChosen[i] = *blocked[i]
			if d.Offer == nil && d.Detail == nil {
				d.Why, d.Detail = text("rules.none.override_unavailable", id), blocked[i]
			}
		case d.Offer != nil:
			d.NotChosen[i] = text("rules.offer.duplicate")
		default:
			chosen := o
			d.Offer, d.Index, d.Detail = &chosen, i, nil
			d.Why = text("rules.chosen.override")
		}
	}
	if d.Offer != nil {
		delete(d.NotChosen, d.Index)
	}
	return d
}

// blocker is why no rule may choose the offer for the shipment; nil if one may.
func (c Chooser) blocker(o Offer, s Shipment) *Text {
	var why Text
	switch {
	case !o.Selectable:
		why = text("rules.offer.not_selectable")
	case !finite(o.PriceVAT.Value) || o.PriceVAT.Value < 0 || !finite(o.Price.Value):
		why = text("rules.offer.no_price")
	case o.DeliveryRequired && strings.TrimSpace(s.PointCode) == "":
		why = text("rules.offer.needs_point")
	case o.DeliveryRequired && strings.TrimSpace(s.PointCarrier) != "" && !strings.EqualFold(strings.TrimSpace(s.PointCarrier), strings.TrimSpace(o.Carrier)):
		why = text("rules.offer.point_carrier", c.carrier(s.PointCarrier))
	case c.Eligible != nil:
		ok, reason := c.Eligible(o)
		if ok {
			return nil
		}
		why = reason
		if why.Key == "" {
			why = text("rules.offer.ineligible")
		}
	default:
		return nil
	}
	return &why
}

// carrier is a carrier's code said as people know the carrier.
func (c Chooser) carrier(code string) string {
	if c.CarrierName != nil {
		if name := c.CarrierName(strings.TrimSpace(code)); name != "" {
			return clip(name)
		}
	}
	return clip(code)
}

// carriers is a rule's carriers said by their names.
func (c Chooser) carriers(codes Codes) string { return codes.listAs(c.carrier) }
