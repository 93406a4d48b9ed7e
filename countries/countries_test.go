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
