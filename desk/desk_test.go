package desk

import (
	"context"
	"database/sql"
	"net/url"
	"testing"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/client/transport"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage"
)

func TestFormFieldOfServicePaths(t *testing.T) {
	for path, want := range map[string]string{
		"shipments[0].label_less":                   "label_less",
		"shipments[0].to.zip":                       "to_zip",
		"shipments[0].packages[1].weight":           "pkg_weight_1",
		"shipments[0].packages[0]":                  "packages",
		"shipments[0].services[0].data.bank_code":   "cod_bank_code",
		"shipments[0].services[0].data.value.value": "cod_value",
		"services[0].data.value.currency":           "cod_currency",
		"shipments[0].delivery_branch_location":     "delivery_branch",
		"shipments[0].from.id":                      "sender",
		"shipments[0].type":                         "handover",
		"carrier":                                   "offer",
		"":                                          "form",
		"something.new":                             "form",
	} {
		if got := FormField(path); got != want {
			t.Errorf("FormField(%q) = %q, want %q", path, got, want)
		}
	}
}

// The service's own label-free refusal lands on the form's label_less field.
func TestLabelFreeRefusalFromServiceMapsToField(t *testing.T) {
	env := sandboxtest.Start(t)
	c, err := shipping.New(transport.Config{BaseURL: env.URL, APIKey: sandboxtest.ShippingKey})
	if err != nil {
		t.Fatal(err)
	}
	from := shipping.Address{Company: "Shop", Street: "A 1", City: "Praha", Zip: "110 00", Country: "CZ", Phone: "+420601000000"}
	to := shipping.Address{Surname: "Malá", Street: "B 2", City: "Bratislava", Zip: "811 01", Country: "SK", Phone: "+421900000000"}
	_, err = c.Create(context.Background(), shipping.Order{Currency: "CZK", PaymentType: shipping.PaymentCredit, Shipments: []shipping.Shipment{{
		Type: shipping.PickupOnDemand, Carrier: "ups", From: from, To: to, LabelLess: true,
		Packages: []shipping.Package{{Weight: 1}, {Weight: 2}}}}})
	if !transport.IsRefused(err) {
		t.Fatalf("create: %v", err)
	}
	fields := apperr.FieldsOf(context.Background(), UpstreamError("ship.doing.order", err))
	if fields["label_less"] == "" {
		t.Fatalf("no label_less field error: %v", fields)
	}
}

func TestSortOffers(t *testing.T) {
	rates := []Offer{
		{Carrier: "b", PriceVAT: Money{Value: 300}, Delivery: "2026-11-24", Selectable: true},
		{Carrier: "a", PriceVAT: Money{Value: 100}, Delivery: "2026-11-26", Selectable: false},
		{Carrier: "c", PriceVAT: Money{Value: 200}, Delivery: "2026-11-25", Selectable: true},
	}
	order := func() string {
		s := ""
		for _, r := range rates {
			s += r.Carrier
		}
		return s
	}
	for by, want := range map[string]string{"": "cba", "price": "cba", "delivery": "bca", "carrier": "bca"} {
		SortOffers(rates, by)
		if got := order(); got != want {
			t.Errorf("sort by %q: %s, want %s (unselectable last)", by, got, want)
		}
	}
}

func TestParseFormKeepsWhatWasTyped(t *testing.T) {
	f, p := ParseForm(url.Values{"pkg_weight": {"1,5", "abc", ""}, "pkg_length": {"", "", ""}, "to_country": {"cz"},
		"cod_value": {" 120 "}, "key": {"3f1e9a52-2c3b-4d5e-8f90-0a1b2c3d4e5f"}})
	if len(f.Packages) != 2 || f.Packages[0].Weight != 1.5 || f.Packages[1].Raw[0] != "abc" {
		t.Errorf("packages %+v", f.Packages)
	}
	if p["pkg_weight_1"].IsZero() || f.To.Country != "CZ" || f.CODValue != "120" || f.Key == "" {
		t.Errorf("form %+v problems %v", f, p)
	}
	if got := f.Values()["to_country"]; got != "CZ" {
		t.Errorf("values: %q", got)
	}
}

