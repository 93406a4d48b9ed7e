package shiprules

import (
	"encoding/json"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

var shopCountries = []string{"CZ", "SK", "DE", "AT", "PL", "HU"}

// validRule is a rule with every field set as a manager may.
func validRule() Rule {
	return Rule{ID: 4, Name: "Malé balíky na Slovensko", Position: 3, Countries: Codes{"SK"}, COD: CODNo,
		WeightMinKg: kg(0), WeightMaxKg: kg(5), LongestMaxCm: kg(60), DimsSumMaxCm: kg(150), Delivery: DeliveryPoint,
		Choice: Cheapest, Carriers: Codes{"PPL", "DPD"}}
}

var validationCases = []struct {
	name   string
	change func(*Rule)
	want   map[string]string // field → key
}{
	{"valid", func(*Rule) {}, nil},
	{"only a name and a choice", func(r *Rule) { *r = Rule{Name: "x", Choice: Fastest} }, nil},
	{"named service by name", func(r *Rule) { r.Choice, r.Carriers, r.Carrier, r.Service = Named, nil, "PPL", "PPL Parcel CZ Private" }, nil},
	{"named service by id", func(r *Rule) { r.Choice, r.Carriers, r.Carrier, r.ServiceID = Named, nil, "PPL", 12 }, nil},
	{"name missing", func(r *Rule) { r.Name = "  " }, map[string]string{"name": "rules.problem.name_required"}},
	{"name of 100 characters", func(r *Rule) { r.Name = strings.Repeat("ř", 100) }, nil},
	{"name of 101 characters", func(r *Rule) { r.Name = strings.Repeat("ř", 101) }, map[string]string{"name": "rules.problem.name_long"}},
	{"name with a control character", func(r *Rule) { r.Name = "a\x00b" }, map[string]string{"name": "rules.problem.text"}},
	{"name not UTF-8", func(r *Rule) { r.Name = "a\xffb" }, map[string]string{"name": "rules.problem.text"}},
	{"weight min over max", func(r *Rule) { r.WeightMinKg, r.WeightMaxKg = kg(6), kg(5) }, map[string]string{"weight_min_kg": "rules.problem.weight_order"}},
	{"weight min equal to max", func(r *Rule) { r.WeightMinKg, r.WeightMaxKg = kg(5), kg(5) }, nil},
	{"weight negative", func(r *Rule) { r.WeightMinKg = kg(-0.5) }, map[string]string{"weight_min_kg": "rules.problem.negative"}},
	{"weight at the limit", func(r *Rule) { r.WeightMaxKg = kg(1000) }, nil},
	{"weight over the limit", func(r *Rule) { r.WeightMaxKg = kg(1000.5) }, map[string]string{"weight_max_kg": "rules.problem.weight_over"}},
	{"weight not a number", func(r *Rule) { r.WeightMaxKg = kg(math.NaN()) }, map[string]string{"weight_max_kg": "rules.problem.number"}},
	{"weight infinite", func(r *Rule) { r.WeightMinKg = kg(math.Inf(1)) }, map[string]string{"weight_min_kg": "rules.problem.number"}},
	{"sizes negative", func(r *Rule) { r.LongestMaxCm, r.DimsSumMaxCm = kg(-1), kg(-1) },
		map[string]string{"longest_side_max_cm": "rules.problem.negative", "dims_sum_max_cm": "rules.problem.negative"}},
	{"sizes over the limits", func(r *Rule) { r.LongestMaxCm, r.DimsSumMaxCm = kg(501), kg(1501) },
		map[string]string{"longest_side_max_cm": "rules.problem.size_over", "dims_sum_max_cm": "rules.problem.size_over"}},
	{"unknown country", func(r *Rule) { r.Countries = Codes{"SK", "US"} }, map[string]string{"countries": "rules.problem.country"}},
	{"country in small letters", func(r *Rule) { r.Countries = Codes{"sk"} }, map[string]string{"countries": "rules.problem.country"}},
	{"unknown COD and delivery values", func(r *Rule) { r.COD, r.Delivery = "maybe", "moon" },
		map[string]string{"cod": "rules.problem.option", "delivery": "rules.problem.option"}},
	{"choice missing", func(r *Rule) { r.Choice = "" }, map[string]string{"choice": "rules.problem.choice_required"}},
	{"unknown choice", func(r *Rule) { r.Choice = "random" }, map[string]string{"choice": "rules.problem.option"}},
	{"named service without a carrier", func(r *Rule) { r.Choice, r.Carriers, r.Service = Named, nil, "Parcel" },
		map[string]string{"carrier": "rules.problem.carrier_required"}},
	{"named service without a service", func(r *Rule) { r.Choice, r.Carriers, r.Carrier = Named, nil, "PPL" },
		map[string]string{"service": "rules.problem.service_required"}},
	{"named service with a negative id", func(r *Rule) { r.Choice, r.Carriers, r.Carrier, r.ServiceID = Named, nil, "PPL", -3 },
		map[string]string{"service_id": "rules.problem.service_id"}},
	{"named service with a long name", func(r *Rule) {
		r.Choice, r.Carriers, r.Carrier, r.Service = Named, nil, "PPL", strings.Repeat("s", 101)
	},
		map[string]string{"service": "rules.problem.service_long"}},
	{"named service with a carrier restriction", func(r *Rule) { r.Choice, r.Carrier, r.Service = Named, "PPL", "Parcel" },
		map[string]string{"carriers": "rules.problem.carriers_named"}},
	{"carrier code too long", func(r *Rule) { r.Carriers = Codes{strings.Repeat("C", 21)} }, map[string]string{"carriers": "rules.problem.carrier_long"}},
	{"empty carrier code", func(r *Rule) { r.Carriers = Codes{"PPL", " "} }, map[string]string{"carriers": "rules.problem.carrier_empty"}},
	{"too many carriers", func(r *Rule) {
		r.Carriers = nil
		for range 51 {
			r.Carriers = append(r.Carriers, "C")
		}
	}, map[string]string{"carriers": "rules.problem.carriers_many"}},
}

func TestValidate(t *testing.T) {
	for _, c := range validationCases {
		t.Run(c.name, func(t *testing.T) {
			r := validRule()
			c.change(&r)
			p := r.Validate(shopCountries)
			got := map[string]string{}
			for field, x := range p {
				got[field] = x.Key
			}
			if !maps.Equal(got, c.want) {
				t.Fatalf("problems %v, want %v", got, c.want)
			}
			if (p.Err() == nil) != (len(c.want) == 0) {
				t.Fatalf("Err() = %v with problems %v", p.Err(), got)
			}
		})
	}
}

func TestValidateArgs(t *testing.T) {
	r := validRule()
	r.Name, r.Countries, r.WeightMaxKg = strings.Repeat("n", 101), Codes{"XX\x00"}, kg(2000)
	p := r.Validate(shopCountries)
	for field, want := range map[string][]any{"name": {100.0}, "countries": {"XX"}, "weight_max_kg": {1000.0}} {
		if !slices.Equal(p[field].Args, want) {
			t.Errorf("%s: %v, want %v", field, p[field].Args, want)
		}
	}
}

func TestNormalized(t *testing.T) {
	r := Rule{Name: "  Slovensko ", Countries: Codes{" sk", "SK", "", "pl "}, Carriers: Codes{" PPL", "ppl", "DPD"},
		Carrier: " PPL ", Service: " Parcel ", Choice: " cheapest "}
	got := r.Normalized()
	want := Rule{Name: "Slovensko", Countries: Codes{"SK", "PL"}, Carriers: Codes{"PPL", "DPD"}, Carrier: "PPL", Service: "Parcel",
		Choice: Cheapest, COD: CODAny, Delivery: DeliveryAny}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%+v\nwant %+v", got, want)
	}
	if p := got.Validate(shopCountries); len(p) != 0 {
		t.Fatalf("the normalized rule has problems: %v", p)
	}
}

