package desk_test

import (
	"net/url"
	"testing"

	"shipdesk/desk"
	"shipdesk/textin"
)

// The form reads sums as Czech people type them: "1.250" and "1250 Kč" are
// 1 250, in the COD amount and in the insured value alike.
func TestFormReadsSumsAsPeopleTypeThem(t *testing.T) {
	for typed, want := range map[string]float64{"1.250": 1250, "1250 Kč": 1250, "1 299,50": 1299.5, "2.450 CZK": 2450} {
		f, _ := desk.ParseForm(url.Values{"cod": {"on"}, "cod_value": {typed}, "cod_currency": {"CZK"}, "insure": {"on"}, "insured_value": {typed}})
		for field, value := range map[string]string{"COD amount": f.CODValue, "insured value": f.InsuredValue} {
			if got, problem := textin.Decimal(value, textin.Range{Max: 1e9}); !problem.IsZero() || got != want {
				t.Errorf("%s %q read as %q (%v), want %v", field, typed, value, problem, want)
			}
		}
	}
}
