package desk

import (
	"net/url"
	"testing"

	"shipdesk/client/shipping"
	"shipdesk/requestkey"
)

// swissForm is a form to Zürich with the customs fields as given.
func swissForm(t *testing.T, customs ...string) Form {
	t.Helper()
	v := url.Values{"key": {requestkey.New()}, "sender": {"1"}, "to_surname": {"Keller"}, "to_street": {"Bahnhofstrasse 1"},
		"to_city": {"Zürich"}, "to_zip": {"8001"}, "to_country": {"CH"}, "to_phone": {"+41 44 123 45 67"},
		"pkg_weight": {"1,5", "0,5"}, "offer_service_id": {"701"}, "offer_carrier": {"UPS"}}
	for i := 0; i+1 < len(customs); i += 2 {
		v.Set(customs[i], customs[i+1])
	}
	f, p := ParseForm(v)
	if len(p) > 0 {
		t.Fatalf("parse: %v", p)
	}
	return f
}

var completeCustoms = []string{"customs_reason", "gift", "customs_description", "Glass vase", "customs_hs_code", "7013 99",
	"customs_origin", "cz", "customs_quantity", "2", "customs_value", "80,5", "customs_currency", "EUR"}

func TestCustomsAskedOnlyOutsideTheEU(t *testing.T) {
	f := swissForm(t)
	p := f.CheckForOrder("CZ")
	for _, field := range customsFields {
		if field == "customs_currency" {
			continue // a select: CZK unless changed
		}
		if _, ok := p[field]; !ok {
			t.Errorf("no problem at %s: %v", field, p)
		}
	}
	if _, ok := p["customs_currency"]; !ok {
		t.Errorf("an empty currency is not refused: %v", p)
	}
	if p := f.CheckForOffers("CZ"); len(p) != 0 {
		t.Errorf("offers need no customs data: %v", p)
	}
	f.To.Country, f.To.Zip = "DE", "10115"
	if p := f.CheckForOrder("CZ"); len(p) != 0 || f.customsWire() != nil {
		t.Errorf("Germany needs no customs: %v", p)
	}
}

func TestCustomsRules(t *testing.T) {
	if p := swissForm(t, completeCustoms...).CheckForOrder("CZ"); len(p) != 0 {
		t.Fatalf("complete customs: %v", p)
	}
	cases := []struct {
		name, field, value, problem string
	}{
		{"unknown reason", "customs_reason", "bribe", "customs_reason"},
		{"no contents", "customs_description", " ", "customs_description"},
		{"short HS code", "customs_hs_code", "6109", "customs_hs_code"},
		{"letters in the HS code", "customs_hs_code", "6109AB", "customs_hs_code"},
		{"origin by name", "customs_origin", "Česko", "customs_origin"},
		{"no pieces", "customs_quantity", "0", "customs_quantity"},
		{"half a piece", "customs_quantity", "1,5", "customs_quantity"},
		{"no value", "customs_value", "0", "customs_value"},
		{"value no number", "customs_value", "NaN", "customs_value"},
		{"other currency", "customs_currency", "GBP", "customs_currency"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := swissForm(t, append(append([]string{}, completeCustoms...), c.field, c.value)...)
			if p := f.CheckForOrder("CZ"); len(p) != 1 || p[c.problem].Key == "" {
				t.Errorf("%s %q: %v", c.field, c.value, p)
			}
		})
	}
	documents := swissForm(t, append(append([]string{}, completeCustoms...), "customs_reason", "documents", "customs_hs_code", "")...)
	if p := documents.CheckForOrder("CZ"); len(p) != 0 {
		t.Errorf("documents need no HS code: %v", p)
	}
}

func TestCustomsSentAsTheServiceReadsThem(t *testing.T) {
	f := swissForm(t, completeCustoms...)
	got := f.customsWire()
	want := shipping.CustomsItem{Description: "Glass vase", HSCode: "701399", OriginCountry: "CZ", Quantity: 2,
		Value: shipping.Money{Value: 80.5, Currency: "EUR"}, Weight: 2}
	if got == nil || got.Reason != "gift" || len(got.Items) != 1 || got.Items[0] != want {
		t.Errorf("customs %+v", got)
	}
	if v := f.Values(); v["customs_hs_code"] != "7013 99" || v["customs_origin"] != "CZ" {
		t.Errorf("the form is not shown again as typed: %v", v)
	}
	for path, field := range map[string]string{
		"shipments[0].customs": "customs_reason", "shipments[0].customs.reason": "customs_reason",
		"shipments[0].customs.items": "customs_description", "shipments[0].customs.items[0].description": "customs_description",
		"shipments[0].customs.items[0].hs_code": "customs_hs_code", "shipments[0].customs.items[0].origin_country": "customs_origin",
		"shipments[0].customs.items[0].value.currency": "customs_currency", "shipments[0].customs.items[0].value.value": "customs_value",
		"shipments[0].customs.items[0].quantity": "customs_quantity", "shipments[0].customs.items[0].weight": "packages",
	} {
		if got := FormField(path); got != field {
			t.Errorf("%s is shown at %s, want %s", path, got, field)
		}
	}
}
