package web_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"shipdesk/client/shipping"
)

// A shipment to Switzerland asks for customs data: the form shows its fields
// when the country is chosen, its rules refuse the order without them (nothing
// goes upstream), and the order carries them to the service.
func TestNonEUShipmentOrderedWithCustoms(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	form := with(shipmentForm(t, env), "to_street", "Bahnhofstrasse 1", "to_city", "Zürich", "to_zip", "8001", "to_country", "CH")

	if r := b.PostForm("/shipping/new/country", form); r.StatusCode != 200 || !strings.Contains(r.Body, `data-testid="customs"`) ||
		!strings.Contains(r.Body, "Reason for export") || !strings.Contains(r.Body, `<option value="CH" selected>Switzerland</option>`) {
		t.Fatalf("country CH: %d, customs fields shown %v", r.StatusCode, strings.Contains(r.Body, `data-testid="customs"`))
	}
	if r := b.PostForm("/shipping/new/country", with(form, "to_country", "DE", "to_zip", "10115")); strings.Contains(r.Body, `data-testid="customs"`) {
		t.Errorf("customs fields shown for Germany")
	}

	_, full := order(t, b, form, "UPS")
	before := countCalls(env, "shipments/create")
	r := b.PostForm("/shipping/new/order", full)
	if r.StatusCode != 422 {
		t.Fatalf("order without customs: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	for _, field := range []string{"customs_reason", "customs_description", "customs_hs_code", "customs_origin", "customs_quantity", "customs_value"} {
		if !strings.Contains(r.Body, `id="`+field+`-error"`) {
			t.Errorf("no problem shown at %s: %s", field, problemsOf(r.Body))
		}
	}
	if n := countCalls(env, "shipments/create") - before; n != 0 {
		t.Errorf("an order without customs went upstream: %d calls", n)
	}

	customs := with(full, "customs_reason", "sale", "customs_description", "Cotton T-shirts", "customs_hs_code", "6109.10",
		"customs_origin", "cz", "customs_quantity", "3", "customs_value", "1 200,50", "customs_currency", "CZK")
	r = b.PostForm("/shipping/new/order", customs)
	if r.StatusCode != 303 {
		t.Fatalf("order with customs: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	sh, err := env.App.DB.ShipmentByKey(context.Background(), full.Get("key"))
	if err != nil {
		t.Fatal(err)
	}
	var sent shipping.Order
	if err := json.Unmarshal(sh.Request, &sent); err != nil {
		t.Fatal(err)
	}
	c := sent.Shipments[0].Customs
	want := shipping.CustomsItem{Description: "Cotton T-shirts", HSCode: "610910", OriginCountry: "CZ", Quantity: 3,
		Value: shipping.Money{Value: 1200.5, Currency: "CZK"}, Weight: 2}
	if c == nil || c.Reason != "sale" || len(c.Items) != 1 || c.Items[0] != want {
		t.Errorf("customs sent: %+v", c)
	}
	if !strings.Contains(b.Get(r.Header.Get("Location")).Body, "Zürich") {
		t.Errorf("the shipment page does not show the Swiss recipient")
	}
}
