package shiprules

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"shipdesk/i18n"
)

// bytes reads fuzz input a byte at a time; zeros when it runs out.
type bytes []byte

func (b *bytes) next() int {
	if len(*b) == 0 {
		return 0
	}
	x := (*b)[0]
	*b = (*b)[1:]
	return int(x)
}

func (b *bytes) pick(n int) int { return b.next() % n }

var (
	fuzzText    = []string{"", "CZ", "sk", " PPL ", "DPD", "C", "A 1", "\x00", "\xff", strings.Repeat("ř", 30), "CZK", "EUR"}
	fuzzNumbers = []float64{0, 1, 2, 5, 29.5, 30, 100, 1000, -1, math.NaN(), math.Inf(1), math.Inf(-1), 1e300, 0.004}
	fuzzDates   = []string{"", "2026-11-24", "2026-11-25", "2026-02-30", "tomorrow", "2026-11-24T10:00"}
	fuzzChoices = []string{Cheapest, Fastest, Named, "", "x"}
	fuzzCOD     = []string{"", CODAny, CODYes, CODNo, "?"}
	fuzzWhere   = []string{"", DeliveryAny, DeliveryPoint, DeliveryDoor, "?"}
)

func (b *bytes) text() string    { return fuzzText[b.pick(len(fuzzText))] }
func (b *bytes) number() float64 { return fuzzNumbers[b.pick(len(fuzzNumbers))] }
func (b *bytes) maybe() *float64 {
	if b.pick(3) == 0 {
		x := b.number()
		return &x
	}
	return nil
}

func (b *bytes) codes() Codes {
	var c Codes
	for range b.pick(3) {
		c = append(c, b.text())
	}
	return c
}

// same compares offers, a NaN price equal to itself.
func same(a, b Offer) bool {
	for _, p := range [][2]float64{{a.Price.Value, b.Price.Value}, {a.PriceVAT.Value, b.PriceVAT.Value}} {
		if math.Float64bits(p[0]) != math.Float64bits(p[1]) {
			return false
		}
	}
	a.Price.Value, a.PriceVAT.Value, b.Price.Value, b.PriceVAT.Value = 0, 0, 0, 0
	return a == b
}

// Whatever the rules, row and offers, Choose does not panic; what it chooses
// is one of the offers, selectable, and fit for the row; every other offer
// says why it was not chosen, in the catalog's words.
func FuzzChoose(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{2, 1, 0, 0, 3, 1, 2, 4, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte("the rules choose an offer for every row of the batch, or say why not"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := bytes(data)
		rules := make([]Rule, b.pick(4))
		for i := range rules {
			rules[i] = Rule{Name: b.text(), Position: b.pick(3), Countries: b.codes(), COD: fuzzCOD[b.pick(len(fuzzCOD))],
				WeightMinKg: b.maybe(), WeightMaxKg: b.maybe(), LongestMaxCm: b.maybe(), DimsSumMaxCm: b.maybe(),
				Delivery: fuzzWhere[b.pick(len(fuzzWhere))], Choice: fuzzChoices[b.pick(len(fuzzChoices))], Carriers: b.codes(),
				Carrier: b.text(), Service: b.text(), ServiceID: b.pick(4) - 1}
		}
		s := Shipment{Country: b.text(), COD: b.pick(2) == 1, WeightKg: b.number(), LengthCm: b.number(), WidthCm: b.number(),
			HeightCm: b.number(), DimsSumCm: b.number(), ToPoint: b.pick(2) == 1, PointCode: b.text(), PointCarrier: b.text(),
			OverrideServiceID: b.pick(4) - 1}
		offers := make([]Offer, b.pick(6))
		for i := range offers {
			offers[i] = Offer{ServiceID: b.pick(4) - 1, Carrier: b.text(), Service: b.text(), DeliveryRequired: b.pick(2) == 1,
				Price: Money{Value: b.number(), Currency: b.text()}, PriceVAT: Money{Value: b.number(), Currency: b.text()}, Delivery: fuzzDates[b.pick(len(fuzzDates))], Selectable: b.pick(4) != 0}
		}
		c := Chooser{}
		if b.pick(2) == 1 {
			refused := b.text()
			c.Eligible = func(o Offer) (bool, Text) { return o.Carrier != refused, Text{} }
		}
		d := c.Choose(rules, s, offers)

		if d.Offer != nil {
			if d.Index < 0 || d.Index >= len(offers) || !same(*d.Offer, offers[d.Index]) {
				t.Fatalf("chose %+v at %d, not among the offers", d.Offer, d.Index)
			}
			o := *d.Offer
			if !o.Selectable {
				t.Fatalf("chose an unselectable offer %+v", o)
			}
			if o.DeliveryRequired && strings.TrimSpace(s.PointCode) == "" {
				t.Fatalf("chose an offer needing a point for a row without one: %+v", o)
			}
			if c.Eligible != nil {
				if ok, _ := c.Eligible(o); !ok {
					t.Fatalf("chose an offer the desk refused: %+v", o)
				}
			}
			if d.Override != (s.OverrideServiceID != 0) || (d.Rule == nil) == (s.OverrideServiceID == 0) {
				t.Fatalf("override %v, rule %v for override %d", d.Override, d.Rule, s.OverrideServiceID)
			}
			if d.Override && o.ServiceID != s.OverrideServiceID {
				t.Fatalf("override %d chose %+v", s.OverrideServiceID, o)
			}
		} else if d.Index != -1 || d.Rule != nil {
			t.Fatalf("no offer, but index %d and rule %v", d.Index, d.Rule)
		}
		for i := range offers {
			if _, ok := d.NotChosen[i]; ok == (i == d.Index) {
				t.Fatalf("offer %d (chosen %d): reasons %v", i, d.Index, d.NotChosen)
			}
		}
		if len(d.NotChosen) > len(offers) {
			t.Fatalf("reasons for offers that are not there: %v", d.NotChosen)
		}
		for _, x := range textsOf(d) {
			if !i18n.Has(x.Key) {
				t.Fatalf("%s is not in the catalog", x.Key)
			}
		}
		if _, err := json.Marshal(d); err != nil {
			t.Fatalf("decision to JSON: %v", err)
		}
		for i, r := range rules {
			for _, x := range r.Validate(shopCountries) {
				if !i18n.Has(x.Key) {
					t.Fatalf("rule %d: %s is not in the catalog", i, x.Key)
				}
			}
		}
	})
}
