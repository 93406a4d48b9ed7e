package textin

import "testing"

// Sums as Czech people type them: "1.250" and "1250 Kč" are 1 250.
func TestAmountAsCzechPeopleTypeIt(t *testing.T) {
	any := Range{Above: -1e12, Max: 1e12}
	for in, want := range map[string]float64{
		"1.250": 1250, "1250 Kč": 1250, "1 250 Kč": 1250, "1250Kč": 1250, "1.250 CZK": 1250, "99,-": 99,
		"1 299,50": 1299.5, "1,25": 1.25, "1.25": 1.25, "12.5": 12.5, "80 EUR": 80, "1.250,50 Kč": 1250.5, "1.299.000": 1299000,
	} {
		got, problem := Decimal(Amount(in), any)
		if !problem.IsZero() || got != want {
			t.Errorf("Amount(%q) reads as %v (%v), want %v", in, got, problem, want)
		}
	}
	for _, bad := range []string{"Kč", "abc Kč", "12.34.5"} {
		if _, problem := Decimal(Amount(bad), any); problem.IsZero() {
			t.Errorf("Amount(%q) reads as a number", bad)
		}
	}
}
