package e2e

import (
	"slices"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// deskTab is a clerk signed in on a dashboard with the demo shipping data.
func deskTab(t *testing.T) (*apptest.Env, *Tab) {
	t.Helper()
	return deskTabOn(t, apptest.StartOptions(t, apptest.Options{CachedPoints: true}))
}

// deskTabOn is deskTab on a dashboard the caller started.
func deskTabOn(t *testing.T, env *apptest.Env) (*apptest.Env, *Tab) {
	t.Helper()
	env.SeedDesk()
	pw := env.AddUser("clara", identity.Clerk)
	tab := newTab(t, env.URL)
	tab.SignIn("clara", pw)
	return env, tab
}

func (b *Tab) fillRecipient() {
	b.t.Helper()
	b.Fill("#to_firstname", "Petra")
	b.Fill("#to_surname", "Svobodová")
	b.Fill("#to_street", "Americká 12")
	b.Fill("#to_city", "Plzeň")
	b.Fill("#to_zip", "301 00")
	b.Fill("#to_phone", "+420 731 222 333")
	b.Fill("#pkg_weight_0", "2")
	b.Fill("#pkg_length_0", "30")
	b.Fill("#pkg_width_0", "20")
	b.Fill("#pkg_height_0", "10")
}

// A clerk compares offers, picks a delivery point by typing a town, orders a
// COD shipment, moves the sandbox clock and prints the label.
func TestClerkOrdersCODShipmentToPoint(t *testing.T) {
	t.Parallel()
	_, tab := deskTab(t)
	tab.Open("/shipping")
	tab.Submit(`a[href="/shipping/new"]`)
	tab.fillRecipient()
	tab.Click("#cod")
	tab.Fill("#cod_value", "1250")
	tab.Click(`[data-testid=compare]`)
	tab.WaitText(`[data-testid=offers]`, "you print the label")
	tab.look("offers")
	// Sorting by carrier keeps the form and shows the carriers in order.
	tab.Click(`button[name=sort][value=carrier]`)
	tab.WaitText(`button[name=sort][value=carrier][aria-pressed=true]`, "carrier")
	// Selectable offers come first, in carrier order; the others follow.
	carriers := tab.Texts(`[data-testid=offers] tbody tr:has(button[name=choose]) td:first-child`)
	if len(carriers) < 2 {
		t.Fatalf("offers: %q", carriers)
	}
	if !slices.IsSorted(carriers) {
		t.Errorf("not sorted by carrier: %q", carriers)
	}
	// The ZASILKOVNA service to a point: choose it, then find a point by typing the town.
	tab.Click(`tr[data-service="102"] button[name=choose]`)
	tab.WaitText(`[data-testid=chosen]`, "Delivery point")
	tab.Fill("#delivery_q", "")
	tab.Type("#delivery_q", "brno")
	tab.WaitText(`[data-testid=delivery-points]`, "Brno")
	tab.look("picker")
	tab.Click(`[data-testid=delivery-points] input[type=radio]`)
	tab.Submit(`[data-testid=create]`)
	if !strings.HasPrefix(tab.Path(), "/shipping/shipments/") {
		t.Fatalf("after ordering the page is %s", tab.Path())
	}
	tab.WaitText(`[data-testid=label-box]`, "label being made")
	if got := tab.Text(`main`); !strings.Contains(got, "CZK\u00a01,250.00") {
		t.Errorf("the shipment page does not show the COD amount")
	}
	tab.look("pending")
	// Simulated time moves (to before the courier's pickup); the label box notices by itself.
	tab.Submit(`[data-testid=sandbox-clock] button[value="15"]`)
	tab.WaitText(`[data-testid=label-box]`, "Print label")
	href := tab.Attr(`[data-testid=print-label]`, "href")
	ctype, start := tab.Fetch(href)
	if ctype != "application/pdf" || !strings.HasPrefix(start, "%PDF-") {
		t.Errorf("label: %s %q", ctype, start)
	}
	tab.look("ready")
	// The print queue holds it; printing it empties the queue.
	tab.Open("/shipping/print")
	if rows := tab.Texts(`[data-testid=shipments] tbody tr`); len(rows) != 1 {
		t.Fatalf("print queue: %q", rows)
	}
	tab.look("print-queue")
	// Printing opens the PDF in another tab; this one reloads to an empty queue.
	tab.Click(`[data-testid=print-selected]`)
	tab.WaitText(`main`, "No labels waiting")
}

// A label-free shipment shows its hand-over code once the carrier has it.
func TestLabelFreeShipmentShowsItsCode(t *testing.T) {
	t.Parallel()
	_, tab := deskTab(t)
	tab.Open("/shipping/new")
	tab.fillRecipient()
	tab.do("hand over at a point", chromedpSelect("#handover", "POINT"))
	tab.Click(`[data-testid=compare]`)
	tab.WaitText(`[data-testid=offers]`, "Zásilkovna")
	tab.Click(`tr[data-service="101"] button[name=choose]`)
	tab.WaitText(`#label-free`, "Label-free")
	// A person ticks the box of the form the choice drew, once no redraw is
	// on its way: a tick in a form about to be replaced is lost with it.
	tab.waitTrue("the chosen offer's form drawn", htmxIdle)
	tab.Click(`input[name=label_less]`)
	tab.waitTrue("the label-free box ticked", htmxIdle+` && document.querySelector("input[name=label_less]").checked`)
	tab.look("label-free-chosen")
	tab.Submit(`[data-testid=create]`)
	tab.WaitText(`[data-testid=label-box]`, "code being made")
	tab.Submit(`[data-testid=sandbox-clock] button[value="15"]`)
	tab.WaitText(`[data-testid=label-box]`, "Hand over with this code")
	code := tab.Text(`[data-testid=handover-code]`)
	if len(code) != 6 {
		t.Errorf("hand-over code %q", code)
	}
	if !strings.Contains(tab.Text(`[data-testid=label-box]`), "Svobodová") {
		t.Error("the recipient's name to write on the package is missing")
	}
	tab.look("code")
}
