package countries

import (
	"slices"
	"testing"

	"shipdesk/i18n"
)

func TestEveryCountryHasANameInEveryLanguage(t *testing.T) {
	for _, lang := range i18n.Langs {
		ctx := i18n.WithLang(t.Context(), lang)
		for _, code := range Served {
			if name := i18n.T(ctx, NameKey(code)); name == "" || name == NameKey(code) {
				t.Errorf("%s: no name of %s", lang, code)
			}
		}
	}
}

func TestCustomsOnlyOutsideTheEU(t *testing.T) {
	for _, code := range outsideCustomsUnion {
		if !IsServed(code) {
			t.Errorf("%s needs customs but is not served", code)
		}
	}
	for _, c := range []struct {
		code string
		want bool
	}{{"CZ", false}, {"SK", false}, {"FR", false}, {"MC", false}, {"CH", true}, {"NO", true}, {"GB", true}, {"US", true}, {"XX", false}} {
		if got := NeedsCustoms(c.code); got != c.want {
			t.Errorf("NeedsCustoms(%s) = %v", c.code, got)
		}
	}
	if len(slices.Compact(slices.Sorted(slices.Values(Served)))) != len(Served) {
		t.Errorf("a country is listed twice")
	}
}

// Every served country but those without postal codes says how its codes
// look, and its own example is one.
func TestPostcodes(t *testing.T) {
	for _, code := range Served {
		p, known := postcodes[code]
		if !known {
			if code != "AE" && code != "HK" {
				t.Errorf("%s: no postal-code shape", code)
			}
			continue
		}
		if _, ok := Postcode(code, p.example); !ok {
			t.Errorf("%s: its example %q is refused", code, p.example)
		}
	}
	for code := range postcodes {
		if !IsServed(code) {
			t.Errorf("%s has a postal-code shape but is not served", code)
		}
	}
	for _, c := range []struct {
		country, zip string
		ok           bool
	}{{"CZ", "602 00", true}, {"CZ", "60200", true}, {"CZ", "ABCDE", false}, {"CZ", "NaN", false}, {"CZ", "-1", false},
		{"CZ", "6020", false}, {"SK", "811 01", true}, {"PL", "00-001", true}, {"PL", "00001", false}, {"gb", "x", true},
		{"GB", "sw1a 1aa", true}, {"AE", "anything", true}, {"XX", "ABCDE", true}} {
		if example, ok := Postcode(c.country, c.zip); ok != c.ok || (!ok && example == "") {
			t.Errorf("Postcode(%s, %q) = %q, %v", c.country, c.zip, example, ok)
		}
	}
}
