package shipping

import (
	"strconv"
	"strings"
	"testing"
)

// public-evidence.md: contacts/add takes {"contacts": [{firstname, surname,
// company, street, city, zip, country, phone, email, tin}]}, the new id is
// data[0], and the client finds its contact in contacts/list by street, city
// (any case) and zip without spaces, reading Number(contact.id).
func TestContactsAddTakesTheListFormAndListFindsIt(t *testing.T) {
	bothShapes(t, func(t *testing.T, e *env) {
		c := map[string]any{"firstname": "Iva", "surname": "Nová", "company": "Sklad Ostrava s.r.o.", "street": "Nádražní 7",
			"city": "Ostrava", "zip": "70200", "country": "CZ", "phone": "+420601000009", "email": "ostrava@example.com", "tin": "12345678"}
		a := e.call("POST", "/api/v1/contacts/add", key1, map[string]any{"contacts": []any{c}})
		ids, _ := a.Body["data"].([]any)
		if a.Status != 200 || len(ids) != 1 {
			t.Fatalf("contacts/add: %d %s", a.Status, a.Raw)
		}
		id := strconv.FormatFloat(ids[0].(float64), 'f', -1, 64)
		var found map[string]any
		for _, v := range e.contacts(key1) {
			got := v.(map[string]any)
			if got["street"] == "Nádražní 7" && strings.EqualFold(got["city"].(string), "OSTRAVA") &&
				strings.ReplaceAll(got["zip"].(string), " ", "") == "70200" {
				found = got
			}
		}
		if found == nil || strconv.FormatFloat(found["id"].(float64), 'f', -1, 64) != id {
			t.Fatalf("contacts/list does not hold contact %s as given: %v", id, found)
		}
		if found["zip"] != "70200" || found["city"] != "Ostrava" || found["tin"] != "12345678" || found["company"] != "Sklad Ostrava s.r.o." {
			t.Errorf("stored %v, want the fields as given", found)
		}
		// Several at once: the ids in the order given.
		other := map[string]any{"company": "Dílna", "street": "Dlouhá 1", "city": "Brno", "zip": "602 00", "country": "CZ", "phone": "+420601000010"}
		two := e.call("POST", "/api/v1/contacts/add", key1, map[string]any{"contacts": []any{other, c}})
		if got, _ := two.Body["data"].([]any); two.Status != 200 || len(got) != 2 || got[0].(float64) >= got[1].(float64) {
			t.Errorf("two contacts: %d %s", two.Status, two.Raw)
		}
		// An error in the list form names the contact.
		bad := e.call("POST", "/api/v1/contacts/add", key1, map[string]any{"contacts": []any{other, map[string]any{"company": "X", "country": "CZ", "tin": "12"}}})
		if bad.Status != 400 || bad.FieldError("contacts[1].street") == "" || bad.FieldError("contacts[1].tin") == "" {
			t.Errorf("bad second contact: %d %s", bad.Status, bad.Raw)
		}
		if empty := e.call("POST", "/api/v1/contacts/add", key1, map[string]any{"contacts": []any{}}); empty.Status != 400 || empty.FieldError("contacts") == "" {
			t.Errorf("no contacts: %d %s", empty.Status, empty.Raw)
		}
		// The stored contact is a sender by id alone.
		n, _ := strconv.ParseInt(id, 10, 64)
		sh := shipmentTo("ups", "ONDEMAND")
		sh["from"] = map[string]any{"id": n}
		if tn, _ := e.create(key1, sh); e.detail(key1, tn)["from"].(map[string]any)["street"] != "Nádražní 7" {
			t.Errorf("shipment from contact %s does not start there", id)
		}
	})
}
