package cart_test

import (
	"context"
	"slices"
	"testing"

	"shipdesk/client/cart"
	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/clock"
	"shipdesk/sandbox/sandboxtest"
)

func newClient(t *testing.T, env *sandboxtest.Env, key string) (*cart.Client, *transport.Metrics) {
	m := transport.NewMetrics(clock.Real())
	c, err := cart.New(transport.Config{BaseURL: env.URL, APIKey: key, Metrics: m})
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}

func TestDraftWithDefaults(t *testing.T) {
	env := sandboxtest.Start(t)
	c, _ := newClient(t, env, sandboxtest.ShippingKey)
	d, err := c.Create(context.Background(), cart.Request{ReferenceNumber: "OBJ-1", PickupBranch: "1",
		To: shipping.Address{Firstname: "Eva", Surname: "Malá", Street: "Polní 3", City: "Kolín", Zip: "280 02", Country: "CZ", Phone: "+420777000111"}})
	if err != nil {
		t.Fatal(err)
	}
	if d.ID == 0 || d.Source != "API" || d.ReferenceNumber != "OBJ-1" || d.Rates != nil || d.Warnings != nil || d.Modified == "" {
		t.Errorf("draft %+v", d)
	}
	for _, want := range []string{"from", "packages", "serviceId", "pickupBranch"} {
		if !slices.Contains(d.Defaults, want) {
			t.Errorf("default %s not reported: %v", want, d.Defaults)
		}
	}
	w, err := c.Create(context.Background(), cart.Request{To: shipping.Address{Surname: "Malá"}})
	if err != nil || len(w.Warnings) == 0 {
		t.Errorf("incomplete draft: %+v %v", w, err)
	}
}

func TestDraftRefusals(t *testing.T) {
	env := sandboxtest.Start(t)
	bad, _ := newClient(t, env, "nope")
	if _, err := bad.Create(context.Background(), cart.Request{To: shipping.Address{Surname: "X"}}); !transport.IsUnauthorized(err) {
		t.Errorf("wrong key: %v", err)
	}
	c, m := newClient(t, env, sandboxtest.ShippingKey)
	_, err := c.Create(context.Background(), cart.Request{To: shipping.Address{Surname: "X", Zip: "1"}})
	if !transport.IsInvalid(err) || transport.FieldErrors(err)[0].Field != "to.zip" {
		t.Errorf("invalid postal code: %v", err)
	}
	env.Fault("/api/v2/public/cart/create", map[string]any{"error_rate": 1, "count": 1})
	if _, err := c.Create(context.Background(), cart.Request{To: shipping.Address{Surname: "X"}}); !transport.IsTemporary(err) {
		t.Errorf("503: %v", err)
	}
	var n int64
	for _, x := range m.Counters() {
		n += x.Calls
	}
	if n != 2 {
		t.Errorf("%d calls: a draft create was repeated", n)
	}
}
