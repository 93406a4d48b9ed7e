package shipping_test

import (
	"testing"

	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/countries"
	"shipdesk/sandbox/sandboxtest"
)

// The dashboard's own list of countries agrees with the service's: each is
// served, and customs data are asked for exactly where the list says.
func TestCountriesAndCustomsAgreeWithTheService(t *testing.T) {
	env := sandboxtest.Start(t)
	c, _ := client(t, env, sandboxtest.ShippingKey)
	for _, code := range countries.Served {
		sh := shipment("UPS", "")
		sh.To.Country, sh.To.Zip = code, "" // the answer names every problem: a missing zip besides the customs
		err := c.Validate(ctx, order(sh))
		if err != nil && !transport.IsInvalid(err) {
			t.Fatalf("%s: %v", code, err)
		}
		fields := map[string]bool{}
		for _, f := range transport.FieldErrors(err) {
			fields[f.Field] = true
		}
		if fields["shipments[0].to.country"] {
			t.Errorf("%s is not served: %v", code, err)
		}
		if fields["shipments[0].customs"] != countries.NeedsCustoms(code) {
			t.Errorf("%s: customs asked %v, the list says %v", code, fields["shipments[0].customs"], countries.NeedsCustoms(code))
		}
	}
	sh := shipment("UPS", "")
	sh.To.Country, sh.To.Zip = "CH", "8001"
	sh.Customs = &shipping.Customs{Reason: "gift", Items: []shipping.CustomsItem{{Description: "Glass vase", HSCode: "7013 99",
		OriginCountry: "CZ", Quantity: 1, Value: shipping.Money{Value: 40, Currency: "EUR"}, Weight: 1.5}}}
	if err := c.Validate(ctx, order(sh)); err != nil {
		t.Errorf("CH with customs: %v", err)
	}
}
