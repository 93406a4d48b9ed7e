package desk

import (
	"reflect"
	"testing"

	"shipdesk/shiprules"
)

// The rules see every field of an offer: a field added to the desk's Offer
// and not to the rules' (or not copied) fails here.
func TestRuleOffersCopyEveryField(t *testing.T) {
	o := Offer{ServiceID: 7, Carrier: "PPL", Service: "Parcel CZ", LabelMode: "PRINT", DeliveryRequired: true,
		Price: Money{Value: 100, Currency: "CZK"}, PriceVAT: Money{Value: 121, Currency: "CZK"}, Delivery: "2026-11-24", Selectable: true, LabelFree: true}
	desk, rules := reflect.TypeOf(o), reflect.TypeOf(shiprules.Offer{})
	if desk.NumField() != rules.NumField() {
		t.Fatalf("desk.Offer has %d fields, shiprules.Offer %d", desk.NumField(), rules.NumField())
	}
	ov := reflect.ValueOf(o)
	for i := range desk.NumField() {
		if ov.Field(i).IsZero() {
			t.Fatalf("the test leaves %s empty", desk.Field(i).Name)
		}
	}
	got := RuleOffers([]Offer{o})
	if len(got) != 1 {
		t.Fatalf("%d offers", len(got))
	}
	gv := reflect.ValueOf(got[0])
	for i := range desk.NumField() {
		name := desk.Field(i).Name
		f := gv.FieldByName(name)
		if !f.IsValid() {
			t.Fatalf("shiprules.Offer has no %s", name)
		}
		if !ov.Field(i).Type().ConvertibleTo(f.Type()) {
			t.Fatalf("%s: %s cannot become %s", name, ov.Field(i).Type(), f.Type())
		}
		if want := ov.Field(i).Convert(f.Type()).Interface(); !reflect.DeepEqual(want, f.Interface()) {
			t.Errorf("%s: %v became %v", name, want, f.Interface())
		}
	}
}

func TestValidateRuleKnowsTheShopsCountries(t *testing.T) {
	r := shiprules.Rule{Name: "Slovakia", Choice: shiprules.Cheapest, Countries: shiprules.Codes{"SK"}}
	if p := ValidateRule(r); len(p) != 0 {
		t.Fatalf("problems: %v", p)
	}
	r.Countries = shiprules.Codes{"BR"} // Brazil: not served (the US is)
	if p := ValidateRule(r); p["countries"].Key != "rules.problem.country" {
		t.Fatalf("problems: %v", p)
	}
}
