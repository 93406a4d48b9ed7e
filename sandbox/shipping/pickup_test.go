package shipping

import (
	"testing"
	"time"

	"shipdesk/sandbox/apijson"
)

// A courier takes no unlabelled parcel: a printed-label shipment whose label
// nobody has fetched waits at ONPICKUP, however late it gets. The first fetch
// of the label lets it go: at the scheduled pickup when fetched before it, at
// the fetch when fetched after it. A label-free shipment goes with its
// hand-over code and a CARRIER shipment with the courier's label: neither
// waits. A storno stays refused at ONPICKUP either way.
func TestParcelWaitsForItsLabelBeforePickup(t *testing.T) {
	e := newEnv(t)
	g1 := point(e, "zasilkovna", false)
	unprinted, _ := e.create(key1, shipmentTo("ups", "ONDEMAND"))
	early, _ := e.create(key1, shipmentTo("ups", "ONDEMAND"))
	late, _ := e.create(key1, shipmentTo("ups", "ONDEMAND"))
	courier, _ := e.create(key1, shipmentTo("dpd", "ONDEMAND"))
	free := shipmentTo("zasilkovna", "REGULAR")
	free["pickup_branch"] = g1.Code
	free["label_less"] = true
	labelFree, _ := e.create(key1, free)

	status := func(tn string) string { return e.detail(key1, tn)["status"].(string) }
	events := func(tn string) []any {
		a := e.call("POST", "/api/v1/shipments/tracking", "", map[string]any{"shipments": []string{tn}})
		return a.Data()[tn].(map[string]any)["packages"].([]any)[0].([]any)
	}

	e.advance(8 * time.Minute) // exported at 1 min, ONPICKUP at 6
	e.fetchLabels(key1, early)
	e.advance(10 * time.Minute) // the scheduled pickup (16 min) has passed
	for tn, want := range map[string]string{unprinted: "ONPICKUP", late: "ONPICKUP", early: "INTRANSIT", courier: "INTRANSIT", labelFree: "INTRANSIT"} {
		if got := status(tn); got != want {
			t.Errorf("%s at 18 min: %s, want %s", tn, got, want)
		}
	}
	if a := e.call("POST", "/api/v1/shipments/storno", key1, map[string]any{"shipments": []string{unprinted}}); a.Status != 400 {
		t.Errorf("storno of a parcel waiting for its label at ONPICKUP: %d, want 400", a.Status)
	}

	e.advance(3 * time.Hour)
	if got := status(unprinted); got != "ONPICKUP" {
		t.Errorf("an unlabelled parcel three hours on: %s, want ONPICKUP", got)
	}
	if n := len(events(unprinted)); n != 2 {
		t.Errorf("an unlabelled parcel has %d events, want EXPORTED and ONPICKUP only", n)
	}
	for _, tn := range []string{early, courier, labelFree} {
		if got := status(tn); got != "DELIVERED" {
			t.Errorf("%s three hours on: %s, want DELIVERED", tn, got)
		}
	}

	// Fetched late: picked up then, and the journey goes on from there.
	e.fetchLabels(key1, late)
	if got := status(late); got != "INTRANSIT" {
		t.Errorf("just after its label was fetched: %s, want INTRANSIT", got)
	}
	pickedUp := events(late)[0].(map[string]any)
	if pickedUp["status"] != "INTRANSIT" || pickedUp["time"] != apijson.Clock(e.clock.Now()) {
		t.Errorf("picked up %v, want INTRANSIT at the fetch (%s, Prague time)", pickedUp, apijson.Clock(e.clock.Now()))
	}
	e.advance(39 * time.Minute)
	if got := status(late); got != "ONDELIVERY" {
		t.Errorf("39 min after the late fetch: %s, want ONDELIVERY", got)
	}
	e.advance(2 * time.Minute)
	if got := status(late); got != "DELIVERED" {
		t.Errorf("41 min after the late fetch: %s, want DELIVERED", got)
	}
}
