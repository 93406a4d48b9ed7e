package shipping

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// The test clock stands on Monday 2026-11-23 09:00.
const nextWorkday = "2026-11-24"

func pickupBody(addressID int64) map[string]any {
	return map[string]any{"address_id": addressID, "date": nextWorkday, "time_from": "09:00", "time_to": "12:00",
		"packages": 3, "weight": 12.5, "note": "Ring at the gate"}
}

func (e *env) orderPickup(key string, body map[string]any) map[string]any {
	e.t.Helper()
	a := e.call("POST", "/api/v1/pickups/add", key, body)
	if a.Status != 200 {
		e.t.Fatalf("pickups/add: %d %s", a.Status, a.Raw)
	}
	return a.Data()
}

func (e *env) pickups(key, query string) map[string]any {
	e.t.Helper()
	a := e.call("GET", "/api/v1/pickups/list"+query, key, nil)
	if a.Status != 200 {
		e.t.Fatalf("pickups/list%s: %d %s", query, a.Status, a.Raw)
	}
	return a.Data()
}

func TestPickupOrderedAndListed(t *testing.T) {
	e := newEnv(t)
	body := pickupBody(1)
	body["carrier"] = "UPS" // codes match without regard to case
	pu := e.orderPickup(key1, body)
	if pu["number"] != "PU00000001" || pu["status"] != "ORDERED" || pu["address_id"] != float64(1) || pu["carrier"] != "UPS" ||
		pu["date"] != nextWorkday || pu["time_from"] != "09:00" || pu["time_to"] != "12:00" || pu["packages"] != float64(3) ||
		pu["weight"] != 12.5 || pu["note"] != "Ring at the gate" {
		t.Errorf("pickup: %v", pu)
	}
	if addr, _ := pu["address"].(map[string]any); addr["city"] != "Praha" || addr["id"] != float64(1) {
		t.Errorf("address: %v", pu["address"])
	}
	// 09:00 UTC as the service writes it, in Prague time.
	if !regexp.MustCompile(`^2026-11-23 10:00:00$`).MatchString(fmt.Sprint(pu["created"])) {
		t.Errorf("created %v", pu["created"])
	}
	// A contact added a moment ago is a pickup address at once.
	id := e.addContact(key1, newContact())
	later := pickupBody(id)
	later["date"] = "2026-12-02"
	second := e.orderPickup(key1, later)

	a := e.call("GET", "/api/v1/pickups/list", key1, nil)
	if a.Body["message"] != "Found 2 pickups" {
		t.Errorf("message %v", a.Body["message"])
	}
	all := a.Data()
	if all["1"] == nil || all[fmt.Sprint(second["id"])] == nil {
		t.Errorf("list is not keyed by id: %v", all)
	}
	if got := e.pickups(key1, "?date_from=2026-11-25"); len(got) != 1 || got[fmt.Sprint(second["id"])] == nil {
		t.Errorf("date_from: %v", got)
	}
	if got := e.pickups(key1, "?date_from=2026-11-24&date_to=2026-11-24"); len(got) != 1 || got["1"] == nil {
		t.Errorf("one day: %v", got)
	}
	if got := e.pickups(key2, ""); len(got) != 0 {
		t.Errorf("account 2 sees %v", got)
	}
	if a := e.call("GET", "/api/v1/pickups/list?date_from=24.11.2026", key1, nil); a.Status != 400 || a.FieldError("date_from") == "" {
		t.Errorf("bad date_from: %d %s", a.Status, a.Raw)
	}
}

func TestPickupRefusals(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, field string
		change      map[string]any
	}{
		{"PastDate", "date", map[string]any{"date": "2026-11-20"}},
		{"Saturday", "date", map[string]any{"date": "2026-11-28"}},
		{"Sunday", "date", map[string]any{"date": "2026-11-29"}},
		{"TooFarAhead", "date", map[string]any{"date": "2026-12-24"}},
		{"NoDate", "date", map[string]any{"date": ""}},
		{"BadDate", "date", map[string]any{"date": "2026-02-30"}},
		{"UnknownAddress", "address_id", map[string]any{"address_id": 9999}},
		{"OtherAccountsAddress", "address_id", map[string]any{"address_id": 11}},
		{"NoAddress", "address_id", map[string]any{"address_id": 0}},
		{"WindowReversed", "time_to", map[string]any{"time_from": "14:00", "time_to": "10:00"}},
		{"WindowTooShort", "time_to", map[string]any{"time_from": "10:00", "time_to": "11:30"}},
		{"TooEarly", "time_from", map[string]any{"time_from": "06:00", "time_to": "09:00"}},
		{"TooLate", "time_to", map[string]any{"time_from": "16:00", "time_to": "19:00"}},
		{"BadTime", "time_from", map[string]any{"time_from": "9am"}},
		{"TodayTooLate", "time_to", map[string]any{"date": "2026-11-23", "time_from": "07:00", "time_to": "10:00"}},
		{"NoPackages", "packages", map[string]any{"packages": 0}},
		{"TooManyPackages", "packages", map[string]any{"packages": 101}},
		{"ZeroWeight", "weight", map[string]any{"weight": 0}},
		{"NegativeWeight", "weight", map[string]any{"weight": -3}},
		{"HugeWeight", "weight", map[string]any{"weight": 5000}},
		{"UnknownCarrier", "carrier", map[string]any{"carrier": "nope"}},
		{"PointOnlyCarrier", "carrier", map[string]any{"carrier": "BALIKOVNA"}},
		{"LongNote", "note", map[string]any{"note": strings.Repeat("n", 256)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := pickupBody(1)
			for k, v := range c.change {
				body[k] = v
			}
			a := e.call("POST", "/api/v1/pickups/add", key1, body)
			if a.Status != 400 || a.FieldError(c.field) == "" {
				t.Errorf("%d, want 400 on %s: %s", a.Status, c.field, a.Raw)
			}
		})
	}
	if a := e.call("POST", "/api/v1/pickups/add", key1, `{"address_id": 1, "packages": 1.5}`); a.Status != 400 || a.FieldError("packages") == "" {
		t.Errorf("fractional packages: %d %s", a.Status, a.Raw)
	}
	if a := e.call("POST", "/api/v1/pickups/add", key1, `{"address_id": 1, "weight": NaN}`); a.Status != 400 {
		t.Errorf("NaN weight: %d %s", a.Status, a.Raw)
	}
	if n := len(e.pickups(key1, "")); n != 0 {
		t.Errorf("%d pickups after refusals", n)
	}
	for _, key := range []string{"", "wrong-key"} {
		if a := e.call("POST", "/api/v1/pickups/add", key, pickupBody(1)); a.Status != 401 {
			t.Errorf("pickups/add with key %q: %d", key, a.Status)
		}
		if a := e.call("GET", "/api/v1/pickups/list", key, nil); a.Status != 401 {
			t.Errorf("pickups/list with key %q: %d", key, a.Status)
		}
	}
}
