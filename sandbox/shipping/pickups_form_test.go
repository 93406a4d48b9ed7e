package shipping

import (
	"strings"
	"testing"
)

// firstErrorMessage reads errors[0].message as a JavaScript or PHP client
// does: index 0 of a list, or the member "0" of an object.
func firstErrorMessage(a answer) string {
	var first any
	switch errs := a.Body["errors"].(type) {
	case []any:
		if len(errs) > 0 {
			first = errs[0]
		}
	case map[string]any:
		first = errs["0"]
	}
	m, _ := first.(map[string]any)
	s, _ := m["message"].(string)
	return s
}

// keyedError reads errors.<field>[0], as the other kind of client does.
func keyedError(a answer, field string) string {
	errs, _ := a.Body["errors"].(map[string]any)
	list, _ := errs[field].([]any)
	if len(list) == 0 {
		return ""
	}
	s, _ := list[0].(string)
	return s
}

func listedPickup(addressID int64, date, window string) map[string]any {
	return map[string]any{"pickups": []any{map[string]any{"date": date, "time_range": window, "address": map[string]any{"id": addressID}}}}
}

// public-evidence.md: pickups/add takes {"pickups": [{date, time_range,
// address: {id}}]}; pickups/list shows what it ordered.
func TestPickupsAddTakesTheListFormAndListShowsIt(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		a := e.call("POST", "/api/v1/pickups/add", key1, listedPickup(1, nextWorkday, "08:00-16:00"))
		ordered, _ := a.Body["data"].([]any)
		if a.Status != 200 || len(ordered) != 1 {
			t.Fatalf("pickups/add: %d %s", a.Status, a.Raw)
		}
		pu := ordered[0].(map[string]any)
		if pu["date"] != nextWorkday || pu["time_range"] != "08:00-16:00" || pu["time_from"] != "08:00" || pu["time_to"] != "16:00" || pu["address_id"] != float64(1) {
			t.Errorf("ordered %v", pu)
		}
		id := e.addContact(key1, newContact())
		two := map[string]any{"pickups": []any{
			map[string]any{"date": "2026-11-25", "time_range": "9:00 - 12:00", "address": map[string]any{"id": id}},
			map[string]any{"date": "2026-11-26", "time_range": "10:00-14:00", "address": map[string]any{"id": 2}, "packages": 4, "weight": 20},
		}}
		if a := e.call("POST", "/api/v1/pickups/add", key1, two); a.Status != 200 || len(a.Body["data"].([]any)) != 2 {
			t.Fatalf("two pickups: %d %s", a.Status, a.Raw)
		}
		listed := e.pickups(key1, "")
		if len(listed) != 3 {
			t.Fatalf("pickups/list shows %d, want 3", len(listed))
		}
		windows := map[string]bool{}
		for _, v := range listed {
			windows[v.(map[string]any)["time_range"].(string)] = true
		}
		for _, w := range []string{"08:00-16:00", "09:00-12:00", "10:00-14:00"} {
			if !windows[w] {
				t.Errorf("pickups/list lacks the window %s: %v", w, windows)
			}
		}
	})
}

// A refusal of the list form reads both as errors.address[0] and as
// errors[0].message; all or nothing is ordered.
func TestPickupsAddErrorsReadBothWays(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		a := e.call("POST", "/api/v1/pickups/add", key1, listedPickup(999, nextWorkday, "08:00-16:00"))
		if a.Status != 400 {
			t.Fatalf("unknown address: %d %s", a.Status, a.Raw)
		}
		if msg := keyedError(a, "address"); !strings.Contains(msg, "999") {
			t.Errorf("errors.address[0] = %q: %s", msg, a.Raw)
		}
		if msg := firstErrorMessage(a); !strings.Contains(msg, "999") {
			t.Errorf("errors[0].message = %q: %s", msg, a.Raw)
		}
		if f := a.Body["errors"].(map[string]any)["0"].(map[string]any)["field"]; f != "pickups[0].address" {
			t.Errorf("errors[0].field = %v", f)
		}
		bad := map[string]any{"pickups": []any{
			map[string]any{"date": nextWorkday, "time_range": "08:00-16:00", "address": map[string]any{"id": 1}},
			map[string]any{"date": "2026-11-28", "time_range": "noon", "address": map[string]any{"id": 1}},
		}}
		b := e.call("POST", "/api/v1/pickups/add", key1, bad)
		if b.Status != 400 || keyedError(b, "date") == "" || !strings.Contains(keyedError(b, "time_range"), "08:00-16:00") || firstErrorMessage(b) == "" {
			t.Errorf("Saturday and an unreadable window: %d %s", b.Status, b.Raw)
		}
		if n := len(e.pickups(key1, "")); n != 0 {
			t.Errorf("%d pickups ordered by refused requests", n)
		}
		// Our own fields keep the usual list.
		old := e.call("POST", "/api/v1/pickups/add", key1, pickupBody(999))
		if _, isList := old.Body["errors"].([]any); old.Status != 400 || !isList || firstErrorMessage(old) == "" {
			t.Errorf("our fields: %d %s", old.Status, old.Raw)
		}
	})
}

// An order service's form of one pickup: the stored address's id, a day and
// a carrier; the window is the usual one and one parcel is collected. Its
// refusals name its own fields.
func TestPickupsAddTakesThePickupDateForm(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		body := map[string]any{"pickup_date": nextWorkday, "from": map[string]any{"id": 1}, "carrier": "ZASILKOVNA"}
		a := e.call("POST", "/api/v1/pickups/add", key1, body)
		pu, _ := a.Body["data"].(map[string]any)
		if a.Status != 200 || pu == nil {
			t.Fatalf("pickups/add: %d %s", a.Status, a.Raw)
		}
		if pu["date"] != nextWorkday || pu["address_id"] != float64(1) || pu["carrier"] != "ZASILKOVNA" ||
			pu["time_range"] != "08:00-16:00" || pu["packages"] != float64(1) {
			t.Errorf("ordered %v", pu)
		}
		if n := len(e.pickups(key1, "")); n != 1 {
			t.Errorf("pickups/list shows %d, want 1", n)
		}
		refused := e.call("POST", "/api/v1/pickups/add", key1, map[string]any{"from": map[string]any{"id": 999}, "carrier": "ZASILKOVNA"})
		fields := map[string]bool{}
		list, _ := refused.Body["errors"].([]any)
		for _, x := range list {
			fields[x.(map[string]any)["field"].(string)] = true
		}
		if refused.Status != 400 || !fields["from.id"] || !fields["pickup_date"] || len(fields) != 2 {
			t.Errorf("an unknown address without a day: %d %s", refused.Status, refused.Raw)
		}
	})
}