// Czech inputs: an amount with grouped thousands and a decimal comma, an
// account written with its bank.
func TestParseFormReadsCzechCODInputs(t *testing.T) {
	f, _ := ParseForm(url.Values{"cod": {"on"}, "cod_value": {"1 299,50"}, "cod_bank_account": {"19-2000145399/0800"}})
	if f.CODValue != "1299.5" || f.BankAccount != "19-2000145399" || f.BankCode != "0800" {
		t.Errorf("amount %q, account %q, bank %q", f.CODValue, f.BankAccount, f.BankCode)
	}
	f, _ = ParseForm(url.Values{"cod_bank_account": {"2000145399"}, "cod_bank_code": {"0100"}})
	if f.BankAccount != "2000145399" || f.BankCode != "0100" {
		t.Errorf("account %q, bank %q: the bank code field is kept", f.BankAccount, f.BankCode)
	}
}

func TestLabelFreeBlockers(t *testing.T) {
	yes, no := sql.NullBool{Valid: true, Bool: true}, sql.NullBool{Valid: true, Bool: false}
	ok := Form{Carrier: storage.Carrier{LabelFree: yes}, Packages: []Package{{Weight: 1}}, To: Address{Country: "CZ"}, Handover: HandoverPoint}
	if why := ok.LabelFreeBlockers("CZ"); len(why) != 0 {
		t.Errorf("possible case refused: %v", why)
	}
	unknown := ok
	unknown.Carrier = storage.Carrier{}
	if why := unknown.LabelFreeBlockers("CZ"); len(why) != 0 {
		t.Errorf("a carrier the table does not know is for the service to decide, got %v", why)
	}
	bad := Form{Carrier: storage.Carrier{LabelFree: no}, Packages: []Package{{}, {}}, To: Address{Country: "SK"}, Handover: HandoverOnDemand}
	if why := bad.LabelFreeBlockers("CZ"); len(why) != 4 {
		t.Errorf("want four reasons, got %v", why)
	}
}

// Offers are asked for only when the recipient an order needs is there:
// every missing part is named at once, the street only for the order to an
// address, a phone or an e-mail either.
func TestCheckForOffersNamesEveryField(t *testing.T) {
	empty := Form{SenderID: 1, To: Address{Country: "CZ"}}
	p := empty.CheckForOffers("CZ")
	for _, field := range []string{"to_surname", "to_city", "to_zip", "to_phone", "packages"} {
		if p[field].IsZero() {
			t.Errorf("%s not named: %v", field, p)
		}
	}
	if !p["to_street"].IsZero() {
		t.Errorf("the street is asked for before anyone knows the parcel goes to an address: %q", p["to_street"])
	}
	full := Form{SenderID: 1, Packages: []Package{{Weight: 1}},
		To: Address{Company: "Shop", City: "Brno", Zip: "602 00", Country: "CZ", Email: "a@example.cz"}}
	if p := full.CheckForOffers("CZ"); len(p) != 0 {
		t.Errorf("an e-mail without a phone, a company without a surname: %v", p)
	}
	full.Key, full.Offer = "3f1e9a52-2c3b-4d5e-8f90-0a1b2c3d4e5f", Offer{ServiceID: 1}
	if p := full.CheckForOrder("CZ"); p["to_street"].IsZero() || len(p) != 1 {
		t.Errorf("ordering to an address without a street: %v", p)
	}
	full.Offer.DeliveryRequired, full.DeliveryBranch = true, "P1"
	if p := full.CheckForOrder("CZ"); len(p) != 0 {
		t.Errorf("ordering to a point without a street: %v", p)
	}
}

func TestOfferChoiceNamesTheLabelFreeVariant(t *testing.T) {
	if got := (Offer{ServiceID: 101}).Choice(); got != "101" {
		t.Errorf("choice %q", got)
	}
	if got := (Offer{ServiceID: 101, LabelFree: true}).Choice(); got != "101-label-free" {
		t.Errorf("label-free choice %q", got)
	}
}
