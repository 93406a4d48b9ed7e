package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"shipdesk/sandbox/shipping"
)

// A Czech clerk reads the service's tracking events in Czech on the shipment
// page: the service answers our client in Czech.
func TestCzechClerkReadsCzechTrackingEvents(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	page := placed(t, env, b, 1)[0]
	env.LabelsFetched() // a courier takes no unlabelled parcel
	env.Sandbox.Advance(2 * time.Hour)
	if resp := b.PostForm(page+"/refresh", url.Values{}); resp.StatusCode != 303 {
		t.Fatalf("refresh: %d", resp.StatusCode)
	}
	b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {page}})
	timeline := htmlOf(t, b.Get(page).Body).Find(`[data-testid=timeline]`).Text()
	for _, want := range []string{"Dopravce převzal data zásilky", "Doručeno do třídicího depa", "Depo "} {
		if !strings.Contains(timeline, want) {
			t.Errorf("the timeline lacks %q: %s", want, timeline)
		}
	}
	for _, english := range []string{"Shipment data received", "sorting depot", "Depot "} {
		if strings.Contains(timeline, english) {
			t.Errorf("the timeline says %q in English", english)
		}
	}
}

// The demo's Prague warehouse has one name: the sender list and the service's
// stored address (which its labels and hand-over protocol print) both call it
// Sklad Praha; no two senders are the same place under two names.
func TestDemoSenderHasOneNameEverywhere(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	senders, err := env.App.DB.Senders(context.Background())
	if err != nil || len(senders) == 0 {
		t.Fatalf("senders: %v", err)
	}
	if senders[0].Label != shipping.DemoSenderPraha || senders[0].Company != shipping.DemoSenderPraha || senders[0].ContactID == nil {
		t.Errorf("the default sender is %q (%q), not the service's %q", senders[0].Label, senders[0].Company, shipping.DemoSenderPraha)
	}
	places := map[string]string{}
	for _, s := range senders {
		place := s.Street + ", " + s.City
		if other, ok := places[place]; ok {
			t.Errorf("%s is both %q and %q", place, other, s.Label)
		}
		places[place] = s.Label
	}
	book := b.Get("/shipping/addresses").Body
	if n := strings.Count(book, shipping.DemoSenderPraha); n == 0 || strings.Contains(book, "Warehouse") || strings.Contains(book, "Shop 1") {
		t.Errorf("the sender list names the warehouse %d times: %s", n, problemsOf(book))
	}
}
