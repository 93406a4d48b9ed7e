package web_test

import (
	"strings"
	"testing"
)

// With an offer chosen that goes with a label, while the offers below it
// offer the label-free hand-over, the panel points to them instead of
// calling label-free impossible: both say what the offers say.
func TestLabelFreePanelAgreesWithTheOffersBelow(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := shipmentForm(t, env)
	resp := b.PostForm("/shipping/new/compare", form)
	doc := page(t, resp.Body)
	if doc.Find(`[data-testid=label-free-offer]`).Length() == 0 {
		t.Fatalf("no label-free offers beside a courier pickup: %s", problemsOf(resp.Body))
	}
	resp = b.PostForm("/shipping/new/choose", with(form, "choose", offerOf(t, resp.Body, "UPS")))
	chosen := page(t, resp.Body).Find(`[data-testid=chosen]`)
	if chosen.Find(`[data-testid=label-free-below]`).Length() != 1 || strings.Contains(chosen.Text(), "not possible") {
		t.Errorf("the panel says %q while label-free offers are listed below", strings.Join(strings.Fields(chosen.Find(`#label-free`).Text()), " "))
	}
	if page(t, resp.Body).Find(`[data-testid=label-free-offer]`).Length() == 0 {
		t.Error("the label-free offers are gone after choosing")
	}
}

// A label-free shipment's page, before its code arrives, speaks of the code
// being prepared and never of a label.
func TestLabelFreeShipmentSpeaksOfItsCode(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	_, full := order(t, b, with(shipmentForm(t, env), "handover", "POINT"), "Zásilkovna Home")
	resp := b.PostForm("/shipping/new/order", with(full, "label_less", "on"))
	if resp.StatusCode != 303 {
		t.Fatalf("label-free order: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	for _, path := range []string{resp.Header.Get("Location"), resp.Header.Get("Location") + "/status"} {
		doc := page(t, b.Get(path).Body)
		box := strings.ToLower(doc.Find(`[data-testid=label-box]`).Text() + " " + doc.Find(`[data-testid=shipment-state]`).Text())
		if doc.Find(`[data-testid=code-pending]`).Length() != 1 || strings.Contains(box, "label") {
			t.Errorf("%s: %q", path, strings.Join(strings.Fields(box), " "))
		}
	}
}
