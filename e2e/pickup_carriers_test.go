package e2e

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The clerk chooses the pickup's carrier by name from those that collect
// from the chosen address: changing the address asks for its carriers again
// (the select is replaced), Zásilkovna is chosen and ordered, and the list
// names it. Looked at in English and Czech at 1280, 768 and 390 px.
func TestClerkChoosesThePickupsCarrierByName(t *testing.T) {
	t.Parallel()
	_, tab := deskTab(t)
	tab.Open("/shipping/pickups")
	names := tab.Texts(`select#carrier option`)
	if len(names) < 3 || names[0] != "Any carrier" || !slices.Contains(names, "Zásilkovna") {
		t.Fatalf("carriers offered: %q", names)
	}
	if tab.Attr(`#carrier`, "type") == "text" {
		t.Error("the carrier is still typed by hand")
	}
	// Another address: its carriers replace the select.
	tab.do("choose the Brno address", chromedp.Evaluate[chromedp.Void](`(() => {
		document.querySelector('#carrier-field').dataset.old = '1';
		const a = document.querySelector('#address');
		a.value = '2';
		a.dispatchEvent(new Event('change', {bubbles: true}));
	})()`))
	tab.WaitCount(`#carrier-field:not([data-old])`, 1)
	if got := tab.Texts(`select#carrier option`); !slices.Contains(got, "Zásilkovna") {
		t.Fatalf("carriers of the Brno address: %q", got)
	}
	tab.do("choose Zásilkovna", chromedpSelect("#carrier", "ZASILKOVNA"))
	tab.Fill("#weight", "")
	tab.Type("#weight", "4")
	tab.Submit(`[data-testid=pickup-form] button.primary`)
	tab.WaitText(`main`, "PU00000001")
	rows := tab.Texts(`[data-testid=pickups] tbody tr`)
	if len(rows) != 1 || !strings.Contains(rows[0], "Zásilkovna") || strings.Contains(rows[0], "ZASILKOVNA") {
		t.Fatalf("pickups list: %q", rows)
	}
	tab.shots("en")
	tab.toCzech()
	if got := tab.Texts(`select#carrier option`); len(got) == 0 || got[0] != "Kterýkoli dopravce" {
		t.Errorf("carriers in Czech: %q", got)
	}
	tab.wantText(`[data-testid=pickups]`, "Zásilkovna")
	tab.shots("cs")
}
