package shipping_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/sandbox/sandboxtest"
)

func pickupRequest(addressID int64, date, from string) shipping.PickupRequest {
	return shipping.PickupRequest{AddressID: addressID, Date: date, TimeFrom: from, TimeTo: "16:00", Packages: 2, Weight: 7.5, Note: "gate B"}
}

func TestAddContactThenUseIt(t *testing.T) {
	env := sandboxtest.Start(t)
	c, m := client(t, env, sandboxtest.ShippingKey)
	before, err := c.Contacts(ctx)
	if err != nil || len(before) != 2 {
		t.Fatalf("contacts: %+v %v", before, err)
	}
	a := shipping.Address{Company: "Shop – Olomouc", Surname: "Vrba", Street: "Horní náměstí 1", City: "Olomouc", Zip: "779 00", Country: "CZ", Phone: "+420601222333"}
	id, err := c.AddContact(ctx, a)
	if err != nil || id == 0 {
		t.Fatalf("add contact: %d %v", id, err)
	}
	after, err := c.Contacts(ctx)
	if err != nil || len(after) != 3 || after[2].ID != id || after[2].City != "Olomouc" || after[2].Address.ID != 0 {
		t.Fatalf("contacts after add: %+v %v", after, err)
	}
	s := shipment("ups", "FROM-NEW")
	s.From = shipping.Address{ID: id}
	if _, err := c.Create(ctx, order(s)); err != nil {
		t.Errorf("create from the new contact: %v", err)
	}
	a.Zip = "77"
	if _, err := c.AddContact(ctx, a); !transport.IsInvalid(err) || transport.FieldErrors(err)[0].Field != "zip" {
		t.Errorf("bad zip: %v", err)
	}
	env.Fault("/api/v1/contacts/add", map[string]any{"error_rate": 1, "count": 1})
	if _, err := c.AddContact(ctx, a); !transport.IsTemporary(err) {
		t.Errorf("503: %v", err)
	}
	if n := calls(m, "contacts/add"); n != 3 {
		t.Errorf("contacts/add was retried: %d calls for 3 adds", n)
	}
}

func TestPickupsOrderedListedAndNotRepeated(t *testing.T) {
	env := sandboxtest.Start(t)
	c, m := client(t, env, sandboxtest.ShippingKey)
	late, err := c.AddPickup(ctx, pickupRequest(1, sandboxtest.Day(2), "13:00"))
	if err != nil || late.Number == "" || late.Status != "ORDERED" || late.Address.City != "Praha" || late.AddressID != 1 || late.Weight != 7.5 {
		t.Fatalf("add pickup: %+v %v", late, err)
	}
	req := pickupRequest(2, sandboxtest.Day(2), "08:00")
	req.Carrier = "UPS"
	early, err := c.AddPickup(ctx, req)
	if err != nil || early.Carrier == "" {
		t.Fatalf("add pickup with a carrier: %+v %v", early, err)
	}
	if _, err := c.AddPickup(ctx, pickupRequest(1, sandboxtest.Day(5), "08:00")); !transport.IsInvalid(err) || transport.FieldErrors(err)[0].Field != "date" {
		t.Errorf("weekend: %v", err)
	}
	list, err := c.Pickups(ctx, sandboxtest.Day(1), sandboxtest.Day(7))
	if err != nil || len(list) != 2 || list[0].ID != early.ID || list[1].ID != late.ID {
		t.Fatalf("pickups by date and window: %+v %v", list, err)
	}
	if none, err := c.Pickups(ctx, sandboxtest.Day(8), ""); err != nil || len(none) != 0 {
		t.Errorf("later pickups: %+v %v", none, err)
	}
	// A lost answer is not repeated: the pickup exists once.
	env.Fault("/api/v1/pickups/add", map[string]any{"drop_after_rate": 1, "count": 1})
	if _, err := c.AddPickup(ctx, pickupRequest(1, sandboxtest.Day(3), "09:00")); !transport.IsOutcomeUnknown(err) {
		t.Fatalf("lost answer: %v", err)
	}
	if n := calls(m, "pickups/add"); n != 4 {
		t.Errorf("%d pickups/add calls for 4 orders", n)
	}
	if got, _ := c.Pickups(ctx, sandboxtest.Day(3), sandboxtest.Day(3)); len(got) != 1 {
		t.Errorf("%d pickups on the day of the lost answer", len(got))
	}
	other, _ := client(t, env, "wrong-key")
	if _, err := other.Pickups(ctx, "", ""); !transport.IsUnauthorized(err) {
		t.Errorf("wrong key: %v", err)
	}
}

