package shipping

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

func newContact() map[string]any {
	return map[string]any{"company": "Shop s.r.o. – Ostrava", "firstname": "Iva", "surname": "Nová", "street": "Nádražní 7",
		"city": "Ostrava", "zip": "702 00", "country": "CZ", "phone": "+420601000009", "email": "ostrava@example.com"}
}

// addContact stores a contact and returns its id.
func (e *env) addContact(key string, body map[string]any) int64 {
	e.t.Helper()
	a := e.call("POST", "/api/v1/contacts/add", key, body)
	ids, _ := a.Body["data"].([]any)
	if a.Status != 200 || len(ids) == 0 {
		e.t.Fatalf("contacts/add: %d %s", a.Status, a.Raw)
	}
	return int64(ids[0].(float64))
}

func (e *env) contacts(key string) map[string]any {
	e.t.Helper()
	a := e.call("GET", "/api/v1/contacts/list", key, nil)
	if a.Status != 200 {
		e.t.Fatalf("contacts/list: %d %s", a.Status, a.Raw)
	}
	return a.Data()
}

func TestContactsListIsKeyedByID(t *testing.T) {
	e := newEnv(t)
	list := e.contacts(key1)
	if len(list) != 2 {
		t.Fatalf("%d contacts, want the 2 defaults: %v", len(list), list)
	}
	defaults := 0
	for key, v := range list {
		c := v.(map[string]any)
		if strconv.FormatFloat(c["id"].(float64), 'f', -1, 64) != key {
			t.Errorf("contact under key %s has id %v", key, c["id"])
		}
		if c["default"] == true {
			defaults++
		}
	}
	if defaults != 1 {
		t.Errorf("%d defaults", defaults)
	}
	if other := e.contacts(key2); other["1"] != nil || len(other) != 2 {
		t.Errorf("account 2 sees %v", other)
	}
}

func TestContactAddedIsUsableAsSender(t *testing.T) {
	e := newEnv(t)
	body := newContact()
	body["default"] = true
	id := e.addContact(key1, body)
	key := strconv.FormatInt(id, 10)
	list := e.contacts(key1)
	c, _ := list[key].(map[string]any)
	if c == nil || c["city"] != "Ostrava" || c["default"] != true || len(list) != 3 {
		t.Fatalf("list after add: %v", list)
	}
	for k, v := range list {
		if k != key && v.(map[string]any)["default"] == true {
			t.Errorf("contact %s is still the default", k)
		}
	}
	sh := shipmentTo("ups", "ONDEMAND")
	sh["from"] = map[string]any{"id": id}
	if a := e.call("POST", "/api/v1/rates/get", key1, map[string]any{"currency": "CZK", "type": "ONDEMAND", "from": sh["from"], "to": recipient(), "packages": []any{pkg(1)}}); a.Status != 200 {
		t.Errorf("rates with the new from.id: %d %s", a.Status, a.Raw)
	}
	if tn, _ := e.create(key1, sh); e.detail(key1, tn)["from"].(map[string]any)["city"] != "Ostrava" {
		t.Error("the new stored address was not used as the sender")
	}
	// Another account does not know it.
	if a := e.call("POST", "/api/v1/shipments/validate", key2, orderBody("CREDIT", sh)); a.FieldError("shipments[0].from.id") == "" {
		t.Errorf("account 2 used account 1's contact: %s", a.Raw)
	}
	sh["from"] = map[string]any{"id": 9999}
	if a := e.call("POST", "/api/v1/shipments/create", key1, orderBody("CREDIT", sh)); a.FieldError("shipments[0].from.id") == "" {
		t.Errorf("unknown stored address: %s", a.Raw)
	}
}

func TestContactAddRefusals(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, field string
		change      map[string]any
	}{
		{"NoName", "surname", map[string]any{"company": "", "firstname": "", "surname": " "}},
		{"NoStreet", "street", map[string]any{"street": ""}},
		{"NoCity", "city", map[string]any{"city": ""}},
		{"NoZip", "zip", map[string]any{"zip": ""}},
		{"BadZip", "zip", map[string]any{"zip": "7020"}},
		{"SlovakZipShape", "zip", map[string]any{"country": "SK", "zip": "SK-811"}},
		{"ForeignCountry", "country", map[string]any{"country": "DE"}},
		{"NoCountry", "country", map[string]any{"country": ""}},
		{"NoPhoneNorEmail", "phone", map[string]any{"phone": "", "email": ""}},
		{"BadEmail", "email", map[string]any{"email": "not-an-address"}},
		{"LongCompany", "company", map[string]any{"company": strings.Repeat("x", 101)}},
		{"LongStreet", "street", map[string]any{"street": strings.Repeat("ř", 101)}},
		{"NulInCity", "city", map[string]any{"city": "Ost\x00rava"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := newContact()
			for k, v := range c.change {
				body[k] = v
			}
			a := e.call("POST", "/api/v1/contacts/add", key1, body)
			if a.Status != 400 || a.FieldError(c.field) == "" {
				t.Errorf("%d, want 400 on %s: %s", a.Status, c.field, a.Raw)
			}
		})
	}
	if a := e.call("POST", "/api/v1/contacts/add", key1, `{"street": 5}`); a.Status != 400 || a.FieldError("street") == "" {
		t.Errorf("wrong type: %d %s", a.Status, a.Raw)
	}
	if n := len(e.contacts(key1)); n != 2 {
		t.Errorf("%d contacts after refusals", n)
	}
	for _, key := range []string{"", "wrong-key"} {
		if a := e.call("POST", "/api/v1/contacts/add", key, newContact()); a.Status != 401 {
			t.Errorf("contacts/add with key %q: %d", key, a.Status)
		}
		if a := e.call("GET", "/api/v1/contacts/list", key, nil); a.Status != 401 {
			t.Errorf("contacts/list with key %q: %d", key, a.Status)
		}
	}
}

func TestContactsAndPickupsSurviveSnapshotAndWipe(t *testing.T) {
	e := newEnv(t)
	id := e.addContact(key1, newContact())
	pu := e.orderPickup(key1, pickupBody(id))
	snap, err := e.svc.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	e.svc.Wipe()
	if n := len(e.contacts(key1)); n != 2 {
		t.Errorf("%d contacts after wipe, want the 2 defaults", n)
	}
	if n := len(e.pickups(key1, "")); n != 0 {
		t.Errorf("%d pickups after wipe", n)
	}
	if err := e.svc.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if c := e.contacts(key1)[strconv.FormatInt(id, 10)]; c == nil {
		t.Error("added contact lost in the snapshot")
	}
	if got := e.pickups(key1, ""); got[fmt.Sprint(pu["id"])] == nil || len(got) != 1 {
		t.Errorf("pickups after restore: %v", got)
	}
	if next := e.addContact(key1, newContact()); next <= id {
		t.Errorf("contact numbering restarted: %d after %d", next, id)
	}
	if again := e.orderPickup(key1, pickupBody(id)); again["number"] == pu["number"] {
		t.Errorf("pickup numbering restarted: %v", again["number"])
	}
}
