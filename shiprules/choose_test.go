package shiprules

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"shipdesk/i18n"
)

func kg(x float64) *float64 { return &x }

// offer is a selectable offer priced in crowns.
func offer(id int, carrier string, price float64, delivery string) Offer {
	return Offer{ServiceID: id, Carrier: carrier, Service: fmt.Sprintf("%s %d", carrier, id), LabelMode: "PRINT",
		Price: Money{Value: price / 1.21, Currency: "CZK"}, PriceVAT: Money{Value: price, Currency: "CZK"},
		Delivery: delivery, Selectable: true}
}

func unselectable(o Offer) Offer    { o.Selectable = false; return o }
func toPoint(o Offer) Offer         { o.DeliveryRequired = true; return o }
func priced(o Offer, m Money) Offer { o.PriceVAT = m; return o }
func dated(o Offer, d string) Offer { o.Delivery = d; return o }

// parcel is a 2 kg, 30 × 20 × 10 cm shipment to a Czech door without COD.
func parcel(change ...func(*Shipment)) Shipment {
	s := Shipment{Country: "CZ"}
	s.AddPackage(2, 30, 20, 10)
	for _, c := range change {
		c(&s)
	}
	return s
}

func weighing(w float64) func(*Shipment) { return func(s *Shipment) { s.WeightKg = w } }
func withCOD(s *Shipment)                { s.COD = true }
func to(country string) func(*Shipment)  { return func(s *Shipment) { s.Country = country } }
func atPoint(code string) func(*Shipment) {
	return func(s *Shipment) { s.PointCode = code }
}

func cheapest(name string) Rule { return Rule{Name: name, Choice: Cheapest} }
func fastest(name string) Rule  { return Rule{Name: name, Choice: Fastest} }
func namedService(name, carrier, service string) Rule {
	return Rule{Name: name, Choice: Named, Carrier: carrier, Service: service}
}

// with changes a rule.
func with(r Rule, change func(*Rule)) Rule { change(&r); return r }

// Three ordinary offers: A cheapest and slowest, B in the middle, C dearest and fastest.
var abc = []Offer{
	offer(1, "A", 100, "2026-11-26"),
	offer(2, "B", 150, "2026-11-25"),
	offer(3, "C", 200, "2026-11-24"),
}

type chooseCase struct {
	name    string
	chooser Chooser
	rules   []Rule
	ship    Shipment
	offers  []Offer

	pick      int              // the index chosen, -1 none
	rule      string           // the name of the rule that chose ("" none)
	override  bool             // the clerk's pick
	why       string           // Decision.Why's key
	detail    string           // Decision.Detail's key, if any
	tried     []string         // the keys of the attempts, in order
	notChosen map[int]string   // keys by offer; checked when given
	tryDetail map[int]string   // Tried[i].Detail keys, when given
	args      map[string][]any // args of the texts with these keys, when given
}

func refuseCarrier(carrier, key string) Chooser {
	return Chooser{Eligible: func(o Offer) (bool, Text) {
		if o.Carrier == carrier {
			return false, Text{Key: key}
		}
		return true, Text{}
	}}
}

// naming knows carriers B and C by their names, as the desk's carrier table does.
var naming = Chooser{CarrierName: func(code string) string {
	return map[string]string{"B": "Beta", "C": "Gamma"}[strings.ToUpper(code)]
}}