// A rule goes to JSON and back, and to database columns and back, unchanged.
func TestRuleRoundTrips(t *testing.T) {
	for _, r := range []Rule{validRule(), {Name: "minimal", Choice: Fastest},
		{Name: "named", Choice: Named, Carrier: "PPL", Service: "Parcel", ServiceID: 12}} {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back Rule
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, r) {
			t.Fatalf("JSON %s\nback %+v\nwant %+v", b, back, r)
		}
		for _, codes := range []Codes{r.Countries, r.Carriers} {
			v, err := codes.Value()
			if err != nil {
				t.Fatal(err)
			}
			var got Codes
			if err := got.Scan(v); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, codes) || (got == nil) != (codes == nil) {
				t.Fatalf("%v stored as %v, read as %#v", codes, v, got)
			}
			if err := got.Scan([]byte(v.(string))); err != nil || !slices.Equal(got, codes) {
				t.Fatalf("from bytes: %v %v", got, err)
			}
		}
	}
	// Every field has a db and a json tag.
	rt := reflect.TypeOf(Rule{})
	for i := range rt.NumField() {
		f := rt.Field(i)
		if f.Tag.Get("db") == "" || f.Tag.Get("json") == "" {
			t.Errorf("%s lacks a db or json tag", f.Name)
		}
	}
}

func TestCodesScan(t *testing.T) {
	var c Codes = Codes{"x"}
	if err := c.Scan(nil); err != nil || c != nil {
		t.Fatalf("NULL: %v %v", c, err)
	}
	if err := c.Scan("[]"); err != nil || c != nil {
		t.Fatalf("[]: %v %v", c, err)
	}
	for _, bad := range []any{"{", 42, "[1]"} {
		if err := c.Scan(bad); err == nil {
			t.Errorf("%v read as %v", bad, c)
		}
	}
}

// The texts of a decision go to JSON and back with their arguments as they
// were: strings stay strings, numbers float64.
func TestDecisionRoundTrips(t *testing.T) {
	d := Choose([]Rule{with(cheapest("light"), func(r *Rule) { r.WeightMaxKg = kg(1.5) }), cheapest("all")}, parcel(), abc)
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var back Decision
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, d) {
		t.Fatalf("JSON %s\nback %+v\nwant %+v", b, back, d)
	}
}

func TestDecimals(t *testing.T) {
	for x, want := range map[float64]int{2: 0, 2.5: 1, 0.25: 2, 0.125: 3, 1.0 / 3: 3, 1000: 0, 5.001: 3, 29.5: 1} {
		if got := Decimals(x); got != want {
			t.Errorf("Decimals(%v) = %d, want %d", x, got, want)
		}
	}
}
