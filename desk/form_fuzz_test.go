package desk

import (
	"math"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// formFields are the fields the fuzzers write into, one at a time.
var formFields = []string{"key", "sender", "handover", "pickup_date", "cod_value", "cod_currency", "insured_value", "reference", "note",
	"to_surname", "to_city", "to_zip", "to_country", "to_phone", "pkg_weight", "pkg_length", "cod_bank_account", "cod_bank_currency",
	"pickup_branch", "offer_carrier", "offer_service", "offer_price", "offer_service_id", "sort"}

// Whatever is posted, the parsed form holds only text that can be stored and
// shown, and numbers that are finite and within the form's limits.
func FuzzParseForm(f *testing.F) {
	for i, seed := range []string{"Jana", "a\x00b", "\xff\xfe", "NaN", "-Inf", "1e308", "1,5", strings.Repeat("ř", 120), "<script>", "\r\n\t"} {
		f.Add(uint8(i), seed)
	}
	f.Fuzz(func(t *testing.T, which uint8, value string) {
		field := formFields[int(which)%len(formFields)]
		v := url.Values{"to_surname": {"Nová"}, "to_country": {"CZ"}, "pkg_weight": {"2"}, "cod": {"on"}, "insure": {"on"}}
		v.Set(field, value)
		form, _ := ParseForm(v)
		for name, s := range form.Values() {
			if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 }) {
				t.Fatalf("%s kept %q from %q in %s", name, s, value, field)
			}
		}
		for _, p := range form.Packages {
			for _, x := range []float64{p.Weight, p.Length, p.Width, p.Height} {
				if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || x > maxWeightKg {
					t.Fatalf("package read as %v from %q", x, value)
				}
			}
		}
		pickup, _ := ParsePickupForm(url.Values{field: {value}, "note": {value}, "weight": {value}}, time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC))
		for name, s := range pickup.Values() {
			if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
				t.Fatalf("pickup %s kept %q", name, s)
			}
		}
	})
}
