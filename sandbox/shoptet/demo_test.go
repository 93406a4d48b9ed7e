package shoptet_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"shipdesk/clock"
	"shipdesk/sandbox"
	"shipdesk/sandbox/apijson"
	"shipdesk/sandbox/shoptet"
)

func methodOf(guid string) shoptet.ShippingMethod {
	for _, m := range shoptet.ShippingMethods {
		if m.GUID == guid {
			return m
		}
	}
	return shoptet.ShippingMethod{}
}

func paymentOf(guid string) shoptet.PaymentMethod {
	for _, m := range shoptet.PaymentMethods {
		if m.GUID == guid {
			return m
		}
	}
	return shoptet.PaymentMethod{}
}

var orderCode = regexp.MustCompile(`^20\d{8}$`)

// The demo shop is Czech and busy: 60 and more open orders in several
// statuses, to homes and to points that exist in the shipping sandbox, cash
// on delivery and paid online, a few to Slovakia, one outside the EU, some
// missing what a shipment needs, one shipped elsewhere.
func TestDemoShop(t *testing.T) {
	e := newEnv(t, "documented")
	points := map[string]bool{}
	for _, p := range e.sb.Shipping.Points() {
		points[p.Carrier+"/"+p.Code] = true
	}
	var open, toPoint, codPoint, sk, outsideEU, unmapped, noWeight, noPhone, elsewhere, online, home int
	statuses := map[int]bool{}
	for _, o := range e.shop.Orders() {
		if !orderCode.MatchString(o.Code) {
			t.Errorf("code %q", o.Code)
		}
		if !shoptet.Open(o) {
			continue
		}
		open++
		statuses[o.Status] = true
		sm, pm := methodOf(o.Shipping), paymentOf(o.Payment)
		switch {
		case sm.ToPoint:
			toPoint++
			if o.Point == nil || !points[sm.Carrier+"/"+o.Point.BranchID] {
				t.Errorf("%s: point %+v is no %s point of the shipping sandbox", o.Code, o.Point, sm.Carrier)
			}
			if pm.COD && sm.Carrier == "ZASILKOVNA" {
				codPoint++
			}
		case sm.Carrier != "":
			home++
		case !sm.PersonalPickup:
			unmapped++
		}
		if pm.Online {
			online++
		}
		switch country := o.Billing.Country; country {
		case "SK":
			sk++
		case "CZ":
			if o.Phone != "" && !strings.HasPrefix(o.Phone, "+420") {
				t.Errorf("%s: a Czech phone %q", o.Code, o.Phone)
			}
		default:
			outsideEU++
		}
		weighed := false
		for _, it := range o.Items {
			if it.Type == "product" {
				if it.Name == "" || it.Code == "" || it.Price == "" {
					t.Errorf("%s: item %+v", o.Code, it)
				}
				weighed = weighed || it.Weight != "0.000"
			}
		}
		if !weighed {
			noWeight++
		}
		if o.Phone == "" && sm.Carrier != "" {
			noPhone++
		}
		if o.TrackingNumber != "" {
			elsewhere++
		}
	}
	t.Logf("open %d in %d statuses, to points %d (Zásilkovna with COD %d), home %d, online %d, SK %d, outside the EU %d, unmapped %d, without weights %d, without a phone %d, shipped elsewhere %d",
		open, len(statuses), toPoint, codPoint, home, online, sk, outsideEU, unmapped, noWeight, noPhone, elsewhere)
	if open < 60 || len(statuses) < 3 || toPoint < 10 || codPoint < 5 || home < 10 || online < 10 || sk < 3 || outsideEU != 1 ||
		unmapped < 1 || noWeight < 1 || noPhone < 1 || elsewhere < 1 {
		t.Errorf("open %d in %d statuses, to points %d (Zásilkovna with COD %d), home %d, online %d, SK %d, outside the EU %d, unmapped %d, without weights %d, without a phone %d, shipped elsewhere %d",
			open, len(statuses), toPoint, codPoint, home, online, sk, outsideEU, unmapped, noWeight, noPhone, elsewhere)
	}
}

// New orders arrive during shop hours on the simulated clock, none at
// night, the same for the same clock; each is told to the webhooks.
func TestNewOrdersArriveOnTheClock(t *testing.T) {
	a, b := newEnv(t, "documented"), newEnv(t, "documented")
	before := len(a.shop.Orders())
	for _, e := range []*env{a, b} {
		e.clock.Advance(3 * time.Hour)
	}
	got, again := a.shop.Orders(), b.shop.Orders()
	if len(got) <= before+5 || len(got) != len(again) {
		t.Fatalf("%d orders before, %d after three hours (the same clock elsewhere: %d)", before, len(got), len(again))
	}
	for i := range got {
		if got[i].Code != again[i].Code || got[i].Billing != again[i].Billing || !got[i].Created.Equal(again[i].Created) {
			t.Errorf("the same clock made another order: %+v / %+v", got[i], again[i])
		}
	}
	for _, o := range got[before:] {
		if o.Created.Before(start) || o.Created.After(a.clock.Now()) || o.Status != shoptet.StatusNew {
			t.Errorf("arrived %s at %s in status %d", o.Code, o.Created, o.Status)
		}
	}
	night := time.Date(start.Year(), start.Month(), start.Day(), 22, 0, 0, 0, apijson.Zone)
	a.clock.Advance(night.Sub(a.clock.Now()))
	n := len(a.shop.Orders())
	a.clock.Advance(8 * time.Hour)
	if got := len(a.shop.Orders()); got != n {
		t.Errorf("%d orders arrived at night", got-n)
	}
}

// The shop's state is kept in the sandbox's state file across a restart;
// wiping puts the demo shop back.
func TestStateFileAndWipe(t *testing.T) {
	file := filepath.Join(t.TempDir(), "state.json")
	clk := clock.Frozen(start)
	sb, err := sandbox.New(sandbox.Options{Clock: clk, StateFile: file})
	if err != nil {
		t.Fatal(err)
	}
	code := sb.Shoptet.Orders()[0].Code
	if err := sb.Shoptet.UpdateOrder(code, func(o *shoptet.Order) { o.TrackingNumber = "Z42" }); err != nil {
		t.Fatal(err)
	}
	added, _ := sb.Shoptet.AddOrder(shoptet.Order{Email: "nova@example.cz"})
	if err := sb.Close(); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	sb, err = sandbox.New(sandbox.Options{Clock: clk, StateFile: file})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	if o, ok := sb.Shoptet.Order(code); !ok || o.TrackingNumber != "Z42" {
		t.Errorf("after a restart: %+v", o)
	}
	if _, ok := sb.Shoptet.Order(added); !ok {
		t.Errorf("the added order %s is gone after a restart", added)
	}
	sb.Wipe()
	if o, _ := sb.Shoptet.Order(code); o.TrackingNumber == "Z42" {
		t.Error("a wipe kept the written tracking number")
	}
	if _, ok := sb.Shoptet.Order(added); ok {
		t.Error("a wipe kept the added order")
	}
}
