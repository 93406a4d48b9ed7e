package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// chooseCountry picks the recipient's country as a person does: the select
// changes, and htmx redraws the form for it.
func (b *Tab) chooseCountry(code string) {
	b.t.Helper()
	// A person cannot choose before htmx has taken up the form it just drew
	// (the select of the last redraw is new): wait for that, and for htmx to
	// be idle, as a person's hand would.
	b.waitTrue("the country select ready for a choice", `(() => { const s = document.getElementById("to_country");
		return !!s && !!(s["htmx-internal-data"] || {}).initHash; })() && `+htmxIdle)
	b.do("choose "+code, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const s = document.getElementById("to_country");
		window.countryChosenIn = s; s.value = %q; s.dispatchEvent(new Event("change", {bubbles: true})); })()`, code)))
	// Then the redraw, settled: its autofocus puts the focus back on the new
	// select a moment after the new fields are in the page, and keys typed
	// into another field before that would follow it (a run typed "Bahn"
	// into the street and the rest of the street into the country).
	b.waitTrue("the form drawn again for "+code, `document.getElementById("to_country") !== window.countryChosenIn && `+htmxIdle)
}

// A parcel to Zürich: choosing Switzerland brings the customs fields (and
// Germany takes them away), the clerk fills them in, compares, chooses an
// express offer and orders it; in Czech and in English.
func TestCustomsFieldsForSwitzerland(t *testing.T) {
	t.Parallel()
	_, tab := deskTab(t)
	tab.Open("/shipping/new")
	tab.toCzech()
	for _, lang := range []string{"cs", "en"} {
		tab.Open("/shipping/new")
		tab.fillRecipient()
		tab.chooseCountry("DE")
		tab.WaitText(`#to_country option[selected]`, map[string]string{"cs": "Německo", "en": "Germany"}[lang])
		tab.WaitCount(`[data-testid=customs]`, 0)
		tab.chooseCountry("CH")
		tab.WaitCount(`[data-testid=customs]`, 1)
		tab.wantText(`[data-testid=customs] legend`, map[string]string{"cs": "Celní údaje", "en": "Customs data"}[lang])
		tab.Fill("#to_street", "Bahnhofstrasse 1")
		tab.Fill("#to_city", "Zürich")
		tab.Fill("#to_zip", "8001")
		tab.do("reason", chromedp.SetValue("#customs_reason", "sale"))
		tab.Fill("#customs_description", "Bavlněná trička")
		tab.Fill("#customs_hs_code", "6109 10")
		tab.Fill("#customs_origin", "CZ")
		tab.Fill("#customs_quantity", "3")
		tab.Fill("#customs_value", "1 200")
		tab.Click(`[data-testid=compare]`)
		tab.WaitText(`[data-testid=offers]`, "UPS")
		tab.do("choose UPS", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll("[data-testid=offers] tr[data-carrier]")]
			.find(r => r.dataset.carrier.toUpperCase() === "UPS" && r.querySelector("button[name=choose]")).querySelector("button[name=choose]").click()`))
		tab.WaitText(`[data-testid=chosen]`, "UPS")
		tab.top()
		tab.shots("customs-" + lang)
		tab.noOverflow(390)
		if lang == "cs" {
			tab.Submit(`[data-testid=language] button`)
			continue
		}
		tab.Submit(`[data-testid=create]`)
		if !strings.HasPrefix(tab.Path(), "/shipping/shipments/") {
			t.Fatalf("after ordering the page is %s: %s", tab.Path(), tab.Text("main"))
		}
		tab.wantText("main", "Zürich")
	}
}
