// Package shiprules chooses the offer for a shipment by the managers' rules:
// rules tried in order, each with optional conditions (destination country,
// cash on delivery, weight, size, delivery to a point or to the door) and a
// choice (the cheapest offer, the fastest, or a named carrier's service). The
// first rule whose conditions hold and that finds an offer it may choose
// decides; every rule passed over and every offer not chosen says why, as a
// catalog key with arguments (i18n/messages/*/rules.json).
//
// Prices are compared with VAT and only in the shop's currency (CZK): an offer
// priced in another is not comparable and is left out of "cheapest" and
// "fastest". An offer that delivers to a point is a candidate only for a row
// with a point code (of its carrier, when the row says whose the point is).
// Ties: the cheapest at the same price delivers earlier, the fastest on the
// same day costs less, and a full tie goes to the lower service id. The
// clerk's pick of a service for a row (Shipment.OverrideServiceID) wins over
// the rules; when it cannot be had, nothing is chosen and the clerk picks again.
//
// The package is pure logic: no database, no HTTP, no upstream types. It
// imports nothing of the dashboard, so the shipping desk can use it (the desk
// converts its offers with desk.RuleOffers and passes desk.Countries to
// Rule.Validate).
package shiprules

import (
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// Limits of a rule as managers edit it.
const (
	MaxName       = 100  // characters of a rule's name
	MaxWeightKg   = 1000 // the heaviest shipment the desk accepts
	MaxSideCm     = 500  // the longest side of a package the desk accepts
	MaxDimsSumCm  = 1500 // length + width + height of such a package
	MaxCarrier    = 20   // characters of a carrier code (the service's limit)
	MaxService    = 100  // characters of a service's name
	ShopCurrency  = "CZK"
	maxCarrierSet = 50 // carriers in a restriction
)

// COD conditions: any shipment, only with cash on delivery, only without.
const (
	CODAny = "any"
	CODYes = "yes"
	CODNo  = "no"
)

// Delivery conditions: any shipment, only to a point (the row has a preferred
// point code), only to the door (it has none).
const (
	DeliveryAny   = "any"
	DeliveryPoint = "point"
	DeliveryDoor  = "door"
)

// Choices of a rule.
const (
	Cheapest = "cheapest" // the lowest price with VAT in the shop's currency; ties: earlier delivery
	Fastest  = "fastest"  // the earliest delivery date; ties: the lower price
	Named    = "service"  // the named carrier's service, when it is offered and may be chosen
)

// Rule is one of the managers' rules. Empty conditions hold for every
// shipment; all conditions given must hold. Weight and size limits include
// their bounds: a rule "from 2 kg to 5 kg" takes 2 kg and 5 kg, so where two
// rules meet, the one earlier in the order takes the shipment.
//
// The fields map one to one onto columns (db tags) and JSON (json tags); the
// two code lists are stored as JSON arrays (jsonb or text columns):
//
//	id bigint, name text, position integer, countries jsonb, cod text,
//	weight_min_kg double precision null, weight_max_kg double precision null,
//	longest_side_max_cm double precision null, dims_sum_max_cm double precision null,
//	delivery text, choice text, carriers jsonb, carrier text, service text, service_id integer
type Rule struct {
	ID       int64  `json:"id,omitempty" db:"id"`
	Name     string `json:"name" db:"name"`
	Position int    `json:"position" db:"position"` // rules are tried from the lowest position

	// Conditions.
	Countries    Codes    `json:"countries,omitempty" db:"countries"`                     // destination countries (ISO codes); none: any
	COD          string   `json:"cod,omitempty" db:"cod"`                                 // CODAny (or empty), CODYes, CODNo
	WeightMinKg  *float64 `json:"weight_min_kg,omitempty" db:"weight_min_kg"`             // total weight at least this
	WeightMaxKg  *float64 `json:"weight_max_kg,omitempty" db:"weight_max_kg"`             // total weight at most this
	LongestMaxCm *float64 `json:"longest_side_max_cm,omitempty" db:"longest_side_max_cm"` // no package side longer than this
	DimsSumMaxCm *float64 `json:"dims_sum_max_cm,omitempty" db:"dims_sum_max_cm"`         // no package's length + width + height over this
	Delivery     string   `json:"delivery,omitempty" db:"delivery"`                       // DeliveryAny (or empty), DeliveryPoint, DeliveryDoor
	Choice       string   `json:"choice" db:"choice"`                                     // Cheapest, Fastest, Named
	Carriers     Codes    `json:"carriers,omitempty" db:"carriers"`                       // cheapest/fastest among these carriers only; none: all
	Carrier      string   `json:"carrier,omitempty" db:"carrier"`                         // Named: the carrier's code
	Service      string   `json:"service,omitempty" db:"service"`                         // Named: the service's name as offered (when ServiceID is 0)
	ServiceID    int      `json:"service_id,omitempty" db:"service_id"`                   // Named: the service's id; names may change, ids do not
}

// Codes is a set of codes (countries, carriers), stored as a JSON array.
type Codes []string

// Value stores the codes as a JSON array; none as [].
func (c Codes) Value() (driver.Value, error) {
	if c == nil {
		return "[]", nil
	}
	b, err := json.Marshal([]string(c))
	return string(b), err
}

// Scan reads the codes from a JSON array; NULL is none.
func (c *Codes) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case nil:
		*c = nil
		return nil
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		return fmt.Errorf("shiprules: codes from %T", src)
	}
	var out []string
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Errorf("shiprules: codes: %w", err)
	}
	if len(out) == 0 {
		out = nil
	}
	*c = out
	return nil
}