var chooseCases = []chooseCase{
	// Each condition alone.
	{name: "country in the rule's set", rules: []Rule{with(cheapest("SK"), func(r *Rule) { r.Countries = Codes{"SK", "PL"} })},
		ship: parcel(to("SK")), offers: abc, pick: 0, rule: "SK", why: "rules.chosen.rule",
		notChosen: map[int]string{1: "rules.offer.pricier", 2: "rules.offer.pricier"}},
	{name: "country written in small letters", rules: []Rule{with(cheapest("SK"), func(r *Rule) { r.Countries = Codes{"SK"} })},
		ship: parcel(to(" sk ")), offers: abc, pick: 0, rule: "SK", why: "rules.chosen.rule"},
	{name: "country not in the rule's set", rules: []Rule{with(cheapest("SK"), func(r *Rule) { r.Countries = Codes{"SK", "PL"} })},
		ship: parcel(), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.country"},
		notChosen: map[int]string{0: "rules.offer.no_rule", 1: "rules.offer.no_rule", 2: "rules.offer.no_rule"},
		args:      map[string][]any{"rules.skip.country": {"CZ", "SK, PL"}}},
	{name: "row without a country", rules: []Rule{with(cheapest("SK"), func(r *Rule) { r.Countries = Codes{"SK"} })},
		ship: parcel(to("")), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.country_none"}},
	{name: "COD yes with COD", rules: []Rule{with(cheapest("COD"), func(r *Rule) { r.COD = CODYes })},
		ship: parcel(withCOD), offers: abc, pick: 0, rule: "COD", why: "rules.chosen.rule"},
	{name: "COD yes without COD", rules: []Rule{with(cheapest("COD"), func(r *Rule) { r.COD = CODYes })},
		ship: parcel(), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.cod_yes"}},
	{name: "COD no with COD", rules: []Rule{with(cheapest("no COD"), func(r *Rule) { r.COD = CODNo })},
		ship: parcel(withCOD), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.cod_no"}},
	{name: "COD no without COD", rules: []Rule{with(cheapest("no COD"), func(r *Rule) { r.COD = CODNo })},
		ship: parcel(), offers: abc, pick: 0, rule: "no COD", why: "rules.chosen.rule"},
	{name: "COD any", rules: []Rule{with(cheapest("any"), func(r *Rule) { r.COD = CODAny })},
		ship: parcel(withCOD), offers: abc, pick: 0, rule: "any", why: "rules.chosen.rule"},

	{name: "weight at the minimum is in", rules: []Rule{with(cheapest("2-5"), func(r *Rule) { r.WeightMinKg, r.WeightMaxKg = kg(2), kg(5) })},
		ship: parcel(weighing(2)), offers: abc, pick: 0, rule: "2-5", why: "rules.chosen.rule"},
	{name: "weight at the maximum is in", rules: []Rule{with(cheapest("2-5"), func(r *Rule) { r.WeightMinKg, r.WeightMaxKg = kg(2), kg(5) })},
		ship: parcel(weighing(5)), offers: abc, pick: 0, rule: "2-5", why: "rules.chosen.rule"},
	{name: "weight just under the minimum", rules: []Rule{with(cheapest("2-5"), func(r *Rule) { r.WeightMinKg, r.WeightMaxKg = kg(2), kg(5) })},
		ship: parcel(weighing(1.999)), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.weight_below"},
		args: map[string][]any{"rules.skip.weight_below": {1.999, 2.0}}},
	{name: "weight just over the maximum", rules: []Rule{with(cheapest("2-5"), func(r *Rule) { r.WeightMinKg, r.WeightMaxKg = kg(2), kg(5) })},
		ship: parcel(weighing(5.001)), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.weight_above"},
		args: map[string][]any{"rules.skip.weight_above": {5.001, 5.0}}},
	{name: "weight not known meets no weight limit", rules: []Rule{with(cheapest("up to 5"), func(r *Rule) { r.WeightMaxKg = kg(5) })},
		ship: parcel(weighing(math.NaN())), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.weight_unknown"}},
	{name: "only a maximum", rules: []Rule{with(cheapest("up to 5"), func(r *Rule) { r.WeightMaxKg = kg(5) })},
		ship: parcel(weighing(0.1)), offers: abc, pick: 0, rule: "up to 5", why: "rules.chosen.rule"},
	{name: "only a minimum", rules: []Rule{with(cheapest("30 and more"), func(r *Rule) { r.WeightMinKg = kg(30) })},
		ship: parcel(weighing(29.9)), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.weight_below"}},
	{name: "a minimum and max equal take exactly that weight", rules: []Rule{with(cheapest("3"), func(r *Rule) { r.WeightMinKg, r.WeightMaxKg = kg(3), kg(3) })},
		ship: parcel(weighing(3)), offers: abc, pick: 0, rule: "3", why: "rules.chosen.rule"},

	{name: "longest side at the limit", rules: []Rule{with(cheapest("small"), func(r *Rule) { r.LongestMaxCm = kg(30) })},
		ship: parcel(), offers: abc, pick: 0, rule: "small", why: "rules.chosen.rule"},
	{name: "longest side over the limit", rules: []Rule{with(cheapest("small"), func(r *Rule) { r.LongestMaxCm = kg(29.5) })},
		ship: parcel(), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.longest_above"},
		args: map[string][]any{"rules.skip.longest_above": {30.0, 29.5}}},
	{name: "the longest side of any package counts", rules: []Rule{with(cheapest("small"), func(r *Rule) { r.LongestMaxCm = kg(40) })},
		ship: parcel(func(s *Shipment) { s.AddPackage(1, 10, 45, 10) }), offers: abc, pick: -1, why: "rules.none.no_match",
		tried: []string{"rules.skip.longest_above"}},
	{name: "sum of dimensions at the limit", rules: []Rule{with(cheapest("sum"), func(r *Rule) { r.DimsSumMaxCm = kg(60) })},
		ship: parcel(), offers: abc, pick: 0, rule: "sum", why: "rules.chosen.rule"},
	{name: "sum of dimensions over the limit", rules: []Rule{with(cheapest("sum"), func(r *Rule) { r.DimsSumMaxCm = kg(59) })},
		ship: parcel(), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.dims_sum_above"},
		args: map[string][]any{"rules.skip.dims_sum_above": {60.0, 59.0}}},
	{name: "the sum is of one package, not of the largest sides", rules: []Rule{with(cheapest("sum"), func(r *Rule) { r.DimsSumMaxCm = kg(65) })},
		ship: parcel(func(s *Shipment) { s.AddPackage(1, 10, 45, 10) }), offers: abc, pick: 0, rule: "sum", why: "rules.chosen.rule"},
	{name: "size unknown meets no size limit", rules: []Rule{with(cheapest("small"), func(r *Rule) { r.LongestMaxCm = kg(100) })},
		ship: Shipment{Country: "CZ", WeightKg: 1}, offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.size_unknown"}},

	{name: "point rule, row with a point", rules: []Rule{with(cheapest("point"), func(r *Rule) { r.Delivery = DeliveryPoint })},
		ship: parcel(atPoint("Z-123")), offers: abc, pick: 0, rule: "point", why: "rules.chosen.rule"},
	{name: "point rule, row to the door", rules: []Rule{with(cheapest("point"), func(r *Rule) { r.Delivery = DeliveryPoint })},
		ship: parcel(), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.to_door"}},
	{name: "door rule, row with a point", rules: []Rule{with(cheapest("door"), func(r *Rule) { r.Delivery = DeliveryDoor })},
		ship: parcel(atPoint("Z-123")), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.to_point"}},
	{name: "door rule, row to the door", rules: []Rule{with(cheapest("door"), func(r *Rule) { r.Delivery = DeliveryDoor })},
		ship: parcel(), offers: abc, pick: 0, rule: "door", why: "rules.chosen.rule"},

	// Order.
	{name: "the first matching rule wins", rules: []Rule{cheapest("first"), fastest("second")},
		ship: parcel(), offers: abc, pick: 0, rule: "first", why: "rules.chosen.rule"},
	{name: "position orders the rules, not the list", rules: []Rule{
		with(cheapest("later"), func(r *Rule) { r.Position = 2 }), with(fastest("earlier"), func(r *Rule) { r.Position = 1 })},
		ship: parcel(), offers: abc, pick: 2, rule: "earlier", why: "rules.chosen.rule",
		notChosen: map[int]string{0: "rules.offer.slower", 1: "rules.offer.slower"}},
	{name: "a rule whose conditions fail passes to the next", rules: []Rule{
		with(namedService("SK by C", "C", "C 3"), func(r *Rule) { r.Countries = Codes{"SK"} }), cheapest("otherwise")},
		ship: parcel(), offers: abc, pick: 0, rule: "otherwise", why: "rules.chosen.rule", tried: []string{"rules.skip.country"}},

	// Fall-through.
	{name: "named service not offered: the next rule", rules: []Rule{namedService("D", "D", "Express"), cheapest("otherwise")},
		ship: parcel(), offers: abc, pick: 0, rule: "otherwise", why: "rules.chosen.rule", tried: []string{"rules.skip.named_missing"},
		args: map[string][]any{"rules.skip.named_missing": {"D", "Express"}}},
	{name: "named service by id not offered", rules: []Rule{with(namedService("B 9", "B", ""), func(r *Rule) { r.ServiceID = 9 })},
		ship: parcel(), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.named_id_missing"},
		args: map[string][]any{"rules.skip.named_id_missing": {"B", "9"}}},
	{name: "named service offered but not selectable: the next rule", rules: []Rule{namedService("C", "C", "C 3"), cheapest("otherwise")},
		ship: parcel(), offers: []Offer{abc[0], abc[1], unselectable(abc[2])}, pick: 0, rule: "otherwise", why: "rules.chosen.rule",
		tried: []string{"rules.skip.named_unavailable"}, tryDetail: map[int]string{0: "rules.offer.not_selectable"},
		notChosen: map[int]string{1: "rules.offer.pricier", 2: "rules.offer.not_selectable"}},
	{name: "named service by id offered but refused by the desk", chooser: refuseCarrier("B", ""),
		rules: []Rule{with(namedService("B 2", "B", ""), func(r *Rule) { r.ServiceID = 2 })}, ship: parcel(), offers: abc, pick: -1,
		why: "rules.none.no_match", tried: []string{"rules.skip.named_id_unavailable"}, tryDetail: map[int]string{0: "rules.offer.ineligible"},
		args: map[string][]any{"rules.skip.named_id_unavailable": {"B", "2"}}},
	{name: "named service by name, any case and spacing", rules: []Rule{namedService("C", " c ", "  c 3 ")},
		ship: parcel(), offers: abc, pick: 2, rule: "C", why: "rules.chosen.rule",
		notChosen: map[int]string{0: "rules.offer.not_named", 1: "rules.offer.not_named"}},
	{name: "named service by id wins over its name", rules: []Rule{with(namedService("B", "B", "whatever it is called now"), func(r *Rule) { r.ServiceID = 2 })},
		ship: parcel(), offers: abc, pick: 1, rule: "B", why: "rules.chosen.rule"},
	{name: "named service of another carrier with the same id is not it", rules: []Rule{with(namedService("A 2", "A", ""), func(r *Rule) { r.ServiceID = 2 })},
		ship: parcel(), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.named_id_missing"}},
	{name: "named service offered twice: the first selectable", rules: []Rule{with(namedService("B", "B", ""), func(r *Rule) { r.ServiceID = 2 })},
		ship: parcel(), offers: []Offer{unselectable(abc[1]), abc[1], abc[1]}, pick: 1, rule: "B", why: "rules.chosen.rule",
		notChosen: map[int]string{0: "rules.offer.not_selectable", 2: "rules.offer.duplicate"}},
	{name: "named service priced in another currency is still taken", rules: []Rule{namedService("C", "C", "C 3")},
		ship: parcel(), offers: []Offer{abc[0], priced(abc[2], Money{Value: 8, Currency: "EUR"})}, pick: 1, rule: "C", why: "rules.chosen.rule"},
	{name: "cheapest with no selectable offer: the next rule", rules: []Rule{cheapest("cheapest"), namedService("C", "C", "C 3")},
		ship: parcel(), offers: []Offer{unselectable(abc[0]), unselectable(abc[1])}, pick: -1, why: "rules.none.no_match",
		tried: []string{"rules.skip.no_offer", "rules.skip.named_missing"}},
	{name: "cheapest among carriers", rules: []Rule{with(cheapest("B or C"), func(r *Rule) { r.Carriers = Codes{"b", "C"} })},
		ship: parcel(), offers: abc, pick: 1, rule: "B or C", why: "rules.chosen.rule",
		notChosen: map[int]string{0: "rules.offer.carrier_excluded", 2: "rules.offer.pricier"},
		args:      map[string][]any{"rules.offer.carrier_excluded": {"b, C"}}},
	{name: "fastest among carriers none of which can be chosen: the next rule", rules: []Rule{
		with(fastest("D or E"), func(r *Rule) { r.Carriers = Codes{"D", "E"} }), fastest("fastest")},
		ship: parcel(), offers: abc, pick: 2, rule: "fastest", why: "rules.chosen.rule", tried: []string{"rules.skip.no_offer_carriers"}},
	{name: "fastest without any delivery date: the next rule", rules: []Rule{fastest("fastest"), cheapest("cheapest")},
		ship: parcel(), offers: []Offer{dated(abc[0], ""), dated(abc[1], "tomorrow")}, pick: 0, rule: "cheapest", why: "rules.chosen.rule",
		tried: []string{"rules.skip.no_offer_dated"}, notChosen: map[int]string{1: "rules.offer.pricier"}},
	{name: "fastest leaves undated offers out", rules: []Rule{fastest("fastest")},
		ship: parcel(), offers: []Offer{dated(abc[2], ""), abc[1]}, pick: 1, rule: "fastest", why: "rules.chosen.rule",
		notChosen: map[int]string{0: "rules.offer.no_date"}},
	{name: "an incomplete rule is passed over", rules: []Rule{{Name: "no choice"}, namedService("no carrier", "", "X"), cheapest("complete")},
		ship: parcel(), offers: abc, pick: 0, rule: "complete", why: "rules.chosen.rule", tried: []string{"rules.skip.invalid", "rules.skip.invalid"}},

	// Nothing.
	{name: "no rules", ship: parcel(), offers: abc, pick: -1, why: "rules.none.no_rules",
		notChosen: map[int]string{0: "rules.offer.no_rule", 1: "rules.offer.no_rule", 2: "rules.offer.no_rule"}},
	{name: "no offers", rules: []Rule{cheapest("cheapest"), fastest("fastest")}, ship: parcel(), pick: -1, why: "rules.none.no_offers",
		tried: []string{"rules.skip.no_offer", "rules.skip.no_offer"}},
	{name: "no rule matches: offers keep their own reasons", rules: []Rule{with(cheapest("SK"), func(r *Rule) { r.Countries = Codes{"SK"} })},
		ship: parcel(), offers: []Offer{unselectable(abc[0]), toPoint(abc[1]), abc[2]}, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.country"},
		notChosen: map[int]string{0: "rules.offer.not_selectable", 1: "rules.offer.needs_point", 2: "rules.offer.no_rule"}},

	// The clerk's pick.
	{name: "override wins over the rules", rules: []Rule{cheapest("cheapest")}, ship: parcel(func(s *Shipment) { s.OverrideServiceID = 3 }),
		offers: abc, pick: 2, override: true, why: "rules.chosen.override",
		notChosen: map[int]string{0: "rules.offer.override_other", 1: "rules.offer.override_other"}},
	{name: "override even when no rule applies", ship: parcel(func(s *Shipment) { s.OverrideServiceID = 2 }),
		offers: abc, pick: 1, override: true, why: "rules.chosen.override"},
	{name: "override not offered any more: nothing, the rules are not asked", rules: []Rule{cheapest("cheapest")},
		ship: parcel(func(s *Shipment) { s.OverrideServiceID = 9 }), offers: abc, pick: -1, override: true, why: "rules.none.override_missing",
		args: map[string][]any{"rules.none.override_missing": {"9"}}},
	{name: "override not selectable", rules: []Rule{cheapest("cheapest")},
		ship: parcel(func(s *Shipment) { s.OverrideServiceID = 3 }), offers: []Offer{abc[0], unselectable(abc[2])}, pick: -1, override: true,
		why: "rules.none.override_unavailable", detail: "rules.offer.not_selectable",
		notChosen: map[int]string{0: "rules.offer.override_other", 1: "rules.offer.not_selectable"}},
	{name: "override offered twice, the first not selectable", ship: parcel(func(s *Shipment) { s.OverrideServiceID = 2 }),
		offers: []Offer{unselectable(abc[1]), abc[1], abc[1], unselectable(abc[1])}, pick: 1, override: true, why: "rules.chosen.override",
		notChosen: map[int]string{0: "rules.offer.not_selectable", 2: "rules.offer.duplicate", 3: "rules.offer.not_selectable"}},
	{name: "override needing a point the row lacks", ship: parcel(func(s *Shipment) { s.OverrideServiceID = 3 }),
		offers: []Offer{abc[0], toPoint(abc[2])}, pick: -1, override: true, why: "rules.none.override_unavailable", detail: "rules.offer.needs_point"},

	// Ties.
	{name: "cheapest: same price, the earlier delivery", rules: []Rule{cheapest("cheapest")}, ship: parcel(),
		offers: []Offer{offer(1, "A", 100, "2026-11-26"), offer(2, "B", 100, "2026-11-25"), offer(3, "C", 100, "")}, pick: 1, rule: "cheapest",
		why: "rules.chosen.rule", notChosen: map[int]string{0: "rules.offer.slower_same_price", 2: "rules.offer.slower_same_price"}},
	{name: "cheapest: prices equal to the cent", rules: []Rule{cheapest("cheapest")}, ship: parcel(),
		offers: []Offer{offer(1, "A", 100.004, "2026-11-26"), offer(2, "B", 99.996, "2026-11-25")}, pick: 1, rule: "cheapest",
		why: "rules.chosen.rule", notChosen: map[int]string{0: "rules.offer.slower_same_price"}},
	{name: "fastest: same day, the cheaper", rules: []Rule{fastest("fastest")}, ship: parcel(),
		offers: []Offer{offer(1, "A", 120, "2026-11-24"), offer(2, "B", 110, "2026-11-24"), offer(3, "C", 90, "2026-11-25")}, pick: 1, rule: "fastest",
		why: "rules.chosen.rule", notChosen: map[int]string{0: "rules.offer.pricier_same_date", 2: "rules.offer.slower"}},
	{name: "full tie: the lower service id, whatever the order", rules: []Rule{cheapest("cheapest")}, ship: parcel(),
		offers: []Offer{offer(7, "A", 100, "2026-11-24"), offer(4, "B", 100, "2026-11-24"), offer(5, "C", 100, "2026-11-24")}, pick: 1, rule: "cheapest",
		why: "rules.chosen.rule", notChosen: map[int]string{0: "rules.offer.tie", 2: "rules.offer.tie"}},
	{name: "full tie for the fastest too", rules: []Rule{fastest("fastest")}, ship: parcel(),
		offers: []Offer{offer(7, "A", 100, "2026-11-24"), offer(4, "B", 100, "2026-11-24")}, pick: 1, rule: "fastest",
		why: "rules.chosen.rule", notChosen: map[int]string{0: "rules.offer.tie"}},
	{name: "the same offer twice: the first", rules: []Rule{cheapest("cheapest")}, ship: parcel(),
		offers: []Offer{abc[1], abc[1]}, pick: 0, rule: "cheapest", why: "rules.chosen.rule", notChosen: map[int]string{1: "rules.offer.duplicate"}},

	// Currencies.
	{name: "a cheaper number in euros is not compared", rules: []Rule{cheapest("cheapest")}, ship: parcel(),
		offers: []Offer{priced(abc[0], Money{Value: 5, Currency: "EUR"}), abc[1]}, pick: 1, rule: "cheapest", why: "rules.chosen.rule",
		notChosen: map[int]string{0: "rules.offer.currency"}, args: map[string][]any{"rules.offer.currency": {"EUR", "CZK"}}},
	{name: "only euros: the next rule", rules: []Rule{fastest("fastest"), namedService("A", "A", "A 1")}, ship: parcel(),
		offers: []Offer{priced(abc[0], Money{Value: 5, Currency: "EUR"}), priced(abc[1], Money{Value: 6, Currency: "EUR"})}, pick: 0, rule: "A",
		why: "rules.chosen.rule", tried: []string{"rules.skip.no_offer_priced"}},
	{name: "the shop's currency in small letters", rules: []Rule{cheapest("cheapest")}, ship: parcel(),
		offers: []Offer{priced(abc[1], Money{Value: 1, Currency: "czk"}), abc[0]}, pick: 0, rule: "cheapest", why: "rules.chosen.rule"},
	{name: "no price or a broken one", rules: []Rule{cheapest("cheapest")}, ship: parcel(),
		offers: []Offer{priced(abc[0], Money{Value: 1}), priced(abc[1], Money{Value: -1, Currency: "CZK"}), abc[2]}, pick: 2, rule: "cheapest",
		why: "rules.chosen.rule", notChosen: map[int]string{0: "rules.offer.no_price", 1: "rules.offer.no_price"}},
	{name: "another shop currency", chooser: Chooser{Currency: "EUR"}, rules: []Rule{cheapest("cheapest")}, ship: parcel(),
		offers: []Offer{abc[0], priced(abc[1], Money{Value: 6, Currency: "EUR"})}, pick: 1, rule: "cheapest", why: "rules.chosen.rule",
		notChosen: map[int]string{0: "rules.offer.currency"}},

	// Points.
	{name: "an offer needing a point is out without one", rules: []Rule{cheapest("cheapest")}, ship: parcel(),
		offers: []Offer{toPoint(abc[0]), abc[1]}, pick: 1, rule: "cheapest", why: "rules.chosen.rule",
		notChosen: map[int]string{0: "rules.offer.needs_point"}},
	{name: "wanting a point without its code is not enough", rules: []Rule{with(cheapest("point"), func(r *Rule) { r.Delivery = DeliveryPoint })},
		ship: parcel(func(s *Shipment) { s.ToPoint = true }), offers: []Offer{toPoint(abc[0]), abc[1]}, pick: 1, rule: "point", why: "rules.chosen.rule",
		notChosen: map[int]string{0: "rules.offer.needs_point"}},
	{name: "an offer needing a point is in with one", rules: []Rule{cheapest("cheapest")}, ship: parcel(atPoint("Z-1")),
		offers: []Offer{toPoint(abc[0]), abc[1]}, pick: 0, rule: "cheapest", why: "rules.chosen.rule"},
	{name: "the row's point belongs to another carrier", rules: []Rule{cheapest("cheapest")},
		ship: parcel(atPoint("Z-1"), func(s *Shipment) { s.PointCarrier = "B" }), offers: []Offer{toPoint(abc[0]), toPoint(abc[1])}, pick: 1,
		rule: "cheapest", why: "rules.chosen.rule", notChosen: map[int]string{0: "rules.offer.point_carrier"},
		args: map[string][]any{"rules.offer.point_carrier": {"B"}}},

	// Carriers named as people know them.
	{name: "the excluded carriers by their names", chooser: naming, rules: []Rule{with(cheapest("B, C or Q"), func(r *Rule) { r.Carriers = Codes{"b", "C", "Q"} })},
		ship: parcel(), offers: abc, pick: 1, rule: "B, C or Q", why: "rules.chosen.rule",
		notChosen: map[int]string{0: "rules.offer.carrier_excluded", 2: "rules.offer.pricier"},
		args:      map[string][]any{"rules.offer.carrier_excluded": {"Beta, Gamma, Q"}}},
	{name: "the point's carrier by its name", chooser: naming, rules: []Rule{cheapest("cheapest")},
		ship: parcel(atPoint("Z-1"), func(s *Shipment) { s.PointCarrier = "B" }), offers: []Offer{toPoint(abc[0]), toPoint(abc[1])}, pick: 1,
		rule: "cheapest", why: "rules.chosen.rule", notChosen: map[int]string{0: "rules.offer.point_carrier"},
		args: map[string][]any{"rules.offer.point_carrier": {"Beta"}}},
	{name: "the named service's carrier by its name", chooser: naming, rules: []Rule{namedService("C", "c", "Express"), cheapest("otherwise")},
		ship: parcel(), offers: abc, pick: 0, rule: "otherwise", why: "rules.chosen.rule", tried: []string{"rules.skip.named_missing"},
		args: map[string][]any{"rules.skip.named_missing": {"Gamma", "Express"}}},
	{name: "an unnamed carrier by its code", chooser: naming, rules: []Rule{with(namedService("D 9", "D", ""), func(r *Rule) { r.ServiceID = 9 })},
		ship: parcel(), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.named_id_missing"},
		args: map[string][]any{"rules.skip.named_id_missing": {"D", "9"}}},

	// The desk's own checks.
	{name: "the eligibility hook's reason", chooser: refuseCarrier("A", "ship.offer_not_possible"), rules: []Rule{cheapest("cheapest")},
		ship: parcel(), offers: abc, pick: 1, rule: "cheapest", why: "rules.chosen.rule",
		notChosen: map[int]string{0: "ship.offer_not_possible", 2: "rules.offer.pricier"}},
	{name: "the eligibility hook without a key", chooser: refuseCarrier("C", ""), rules: []Rule{namedService("C", "C", "C 3")},
		ship: parcel(), offers: abc, pick: -1, why: "rules.none.no_match", tried: []string{"rules.skip.named_unavailable"},
		tryDetail: map[int]string{0: "rules.offer.ineligible"}},
	{name: "the hook is not asked about unselectable offers", chooser: Chooser{Eligible: func(Offer) (bool, Text) { panic("asked") }},
		ship: parcel(), offers: []Offer{unselectable(abc[0])}, pick: -1, why: "rules.none.no_rules"},
}

func keysOf(tried []Attempt) []string {
	out := []string{}
	for _, a := range tried {
		out = append(out, a.Why.Key)
	}
	return out
}

// textsOf lists every text of a decision.
func textsOf(d Decision) []Text {
	out := []Text{d.Why}
	if d.Detail != nil {
		out = append(out, *d.Detail)
	}
	for _, a := range d.Tried {
		out = append(out, a.Why)
		if a.Detail != nil {
			out = append(out, *a.Detail)
		}
	}
	for _, i := range slices.Sorted(maps.Keys(d.NotChosen)) {
		out = append(out, d.NotChosen[i])
	}
	return out
}

func TestChoose(t *testing.T) {
	for _, c := range chooseCases {
		t.Run(c.name, func(t *testing.T) {
			d := c.chooser.Choose(c.rules, c.ship, c.offers)
			if d.Index != c.pick {
				t.Fatalf("chose %d, want %d (why %v, tried %v, not chosen %v)", d.Index, c.pick, d.Why, d.Tried, d.NotChosen)
			}
			if c.pick >= 0 && (d.Offer == nil || *d.Offer != c.offers[c.pick]) {
				t.Fatalf("offer %+v, want %+v", d.Offer, c.offers[c.pick])
			}
			if c.pick < 0 && d.Offer != nil {
				t.Fatalf("offer %+v with no index", d.Offer)
			}
			switch {
			case c.rule == "" && d.Rule != nil:
				t.Errorf("rule %q chose", d.Rule.Name)
			case c.rule != "" && (d.Rule == nil || d.Rule.Name != c.rule):
				t.Errorf("rule %v chose, want %q", d.Rule, c.rule)
			}
			if d.Override != c.override {
				t.Errorf("override %v", d.Override)
			}
			if d.Why.Key != c.why {
				t.Errorf("why %v, want %s", d.Why, c.why)
			}
			if got := ""; d.Detail != nil || c.detail != "" {
				if d.Detail != nil {
					got = d.Detail.Key
				}
				if got != c.detail {
					t.Errorf("detail %q, want %q", got, c.detail)
				}
			}
			if want := append([]string{}, c.tried...); !slices.Equal(keysOf(d.Tried), want) {
				t.Errorf("tried %v, want %v", keysOf(d.Tried), want)
			}
			for i, want := range c.tryDetail {
				if d.Tried[i].Detail == nil || d.Tried[i].Detail.Key != want {
					t.Errorf("attempt %d detail %v, want %s", i, d.Tried[i].Detail, want)
				}
			}
			// Every offer not chosen says why; the chosen one does not.
			for i := range c.offers {
				why, ok := d.NotChosen[i]
				if i == d.Index {
					if ok {
						t.Errorf("the chosen offer %d has a reason %v", i, why)
					}
					continue
				}
				if !ok || why.Key == "" {
					t.Errorf("offer %d not chosen without a reason", i)
				}
				if want, given := c.notChosen[i]; given && why.Key != want {
					t.Errorf("offer %d: %v, want %s", i, why, want)
				}
			}
			if len(d.NotChosen) > len(c.offers) {
				t.Errorf("reasons for offers that are not there: %v", d.NotChosen)
			}
			for key, want := range c.args {
				found := false
				for _, x := range textsOf(d) {
					if x.Key == key {
						found = true
						if !slices.Equal(x.Args, want) {
							t.Errorf("%s args %v, want %v", key, x.Args, want)
						}
					}
				}
				if !found {
					t.Errorf("no %s", key)
				}
			}
			for _, x := range textsOf(d) {
				if !i18n.Has(x.Key) {
					t.Errorf("%s is not in the catalog", x.Key)
				}
			}
		})
	}
}

// The decision holds copies: changing them changes neither the offers nor the rules.
func TestDecisionHoldsCopies(t *testing.T) {
	offers := slices.Clone(abc)
	rules := []Rule{cheapest("cheapest")}
	d := Choose(rules, parcel(), offers)
	d.Offer.Carrier, d.Rule.Name = "X", "changed"
	if offers[0].Carrier != "A" || rules[0].Name != "cheapest" {
		t.Fatalf("the decision shares memory with its input")
	}
}

func TestChooseWithOverride(t *testing.T) {
	d := ChooseWithOverride([]Rule{cheapest("cheapest")}, parcel(), abc, 2)
	if d.Index != 1 || !d.Override || d.Rule != nil {
		t.Fatalf("%+v", d)
	}
}

func TestAddPackage(t *testing.T) {
	var s Shipment
	s.AddPackage(1.5, 40, 10, 10)
	s.AddPackage(2, 20, 30, 25)
	if s.WeightKg != 3.5 || s.LengthCm != 40 || s.WidthCm != 30 || s.HeightCm != 25 || s.DimsSumCm != 75 {
		t.Fatalf("%+v", s)
	}
}
