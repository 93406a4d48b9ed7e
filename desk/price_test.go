package desk

import "testing"

// The chosen offer's price comes back from the page: only a price that reads
// whole (an amount and a currency code) is kept with the order; anything else
// is "not known", never zero.
func TestOfferPriceKeptOnlyWhenWhole(t *testing.T) {
	for in, want := range map[string]*Money{
		"121.00 CZK":     {Value: 121, Currency: "CZK"},
		"4.20 EUR":       {Value: 4.2, Currency: "EUR"},
		"0.00 CZK":       {Value: 0, Currency: "CZK"},
		"99.999 CZK":     {Value: 100, Currency: "CZK"},
		"":               nil,
		"abc CZK":        nil,
		"121.00":         nil,
		"121.00 czk":     nil,
		"121.00 XYZ":     nil,
		"NaN CZK":        nil,
		"Inf CZK":        nil,
		"-5.00 CZK":      nil,
		"1e9 CZK":        nil,
		"121,00 CZK":     nil,
		"121.00 CZK; --": nil,
	} {
		got, ok := parsePrice(in).known()
		if (want == nil) == ok || (want != nil && got != *want) {
			t.Errorf("%q: %+v %v, want %+v", in, got, ok, want)
		}
	}
}
