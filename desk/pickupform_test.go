package desk_test

import (
	"net/url"
	"testing"
	"time"

	"shipdesk/desk"
	"shipdesk/requestkey"
)

func TestNextWorkday(t *testing.T) {
	for today, want := range map[string]string{
		"2026-11-23": "2026-11-24", // Monday → Tuesday
		"2026-11-27": "2026-11-30", // Friday → Monday
		"2026-11-28": "2026-11-30", // Saturday → Monday
		"2026-11-29": "2026-11-30", // Sunday → Monday
	} {
		d, _ := time.Parse("2006-01-02", today)
		if got := desk.NextWorkday(d).Format("2006-01-02"); got != want {
			t.Errorf("after %s: %s, want %s", today, got, want)
		}
	}
}

func TestParsePickupForm(t *testing.T) {
	today := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	good := url.Values{"key": {requestkey.New()}, "address": {"1"}, "date": {"2026-11-24"}, "time_from": {"09:00"}, "time_to": {"12:00"},
		"packages": {"2"}, "weight": {"3,5"}, "carrier": {"UPS"}, "note": {"gate"}}
	if _, p := desk.ParsePickupForm(good, today); len(p) != 0 {
		t.Fatalf("a good form: %v", p)
	}
	cases := []struct{ name, field, value string }{
		{"Weekend", "date", "2026-11-29"},
		{"Past", "date", "2026-11-22"},
		{"NotADate", "date", "24/11/2026"},
		{"NoDay", "date", "31. 11. 2026"},
		{"Reversed", "time_to", "08:00"},
		{"Short", "time_to", "10:30"},
		{"Evening", "time_to", "19:00"},
		{"NaN", "weight", "NaN"},
		{"NoWeight", "weight", ""},
		{"Fraction", "packages", "1.5"},
		{"Carrier", "carrier", "GLS SK"},
		{"NUL", "note", "a\x00b"},
		{"Address", "address", "x"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := url.Values{}
			for k, x := range good {
				v[k] = x
			}
			v.Set(c.field, c.value)
			if _, p := desk.ParsePickupForm(v, today); p[c.field].IsZero() {
				t.Errorf("%s=%q accepted: %v", c.field, c.value, p)
			}
		})
	}
	// A day typed the Czech way, with or without spaces, or as ISO, is the
	// same day for the service.
	for _, typed := range []string{"14. 12. 2026", "14.12.2026", "2026-12-14", " 14. 12. 2026 ", "14.\u00a012.\u00a02026"} {
		v := url.Values{}
		for k, x := range good {
			v[k] = x
		}
		v.Set("date", typed)
		if f, p := desk.ParsePickupForm(v, today); len(p) != 0 || f.Date != "2026-12-14" {
			t.Errorf("date %q: %q, %v", typed, f.Date, p)
		}
	}
	for path, want := range map[string]string{"address_id": "address", "date": "date", "time_to": "time_to", "": "form", "shipments[0].x": "form"} {
		if got := desk.PickupField(path); got != want {
			t.Errorf("PickupField(%q) = %q, want %q", path, got, want)
		}
	}
}

// The new-shipment form's pickup day is read by the same parser as the
// pickup form's: Czech or ISO, sent as ISO; what is no day stays as typed.
func TestShipmentFormReadsCzechPickupDay(t *testing.T) {
	for typed, want := range map[string]string{"14. 12. 2026": "2026-12-14", "14.12.2026": "2026-12-14", "2026-12-14": "2026-12-14",
		"": "", "14/12/2026": "14/12/2026"} {
		f, _ := desk.ParseForm(url.Values{"pickup_date": {typed}})
		if f.PickupDate != want {
			t.Errorf("pickup_date %q read as %q, want %q", typed, f.PickupDate, want)
		}
	}
}