// has says whether the codes hold code, without regard to case.
func (c Codes) has(code string) bool {
	code = strings.TrimSpace(code)
	return slices.ContainsFunc(c, func(x string) bool { return strings.EqualFold(strings.TrimSpace(x), code) })
}

// list writes codes for a message: "CZ, SK".
func (c Codes) list() string { return c.listAs(func(x string) string { return clip(x) }) }

// listAs is list with each code said by say.
func (c Codes) listAs(say func(string) string) string {
	out := make([]string, 0, min(len(c), 10))
	for _, x := range c[:min(len(c), 10)] {
		out = append(out, say(x))
	}
	if len(c) > 10 {
		out = append(out, "…")
	}
	return strings.Join(out, ", ")
}

// Normalized is the rule as it is best stored: the name and codes trimmed,
// country codes in capitals, carrier codes as typed, each code once, the
// "any" conditions spelled out.
func (r Rule) Normalized() Rule {
	r.Name = strings.TrimSpace(r.Name)
	r.Countries = normalCodes(r.Countries, strings.ToUpper)
	r.Carriers = normalCodes(r.Carriers, func(s string) string { return s })
	r.Carrier = strings.TrimSpace(r.Carrier)
	r.Service = strings.TrimSpace(r.Service)
	r.Choice = strings.TrimSpace(r.Choice)
	if r.COD == "" {
		r.COD = CODAny
	}
	if r.Delivery == "" {
		r.Delivery = DeliveryAny
	}
	return r
}

func normalCodes(c Codes, f func(string) string) Codes {
	var out Codes
	for _, x := range c {
		x = f(strings.TrimSpace(x))
		if x != "" && !out.has(x) {
			out = append(out, x)
		}
	}
	return out
}

// Problems maps a rule's fields (named as in JSON) to what is wrong with them,
// as catalog texts; the first problem of a field is the one kept.
type Problems map[string]Text

func (p Problems) add(field, key string, args ...any) {
	if _, seen := p[field]; !seen {
		p[field] = Text{Key: key, Args: args}
	}
}

// Err is nil without problems; else an error listing the fields, for logs.
func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	fields := make([]string, 0, len(p))
	for f := range p {
		fields = append(fields, f+": "+p[f].Key)
	}
	slices.Sort(fields)
	return errors.New("shiprules: invalid rule: " + strings.Join(fields, ", "))
}

