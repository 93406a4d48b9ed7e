package shipping

import (
	"strings"
	"testing"
	"time"

	"shipdesk/serviceerr"
)

// eventNames are the names and places of a shipment's tracking events, as
// answered in the language the client asks for ("" asks for none).
func eventNames(e *env, lang, tn string) (string, answer) {
	e.t.Helper()
	e.api.Lang = lang
	defer func() { e.api.Lang = "en" }()
	a := e.call("POST", "/api/v1/shipments/tracking", key1, map[string]any{"shipments": []string{tn}})
	if a.Status != 200 {
		e.t.Fatalf("tracking: %d %s", a.Status, a.Raw)
	}
	var b strings.Builder
	for _, pk := range a.Data()[tn].(map[string]any)["packages"].([]any) {
		for _, ev := range pk.([]any) {
			m := ev.(map[string]any)
			place, _ := m["location"].(string) // absent before the courier has the parcel
			b.WriteString(m["name"].(string) + " @ " + place + "; ")
		}
	}
	return b.String(), a
}

// A Czech service writes its data in Czech (tracking events and their
// places) and its messages in English, as the provider documents them;
// events in English and messages in Czech only when the client asks first.
func TestTrackingIsCzechUnlessEnglishIsAskedFor(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		tn, _ := e.create(key1, shipmentTo("ups", "ONDEMAND"))
		e.advance(2 * time.Minute)
		e.fetchLabels(key1, tn)
		e.advance(30 * time.Minute) // picked up, through the depot
		for _, lang := range []string{"", "cs", "cs-CZ,en;q=0.8", "de, cs;q=0.9, en;q=0.5", "fr"} {
			names, a := eventNames(e, lang, tn)
			for _, want := range []string{"Dopravce převzal data zásilky", "Převzato kurýrem", "Doručeno do třídicího depa @ Depo "} {
				if !strings.Contains(names, want) {
					t.Errorf("Accept-Language %q: events %q lack %q", lang, names, want)
				}
			}
			wantMsg := "Found 1 of 1 shipments"
			if strings.HasPrefix(lang, "cs") || strings.Contains(lang, "cs;q=0.9") {
				wantMsg = "Nalezeno 1 z 1 zásilek"
			}
			if msg := a.Body["message"]; msg != wantMsg {
				t.Errorf("Accept-Language %q: message %q, want %q", lang, msg, wantMsg)
			}
		}
		for _, lang := range []string{"en", "en-GB,cs;q=0.5", "de, en;q=0.9, cs;q=0.5"} {
			names, a := eventNames(e, lang, tn)
			for _, want := range []string{"Shipment data received by the carrier", "Picked up by the courier", "Arrived at the sorting depot @ Depot "} {
				if !strings.Contains(names, want) {
					t.Errorf("Accept-Language %q: events %q lack %q", lang, names, want)
				}
			}
			if msg := a.Body["message"]; msg != "Found 1 of 1 shipments" {
				t.Errorf("Accept-Language %q: message %q", lang, msg)
			}
		}
	})
}

// Validation errors are English by default, as the provider documents them,
// and Czech when asked; the dashboard knows the words of both of the messages
// it says in its own (serviceerr.Known).
func TestValidationErrorsInEitherLanguageAreKnownToTheDashboard(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		sh := shipmentTo("zasilkovna", "REGULAR")
		sh["pickup_branch"] = point(e, "zasilkovna", false).Code
		sh["label_less"] = true
		sh["packages"] = []any{pkg(1), pkg(1)}
		body := orderBody("CREDIT", sh)
		for lang, want := range map[string][2]string{
			"":   {msgLabelLessPackages.EN, "Validation failed"},
			"en": {msgLabelLessPackages.EN, "Validation failed"},
			"cs": {msgLabelLessPackages.CS, "Kontrola údajů selhala"},
		} {
			e.api.Lang = lang
			a := e.call("POST", "/api/v1/shipments/create", key1, body)
			e.api.Lang = "en"
			got := a.FieldError("shipments[0].label_less")
			if a.Status != 400 || got != want[0] || a.Body["message"] != want[1] {
				t.Fatalf("Accept-Language %q: %d %s", lang, a.Status, a.Raw)
			}
			if said := serviceerr.Said(got); said.Key != "svc.label_less.packages" {
				t.Errorf("the dashboard does not know %q: %#v", got, said)
			}
		}
	})
}

// Every phrase of the sandbox has both languages with the same verbs, so
// an answer never prints %!d(MISSING).
func TestPhrasesHaveBothLanguages(t *testing.T) {
	for _, p := range []struct{ cs, en string }{
		{msgLabelLessPackages.CS, msgLabelLessPackages.EN}, {evDepot.CS, evDepot.EN}, {msgFoundOf.CS, msgFoundOf.EN},
		{msgStornoState.CS, msgStornoState.EN}, {msgServiceWeight.CS, msgServiceWeight.EN}, {msgInsuredMax.CS, msgInsuredMax.EN},
	} {
		if p.cs == "" || p.en == "" || verbs(p.cs) != verbs(p.en) {
			t.Errorf("%q and %q differ in their verbs", p.cs, p.en)
		}
	}
}

func verbs(format string) string {
	var out []string
	for i := 0; i < len(format)-1; i++ {
		if format[i] == '%' {
			out = append(out, format[i:i+2])
			i++
		}
	}
	return strings.Join(out, " ")
}
