package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/views"
)

// The recipient opens the tracking page from its link, on a phone: the
// shop's name, the state in the staff page's words after each step of the
// sandbox's clock, the carrier's events and the point it goes to, in Czech
// and in English, without scrolling sideways; and at 1280 px. The clerk's
// shipment page offers the same link to copy.
func TestRecipientFollowsTheParcelOnThePhone(t *testing.T) {
	t.Parallel()
	env, clerk := deskTab(t)
	ctx := context.Background()
	f, err := env.App.Desk.Blank(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f.To = desk.Address{Firstname: "Jana", Surname: "Nováková", Street: "Masarykova 5", City: "Brno", Zip: "602 00", Country: "CZ",
		Phone: "+420 777 123 456", Email: "jana@example.cz"}
	f.Reference, f.Packages = "TRACK-1", []desk.Package{{Weight: 1, Length: 30, Width: 20, Height: 10}}
	offers, err := env.App.Desk.Offers(ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range offers {
		if o.Selectable && o.DeliveryRequired && !o.LabelFree && o.LabelMode == "PRINT" { // a label to fetch: the service's detail is asked
			f.Offer = o
			break
		}
	}
	var pointName string
	if err := env.App.DB.SQL().QueryRowContext(ctx, `SELECT code, name FROM parcel_points WHERE carrier = $1 AND city = 'Brno' ORDER BY code LIMIT 1`,
		f.Offer.Carrier).Scan(&f.DeliveryBranch, &pointName); err != nil {
		t.Fatalf("a point of %q in Brno: %v", f.Offer.Carrier, err)
	}
	s, err := env.App.Desk.Order(ctx, f, 0)
	if err != nil {
		t.Fatal(err)
	}
	token, err := env.App.DB.TrackToken(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	clerk.Open("/shipping/shipments/" + itoa(s.ID))
	if link := clerk.Attr(`#track-link`, "value"); !strings.HasSuffix(link, "/track/"+token) {
		t.Errorf("the shipment page's link %q", link)
	}
	clerk.screenshot("staff-link-1280")

	customer := newTab(t, env.URL)
	customer.phone()
	env.LabelsFetched()
	cs := i18n.WithLang(ctx, i18n.Czech)
	for i, step := range []time.Duration{0, 2 * time.Minute, 20 * time.Minute, 30 * time.Minute, time.Hour} {
		if step > 0 {
			env.Sandbox.Advance(step)
		}
		env.App.Jobs.Cycle(ctx)
		now, err := env.App.DB.ShipmentByID(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := views.ShipmentState(cs, views.ShipmentRow{State: now.State, Status: now.Status})
		customer.Open("/track/" + token)
		if i == 0 {
			customer.toCzech()
		}
		customer.wantText(`[data-testid=track-state]`, want)
		customer.wantNoSideScroll()
		if i == 0 {
			day, err := env.App.DB.ExpectedDelivery(ctx, s.ID)
			if err != nil || day == nil {
				t.Fatalf("no expected day stored: %v", err)
			}
			customer.wantText(`[data-testid=track-expected]`, i18n.Date(cs, *day))
			customer.screenshot("cs-390-ordered")
		}
	}
	customer.wantText(`[data-testid=shop-name]`, "Kávovary Říčany")
	customer.wantText(`[data-testid=track-point]`, pointName)
	if n := len(customer.Texts(`[data-testid=track-timeline] li`)); n < 3 {
		t.Errorf("%d events on the page", n)
	}
	delivered, _ := env.App.DB.ShipmentByID(ctx, s.ID)
	if delivered.Status != "DELIVERED" {
		t.Errorf("the parcel is %s at the end", delivered.Status)
	}
	customer.screenshot("cs-390-delivered")
	customer.Submit(`[data-testid=language] button`)
	customer.wantText(`main h1`, "Your parcel")
	customer.wantNoSideScroll()
	customer.screenshot("en-390")
	customer.do("width", chromedp.EmulateViewport(1280, 900))
	customer.Open("/track/" + token)
	customer.screenshot("en-1280")
}

// A manager sets the shop's identity: the page shows what the demo shop
// set, and a saved name is what the customers' pages say.
func TestManagerSetsTheShopsIdentity(t *testing.T) {
	t.Parallel()
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true})
	env.SeedDesk()
	pw := env.AddUser("mara", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("mara", pw)
	tab.Open("/connection")
	tab.Submit(`[data-testid=shop-identity-link]`)
	tab.wantText(`main h1`, "Shop identity")
	tab.Fill(`#name`, "Pražírna U Nováků")
	tab.Submit(`[data-testid=shop-identity] button[type=submit]`)
	tab.wantText(`#flashes`, "saved")
	tab.shots("settings")
	customer := newTab(t, env.URL)
	customer.Open("/claim")
	customer.wantText(`[data-testid=shop-name]`, "Pražírna U Nováků")
}