// Validate checks a rule as a manager saves it (Normalized first); countries
// are the codes the shop ships to (desk.Countries). No problems: the rule may
// be stored.
func (r Rule) Validate(countries []string) Problems {
	p := Problems{}
	name := strings.TrimSpace(r.Name)
	switch {
	case name == "":
		p.add("name", "rules.problem.name_required")
	case !utf8.ValidString(name) || strings.ContainsFunc(name, isControl):
		p.add("name", "rules.problem.text")
	case utf8.RuneCountInString(name) > MaxName:
		p.add("name", "rules.problem.name_long", float64(MaxName))
	}
	for _, c := range r.Countries {
		if !slices.Contains(countries, strings.TrimSpace(c)) {
			p.add("countries", "rules.problem.country", clip(c))
		}
	}
	if !slices.Contains([]string{"", CODAny, CODYes, CODNo}, r.COD) {
		p.add("cod", "rules.problem.option")
	}
	if !slices.Contains([]string{"", DeliveryAny, DeliveryPoint, DeliveryDoor}, r.Delivery) {
		p.add("delivery", "rules.problem.option")
	}
	checkAmount(p, "weight_min_kg", r.WeightMinKg, MaxWeightKg, "rules.problem.weight_over")
	checkAmount(p, "weight_max_kg", r.WeightMaxKg, MaxWeightKg, "rules.problem.weight_over")
	if _, bad := p["weight_min_kg"]; !bad && r.WeightMinKg != nil && r.WeightMaxKg != nil && *r.WeightMinKg > *r.WeightMaxKg {
		p.add("weight_min_kg", "rules.problem.weight_order")
	}
	checkAmount(p, "longest_side_max_cm", r.LongestMaxCm, MaxSideCm, "rules.problem.size_over")
	checkAmount(p, "dims_sum_max_cm", r.DimsSumMaxCm, MaxDimsSumCm, "rules.problem.size_over")

	switch strings.TrimSpace(r.Choice) {
	case "":
		p.add("choice", "rules.problem.choice_required")
	case Cheapest, Fastest:
		if len(r.Carriers) > maxCarrierSet {
			p.add("carriers", "rules.problem.carriers_many", float64(maxCarrierSet))
		}
		for _, c := range r.Carriers {
			checkCarrier(p, "carriers", c)
		}
	case Named:
		if strings.TrimSpace(r.Carrier) == "" {
			p.add("carrier", "rules.problem.carrier_required")
		} else {
			checkCarrier(p, "carrier", r.Carrier)
		}
		service := strings.TrimSpace(r.Service)
		switch {
		case r.ServiceID < 0:
			p.add("service_id", "rules.problem.service_id")
		case service == "" && r.ServiceID == 0:
			p.add("service", "rules.problem.service_required")
		case !utf8.ValidString(service) || strings.ContainsFunc(service, isControl):
			p.add("service", "rules.problem.text")
		case utf8.RuneCountInString(service) > MaxService:
			p.add("service", "rules.problem.service_long", float64(MaxService))
		}
		if len(r.Carriers) > 0 {
			p.add("carriers", "rules.problem.carriers_named")
		}
	default:
		p.add("choice", "rules.problem.option")
	}
	return p
}

func checkAmount(p Problems, field string, x *float64, limit float64, over string) {
	switch {
	case x == nil:
	case math.IsNaN(*x) || math.IsInf(*x, 0):
		p.add(field, "rules.problem.number")
	case *x < 0:
		p.add(field, "rules.problem.negative")
	case *x > limit:
		p.add(field, over, limit)
	}
}

func checkCarrier(p Problems, field, code string) {
	code = strings.TrimSpace(code)
	switch {
	case code == "":
		p.add(field, "rules.problem.carrier_empty")
	case !utf8.ValidString(code) || strings.ContainsFunc(code, isControl):
		p.add(field, "rules.problem.text")
	case utf8.RuneCountInString(code) > MaxCarrier:
		p.add(field, "rules.problem.carrier_long", clip(code), float64(MaxCarrier))
	}
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || r == utf8.RuneError }

// clip keeps a typed value short and printable enough to quote in a message.
func clip(s string) string { return clipTo(s, 20) }

func clipTo(s string, n int) string {
	s = strings.ToValidUTF8(strings.TrimSpace(s), "")
	s = strings.Map(func(r rune) rune {
		if isControl(r) {
			return -1
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > n {
		s = string([]rune(s)[:n]) + "…"
	}
	return s
}
