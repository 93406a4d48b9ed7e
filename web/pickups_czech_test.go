package web_test

import (
	"net/url"
	"regexp"
	"testing"

	"shipdesk/requestkey"
	"shipdesk/sandbox/sandboxtest"
)

// In Czech the pickup form shows its day the Czech way and reads it back so
// (or as ISO); its carriers are chosen by their names.
func TestPickupFormSpeaksCzechDays(t *testing.T) {
	t.Parallel()
	_, b := deskEnv(t)
	b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/shipping/pickups"}})
	doc := page(t, b.Get("/shipping/pickups").Body)
	if got := doc.Find(`#date`).AttrOr("value", ""); !regexp.MustCompile(`^\d{1,2}\. \d{1,2}\. \d{4}$`).MatchString(got) {
		t.Errorf("the day in Czech: %q", got)
	}
	// The carrier is chosen by name, in Czech, from those the address has.
	if got := doc.Find(`select#carrier option`).First().Text(); got != "Kterýkoli dopravce" {
		t.Errorf("the carrier select's first choice: %q", got)
	}
	if doc.Find(`select#carrier option[value=ZASILKOVNA]`).Text() != "Zásilkovna" {
		t.Errorf("no Zásilkovna among the carriers: %q", doc.Find(`select#carrier`).Text())
	}
	// A Czech day is read; the form comes back (a weight is missing) with the day as typed and no problem on it.
	// Three weeks after the test clock's Monday: a working day ahead on any run.
	d := sandboxtest.Epoch.AddDate(0, 0, 21)
	czech := d.Format("2. 1. 2006")
	for _, day := range []string{czech, d.Format("2.1.2006"), d.Format("2006-01-02")} {
		r := b.PostForm("/shipping/pickups", url.Values{"key": {requestkey.New()}, "address": {"1"}, "date": {day}, "time_from": {"09:00"},
			"time_to": {"12:00"}, "packages": {"1"}, "weight": {""}})
		doc := page(t, r.Body)
		if r.StatusCode != 422 || doc.Find(`#date-error`).Length() != 0 || doc.Find(`#weight-error`).Length() != 1 {
			t.Errorf("%q: %d %s", day, r.StatusCode, problemsOf(r.Body))
		}
		if got := doc.Find(`#date`).AttrOr("value", ""); got != czech {
			t.Errorf("%q comes back as %q", day, got)
		}
	}
}
