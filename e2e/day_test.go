package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
)

// A clerk's day against the in-process sandbox in both of its answer shapes:
// in "minimal" it answers only what the contract and the provider's examples
// guarantee, so this proves the dashboard needs nothing the real service does
// not send. A shipment with cash on delivery and insurance is ordered, its
// label printed and its tracking read; another is cancelled before the carrier
// takes it; a label-free shipment shows its code; a courier pickup is ordered.
func TestClerksDayInBothShapes(t *testing.T) {
	t.Parallel()
	for _, shapes := range []string{"documented", "minimal"} {
		t.Run(shapes, func(t *testing.T) {
			_, tab := deskTabOn(t, apptest.StartOptions(t, apptest.Options{Shapes: shapes, CachedPoints: true}))
			tab.do("desktop width", chromedp.EmulateViewport(1280, 900))

			// COD and insurance: the insured value is the COD amount when left empty.
			tab.Open("/shipping/new")
			tab.fillRecipient()
			tab.Click("#cod")
			tab.Fill("#cod_value", "1250")
			tab.Click("#insure")
			tab.Click(`[data-testid=compare]`)
			tab.WaitText(`[data-testid=offers]`, "UPS")
			if got := tab.Attr("#insured_value", "value"); got != "1250" {
				t.Errorf("insured value %q, want the COD amount", got)
			}
			tab.ChooseOffer("UPS")
			tab.WaitText(`[data-testid=chosen]`, "UPS")
			tab.look(shapes + "-chosen")
			orderChosen(t, tab)
			page := tab.Path()
			main := tab.Text(`main`)
			if !strings.Contains(main, "CZK\u00a01,250.00") || !strings.Contains(tab.Text(`[data-testid=insured]`), "CZK\u00a01,250.00") {
				t.Errorf("the shipment page lacks the COD amount or the insured value")
			}
			tab.WaitText(`[data-testid=label-box]`, "label being made")
			// A second order is cancelled before the carrier takes it: storno, confirmed.
			tab.Open("/shipping/new")
			tab.fillRecipient()
			tab.Click(`[data-testid=compare]`)
			tab.WaitText(`[data-testid=offers]`, "UPS")
			tab.ChooseOffer("UPS")
			tab.WaitText(`[data-testid=chosen]`, "UPS")
			orderChosen(t, tab)
			second := tab.Path()
			tab.Submit(`[data-testid=storno-start]`)
			tab.WaitText(`[data-testid=confirm]`, "Petra Svobodová")
			tab.Submit(`[data-testid=confirm-yes]`)
			tab.WaitText(`main`, "cancelled")
			if tab.Path() != second {
				t.Errorf("after the storno the page is %s, want %s", tab.Path(), second)
			}
			tab.look(shapes + "-cancelled")
			// The first one: its label once the carrier has the data, then its tracking.
			tab.Open(page)
			tab.Submit(`[data-testid=sandbox-clock] button[value="15"]`) // exported, before the courier's pickup
			tab.WaitText(`[data-testid=label-box]`, "Print label")
			if ctype, start := tab.Fetch(tab.Attr(`[data-testid=print-label]`, "href")); ctype != "application/pdf" || !strings.HasPrefix(start, "%PDF-") {
				t.Errorf("label: %s %q", ctype, start)
			}
			tab.Submit(`[data-testid=refresh-now]`)
			tab.WaitText(`[data-testid=timeline]`, "Package 1")
			if events := tab.Texts(`[data-testid=timeline] ol.timeline li`); len(events) < 2 {
				t.Errorf("tracking events after refreshing: %q", events)
			}
			// The service speaks Czech, as the real one does: its events too.
			tab.wantText(`[data-testid=timeline]`, "Dopravce převzal data zásilky")
			tab.look(shapes + "-tracking")

			// Outside the EU: the form asks for customs data, and the parcel goes.
			tab.Open("/shipping/new")
			tab.fillRecipient()
			tab.chooseCountry("CH")
			tab.WaitCount(`[data-testid=customs]`, 1)
			tab.Fill("#to_street", "Bahnhofstrasse 1")
			tab.Fill("#to_city", "Zürich")
			tab.Fill("#to_zip", "8001")
			tab.do("reason", chromedp.SetValue("#customs_reason", "sale"))
			tab.Fill("#customs_description", "Cotton T-shirts")
			tab.Fill("#customs_hs_code", "6109 10")
			tab.Fill("#customs_origin", "CZ")
			tab.Fill("#customs_quantity", "3")
			tab.Fill("#customs_value", "1 200")
			tab.Click(`[data-testid=compare]`)
			tab.WaitText(`[data-testid=offers]`, "UPS")
			tab.ChooseOffer("UPS")
			tab.WaitText(`[data-testid=chosen]`, "UPS")
			orderChosen(t, tab)
			tab.wantText("main", "Zürich")
			tab.look(shapes + "-customs")

			// Label-free: the carrier table (filled from the sandbox) allows it for ZASILKOVNA.
			tab.Open("/shipping/new")
			tab.fillRecipient()
			tab.do("hand over at a point", chromedpSelect("#handover", "POINT"))
			tab.Click(`[data-testid=compare]`)
			tab.WaitText(`[data-testid=offers]`, "Zásilkovna")
			tab.Click(`tr[data-service="101"] button[name=choose]`)
			tab.WaitText(`#label-free`, "Label-free")
			tab.Click(`input[name=label_less]`)
			orderChosen(t, tab)
			tab.Submit(`[data-testid=sandbox-clock] button[value="15"]`)
			tab.WaitText(`[data-testid=label-box]`, "Hand over with this code")
			if code := tab.Text(`[data-testid=handover-code]`); len(code) != 6 {
				t.Errorf("hand-over code %q", code)
			}
			tab.look(shapes + "-label-free")

			// A courier pickup for the Brno pickup address.
			tab.Open("/shipping/pickups")
			tab.do("choose the Brno address", chromedpSelect("#address", "2"))
			tab.Fill("#weight", "")
			tab.Type("#weight", "8")
			tab.Fill("#packages", "")
			tab.Type("#packages", "2")
			tab.Submit(`[data-testid=pickup-form] button.primary`)
			tab.WaitText(`[data-testid=pickups]`, "PU0000000")
			tab.look(shapes + "-pickup")
		})
	}
}