// Answers seen from the service in other forms: plain lists and string ids.
func TestListedDataAndStringIDs(t *testing.T) {
	answers := map[string]string{
		"/api/v1/contacts/list": `{"status":200,"message":"ok","data":[{"id":"7","company":"A","city":"Brno"},{"id":3,"city":"Zlín"}]}`,
		"/api/v1/contacts/add":  `{"status":200,"message":"ok","data":["42"]}`,
		"/api/v1/pickups/list": `{"status":200,"message":"ok","data":{"9":{"number":"PU9","address_id":"7","date":"2026-11-25","time_from":"10:00","time_to":"12:00"},
			"5":{"id":"5","number":"PU5","address":{"id":"3","city":"Zlín"},"date":"2026-11-24","time_from":"10:00","time_to":"12:00"}}}`,
		"/api/v1/pickups/add": `{"status":200,"message":"ok","data":{"id":"11","number":"PU11","address_id":7,"date":"2026-11-25"}}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(answers[r.URL.Path]))
	}))
	defer srv.Close()
	c, err := shipping.New(transport.Config{BaseURL: srv.URL, APIKey: "k", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	contacts, err := c.Contacts(ctx)
	if err != nil || len(contacts) != 2 || contacts[0].ID != 3 || contacts[1].ID != 7 || contacts[1].Company != "A" {
		t.Errorf("listed contacts: %+v %v", contacts, err)
	}
	if id, err := c.AddContact(ctx, shipping.Address{City: "Brno"}); err != nil || id != 42 {
		t.Errorf("string id: %d %v", id, err)
	}
	pickups, err := c.Pickups(ctx, "", "")
	if err != nil || len(pickups) != 2 || pickups[0].ID != 5 || pickups[0].AddressID != 3 || pickups[1].ID != 9 || pickups[1].AddressID != 7 {
		t.Errorf("keyed pickups: %+v %v", pickups, err)
	}
	if p, err := c.AddPickup(ctx, shipping.PickupRequest{}); err != nil || p.ID != 11 || p.AddressID != 7 {
		t.Errorf("pickup with a string id: %+v %v", p, err)
	}
}

// contacts/add and pickups/add go out in the list forms real clients send, and
// a list-form refusal keyed both ways comes back under PickupRequest's names.
func TestContactsAndPickupsAreSentInTheListForm(t *testing.T) {
	var bodies = map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies[r.URL.Path] = string(b)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/api/v1/pickups/add" {
			w.WriteHeader(400)
			_, _ = w.Write([]byte(`{"status":400,"message":"Validation failed","errors":{"0":{"field":"pickups[0].address","message":"Unknown pickup address 9"},"1":{"field":"pickups[0].time_range","message":"too short"},"address":["Unknown pickup address 9"],"time_range":["too short"]}}`))
			return
		}
		_, _ = w.Write([]byte(`{"status":200,"message":"ok","data":[5]}`))
	}))
	defer srv.Close()
	c, err := shipping.New(transport.Config{BaseURL: srv.URL, APIKey: "k", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if id, err := c.AddContact(ctx, shipping.Address{Company: "A", Street: "Dlouhá 1", City: "Brno", Zip: "60200", Country: "CZ"}); err != nil || id != 5 {
		t.Errorf("add contact: %d %v", id, err)
	}
	if want := `{"contacts":[{"company":"A","street":"Dlouhá 1","city":"Brno","zip":"60200","country":"CZ"}]}`; bodies["/api/v1/contacts/add"] != want {
		t.Errorf("contacts/add body %s, want %s", bodies["/api/v1/contacts/add"], want)
	}
	_, err = c.AddPickup(ctx, shipping.PickupRequest{AddressID: 9, Date: "2026-11-25", TimeFrom: "08:00", TimeTo: "09:00"})
	if want := `{"pickups":[{"date":"2026-11-25","time_range":"08:00-09:00","address":{"id":9}}]}`; bodies["/api/v1/pickups/add"] != want {
		t.Errorf("pickups/add body %s, want %s", bodies["/api/v1/pickups/add"], want)
	}
	fields := transport.FieldErrors(err)
	if len(fields) != 2 || fields[0].Field != "address_id" || fields[0].Message != "Unknown pickup address 9" || fields[1].Field != "time_to" {
		t.Errorf("pickup refusal read as %+v", fields)
	}
}
