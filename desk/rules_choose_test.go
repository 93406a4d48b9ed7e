package desk_test

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"strings"
	"testing"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/desk/desktest"
	"shipdesk/requestkey"
	"shipdesk/shiprules"
	"shipdesk/storage"
)

// rulesDesk is a desk on the sandbox with a sender in Prague and a carrier
// table that knows ZASILKOVNA takes label-free packages (as the sandbox's facts say).
func rulesDesk(t *testing.T) (*desk.Desk, *storage.DB, desk.Form) {
	t.Helper()
	e := desktest.Start(t)
	ctx := context.Background()
	d := desk.New(e.DB, e.Ship, nil, e.Clock, nil)
	from, err := e.DB.SaveSender(ctx, storage.Sender{Label: "Shop", Address: storage.Address{Company: "Shop", Street: "A 1", City: "Praha",
		Zip: "110 00", Country: "CZ", Phone: "+420601000000"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SeedCarriers(ctx, []storage.Carrier{{Code: "ZASILKOVNA", Name: "Zásilkovna", LabelFree: sql.NullBool{Valid: true, Bool: true}},
		{Code: "UPS", Name: "UPS", LabelFree: sql.NullBool{Valid: true, Bool: false}}}); err != nil {
		t.Fatal(err)
	}
	f := desk.Form{Key: requestkey.New(), SenderID: from.ID, Handover: desk.HandoverOnDemand,
		To:       desk.Address{Surname: "Malá", Street: "B 2", City: "Brno", Zip: "602 00", Country: "CZ", Phone: "+420602000000"},
		Packages: []desk.Package{{Weight: 2, Length: 30, Width: 20, Height: 10}}}
	return d, e.DB, f
}

func saveRule(t *testing.T, d *desk.Desk, r shiprules.Rule) int64 {
	t.Helper()
	id, err := d.SaveRule(context.Background(), r)
	if err != nil {
		t.Fatalf("save %q: %v", r.Name, err)
	}
	return id
}

func say(x shiprules.Text) string {
	return fmt.Sprint(x.Key, x.Args)
}

// The batch's way: offers for a form from the service, then the rules choose
// one and say why; the desk's label-free checks keep out what the row cannot
// use, in the catalog's words.
func TestChooseOfferOverTheServicesOffers(t *testing.T) {
	d, _, f := rulesDesk(t)
	ctx := context.Background()
	offers, err := d.Offers(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	s := desk.RuleShipment(f)

	got, err := d.ChooseOffer(ctx, s, offers)
	if err != nil || got.Index != -1 || got.Why.Key != "rules.none.no_rules" {
		t.Fatalf("no rules: %+v %v", got, err)
	}

	// Fastest: the earliest delivery of the selectable offers.
	fastest := saveRule(t, d, shiprules.Rule{Name: "Rychle", Choice: shiprules.Fastest, Countries: shiprules.Codes{"cz"}})
	got, err = d.ChooseOffer(ctx, s, offers)
	if err != nil || got.Offer == nil || got.Why.Key != "rules.chosen.rule" || got.Rule.ID != fastest {
		t.Fatalf("fastest: %+v %v", got, err)
	}
	for i, o := range offers {
		if o.Selectable && o.Delivery < got.Offer.Delivery {
			t.Errorf("offer %d (%s %s) delivers on %s, before the chosen %s", i, o.Carrier, o.Service, o.Delivery, got.Offer.Delivery)
		}
		if _, said := got.NotChosen[i]; i != got.Index && !said {
			t.Errorf("offer %d: no reason", i)
		}
	}

	// A named service of UPS, moved before the fastest.
	var g3 desk.Offer
	for _, o := range offers {
		if o.Carrier == "UPS" && o.Selectable && !o.LabelFree {
			g3 = o
			break
		}
	}
	if g3.ServiceID == 0 {
		t.Fatalf("no UPS offer among %+v", offers)
	}
	named := saveRule(t, d, shiprules.Rule{Name: "G3", Choice: shiprules.Named, Carrier: "UPS", Service: g3.Service})
	if err := d.MoveRule(ctx, named, true); err != nil {
		t.Fatal(err)
	}
	got, err = d.ChooseOffer(ctx, s, offers)
	if err != nil || got.Offer == nil || got.Offer.ServiceID != g3.ServiceID || got.Rule.ID != named || offers[got.Index].ServiceID != g3.ServiceID {
		t.Fatalf("named: %+v %v", got, err)
	}

	// The clerk's pick wins over the rules.
	pick := offers[len(offers)-1]
	for _, o := range offers {
		if o.Selectable && o.ServiceID != g3.ServiceID && !o.DeliveryRequired {
			pick = o
		}
	}
	s.OverrideServiceID = pick.ServiceID
	if got, _ = d.ChooseOffer(ctx, s, offers); !got.Override || got.Offer == nil || got.Offer.ServiceID != pick.ServiceID {
		t.Fatalf("override: %+v", got)
	}
}

// An offer handed over without a label goes only where the desk allows it:
// the carrier takes label-free packages, the row stays in the Czech Republic.
func TestChooseOfferKeepsTheLabelFreeConditions(t *testing.T) {
	d, _, f := rulesDesk(t)
	ctx := context.Background()
	offers, err := d.Offers(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	var lf desk.Offer
	for _, o := range offers {
		if o.LabelFree && o.Selectable {
			lf = o
			break
		}
	}
	if lf.ServiceID == 0 {
		t.Fatalf("no label-free offer among %+v", offers)
	}
	saveRule(t, d, shiprules.Rule{Name: "Bez štítku", Choice: shiprules.Named, Carrier: lf.Carrier, ServiceID: lf.ServiceID})
	only := []desk.Offer{lf}

	cz := desk.RuleShipment(f)
	if lf.DeliveryRequired {
		cz.PointCode = "CZ-BRNO-1" // the row names its point
	}
	if got, err := d.ChooseOffer(ctx, cz, only); err != nil || got.Index != 0 {
		t.Fatalf("in the Czech Republic: %+v %v", got, err)
	}

	sk := cz
	sk.Country = "SK"
	got, err := d.ChooseOffer(ctx, sk, only)
	if err != nil || got.Index != -1 || len(got.Tried) != 1 || got.Tried[0].Detail == nil || got.Tried[0].Detail.Key != "shiprules.offer.lf_country" {
		t.Fatalf("to Slovakia: %+v %v", got, err)
	}
	if got.NotChosen[0].Key != "shiprules.offer.lf_country" {
		t.Errorf("the offer says %s", say(got.NotChosen[0]))
	}

	if err := d.EditCarrier(ctx, desk.CarrierEdit{Code: lf.Carrier, LabelFree: "no"}); err != nil {
		t.Fatal(err)
	}
	got, err = d.ChooseOffer(ctx, cz, only)
	if err != nil || got.Index != -1 || got.NotChosen[0].Key != "shiprules.offer.lf_carrier" {
		t.Fatalf("carrier says no: %+v %v", got, err)
	}

	// An offer with a label is not the label-free checks' business.
	withLabel := lf
	withLabel.LabelFree = false
	if got, err := d.ChooseOffer(ctx, sk, []desk.Offer{withLabel}); err != nil || got.Index != 0 {
		t.Fatalf("with a label: %+v %v", got, err)
	}
}

func TestRuleShipmentOfAForm(t *testing.T) {
	f := desk.Form{To: desk.Address{Country: "SK"}, COD: true, DeliveryBranch: "P-17",
		Offer:    desk.Offer{Carrier: "SPS", DeliveryRequired: true},
		Packages: []desk.Package{{Weight: 1.5, Length: 40, Width: 10, Height: 10}, {Weight: 2, Length: 20, Width: 30, Height: 25}}}
	s := desk.RuleShipment(f)
	want := shiprules.Shipment{Country: "SK", COD: true, WeightKg: 3.5, LengthCm: 40, WidthCm: 30, HeightCm: 25, DimsSumCm: 75,
		PointCode: "P-17", PointCarrier: "SPS"}
	if s != want {
		t.Fatalf("%+v\nwant %+v", s, want)
	}
	f.Offer = desk.Offer{}
	f.DeliveryBranch = ""
	if s := desk.RuleShipment(f); s.PointCode != "" || s.PointCarrier != "" || s.ToPoint {
		t.Fatalf("to the door: %+v", s)
	}
}

// Writes go through the desk: what the rules refuse is said field by field
// in the catalog's words, and nothing is stored.
func TestSaveRuleSaysWhatIsWrong(t *testing.T) {
	d, db, _ := rulesDesk(t)
	ctx := context.Background()
	nan, neg, huge := math.NaN(), -1.0, 1e9
	for _, c := range []struct {
		rule  shiprules.Rule
		field string
		key   string
	}{
		{shiprules.Rule{Choice: shiprules.Cheapest}, "name", "rules.problem.name_required"},
		{shiprules.Rule{Name: strings.Repeat("x", 101), Choice: shiprules.Cheapest}, "name", "rules.problem.name_long"},
		{shiprules.Rule{Name: "a\x00b", Choice: shiprules.Cheapest}, "name", "rules.problem.text"},
		{shiprules.Rule{Name: "x", Choice: shiprules.Cheapest, Countries: shiprules.Codes{"BR"}}, "countries", "rules.problem.country"},
		{shiprules.Rule{Name: "x", Choice: shiprules.Cheapest, WeightMaxKg: &nan}, "weight_max_kg", "rules.problem.number"},
		{shiprules.Rule{Name: "x", Choice: shiprules.Cheapest, WeightMinKg: &neg}, "weight_min_kg", "rules.problem.negative"},
		{shiprules.Rule{Name: "x", Choice: shiprules.Cheapest, LongestMaxCm: &huge}, "longest_side_max_cm", "rules.problem.size_over"},
		{shiprules.Rule{Name: "x"}, "choice", "rules.problem.choice_required"},
		{shiprules.Rule{Name: "x", Choice: shiprules.Named}, "carrier", "rules.problem.carrier_required"},
	} {
		_, err := d.SaveRule(ctx, c.rule)
		if !apperr.Is(err, apperr.Invalid) {
			t.Errorf("%s: %v", c.key, err)
			continue
		}
		p := apperr.ProblemsOf(err)
		if p[c.field].Key != c.key {
			t.Errorf("%s: problems %v", c.key, p)
		}
		for _, text := range apperr.FieldsOf(ctx, err) {
			if strings.Contains(text, "%!") || strings.HasPrefix(text, "[") {
				t.Errorf("%s reads %q", c.key, text)
			}
		}
	}
	if rules, _ := db.ShipRules(ctx); len(rules) != 0 {
		t.Fatalf("stored %+v", rules)
	}
	id := saveRule(t, d, shiprules.Rule{Name: "  Trimmed  ", Choice: shiprules.Cheapest, Countries: shiprules.Codes{"sk", "SK"}})
	r, err := db.ShipRule(ctx, id)
	if err != nil || r.Name != "Trimmed" || len(r.Countries) != 1 || r.Countries[0] != "SK" || r.COD != shiprules.CODAny {
		t.Fatalf("normalized: %+v %v", r, err)
	}
	if err := d.DeleteRule(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := d.DeleteRule(ctx, id); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("deleted twice: %v", err)
	}
}
