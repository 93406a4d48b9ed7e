package e2e

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/desk"
	"shipdesk/identity"
	"shipdesk/mailcatch"
	"shipdesk/storage"
)

// A manager opens the customers' parcel mail from the shipping desk, edits
// a subject and sees the preview follow as she types, turns one step off
// and saves; the page reads Czech after the language switch and on a phone;
// screenshots in both languages at 1280, 768 and 390 px.
func TestManagerEditsTheParcelMail(t *testing.T) {
	t.Parallel()
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true})
	env.SeedDesk()
	pw := env.AddUser("marta", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("marta", pw)
	tab.Open("/shipping")
	tab.Submit(`[data-testid=parcel-mail-link]`)
	tab.WaitText(`main h1`, "Customer mail about the parcel")
	tab.shots("parcel-mail-en")

	tab.toCzech()
	tab.wantText(`main h1`, "E-maily zákazníkům o zásilce")
	tab.do("phone width", chromedp.EmulateViewport(390, 844))
	tab.Fill(`[id="handed_over.cs.subject"]`, "Balík {tracking} od {shop} vyrazil k vám")
	shop, err := env.App.DB.ShopIdentity(context.Background()) // the seeded shop's name, as every customer mail says it
	if err != nil || shop.Name == "" {
		t.Fatalf("the shop's identity: %+v %v", shop, err)
	}
	tab.WaitText(`[data-testid=preview-handed_over-cs]`, "Balík DEMO0000012345 od "+shop.Name+" vyrazil k vám")
	tab.Click(`[id="delivered.enabled"]`)
	tab.Submit(`[data-testid=parcel-mail] button[type=submit]`)
	tab.WaitText(`main`, "Nastavení e-mailů zákazníkům je uložené.")
	stored, err := env.App.DB.ParcelMailSettings(context.Background())
	if err != nil || stored[desk.ParcelDelivered].Enabled || stored[desk.ParcelHandedOver].SubjectCS != "Balík {tracking} od {shop} vyrazil k vám" {
		t.Errorf("stored %+v (%v)", stored, err)
	}
	tab.Fill(`[id="handed_over.cs.subject"]`, "Balík {tracking} od {obchod}")
	tab.WaitText(`[data-testid=preview-handed_over-cs]`, "Zástupný text {obchod} neznáme")
	tab.Submit(`[data-testid=parcel-mail] button[type=submit]`)
	tab.WaitText(`[id="handed_over.cs.subject-error"]`, "Zástupný text {obchod} neznáme")
	tab.do("desktop width", chromedp.EmulateViewport(1280, 900))
	tab.shots("parcel-mail-cs")
}

// The customer hears of each step of a parcel to a point, in Czech, once a
// step: a manager turns the handed-over mail off on a phone, orders a
// parcel to a point with the recipient's e-mail and another marked "no
// customer mail"; the sandbox clock moves through export, pickup, transit,
// ready at the point and delivery, the shipment's page asks the service each
// time (as the tracking poller does), and after each step the caught mail
// holds exactly the mail of the steps turned on.
func TestCustomerHearsOfEachStep(t *testing.T) {
	t.Parallel()
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true})
	env.SeedDesk()
	ctx := context.Background()
	if err := env.App.DB.SaveShopIdentity(ctx, storage.ShopIdentity{Name: "Kávovar.cz", ReplyEmail: "info@kavovar.cz"}); err != nil {
		t.Fatal(err)
	}
	pw := env.AddUser("marta", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("marta", pw)
	tab.Open("/settings/parcel-mail")
	tab.toCzech()
	tab.do("phone width", chromedp.EmulateViewport(390, 844))
	tab.Click(`[id="handed_over.enabled"]`)
	tab.Submit(`[data-testid=parcel-mail] button[type=submit]`)
	tab.WaitText(`main`, "Nastavení e-mailů zákazníkům je uložené.")

	order := func(email string, quiet bool) (string, int64) {
		tab.Open("/shipping/new")
		tab.fillRecipient()
		tab.Fill("#to_email", email)
		if quiet {
			tab.Click(`[data-testid=no-customer-mail]`)
		}
		tab.Click(`[data-testid=compare]`)
		tab.WaitText(`[data-testid=offers]`, "Zásilkovna")
		tab.Click(`tr[data-service="102"] button[name=choose]`)
		tab.WaitText(`[data-testid=chosen]`, "Výdejní místo")
		tab.waitTrue("the chosen offer's form drawn", htmxIdle)
		tab.Fill("#delivery_q", "brno")
		tab.WaitText(`[data-testid=delivery-points]`, "Brno")
		tab.Click(`[data-testid=delivery-points] input[type=radio]`)
		tab.waitTrue("the point chosen", htmxIdle+` && document.querySelector("[data-testid=delivery-points] input[type=radio]").checked`)
		orderChosen(t, tab)
		page := tab.Path()
		id, err := strconv.ParseInt(page[strings.LastIndex(page, "/")+1:], 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return page, id
	}
	page, id := order("petra@example.cz", false)
	_, quiet := order("firma@example.cz", true)
	if s, err := env.App.DB.ShipmentByID(ctx, quiet); err != nil || !s.NoCustomerMail {
		t.Fatalf("the ticked box is not stored: %v", err)
	}

	seen := map[string]int{}
	caught := func(to string) []string {
		var subjects []string
		all := env.App.Catcher.All()
		slices.SortFunc(all, func(a, b mailcatch.Caught) int { return a.ID - b.ID })
		for _, m := range all {
			if slices.Contains(m.Recipients, to) {
				subjects = append(subjects, m.Subject)
			}
		}
		out := subjects[seen[to]:]
		seen[to] = len(subjects)
		return out
	}
	step := func(name string, d time.Duration, want string) {
		t.Helper()
		env.Sandbox.Advance(d)
		for _, s := range []int64{id, quiet} {
			if err := env.App.Jobs.Refresher().RefreshNow(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := env.App.Outbox.SendDue(ctx); err != nil {
			t.Fatal(err)
		}
		tab.Open(page)
		got := caught("petra@example.cz")
		switch {
		case want == "" && len(got) != 0:
			t.Errorf("%s: mailed %q, want none", name, got)
		case want != "" && (len(got) != 1 || !strings.Contains(got[0], want)):
			t.Errorf("%s: mailed %q, want one that says %q", name, got, want)
		}
		if got := caught("firma@example.cz"); len(got) != 0 {
			t.Errorf("%s: the parcel marked no customer mail mailed %q", name, got)
		}
	}
	step("export", 10*time.Minute, "")
	tab.WaitText(`[data-testid=label-box]`, "Vytisknout štítek")
	env.Sandbox.LabelsFetched(trackingOf(t, env, id), trackingOf(t, env, quiet))
	step("pickup (the handed-over mail is off)", 10*time.Minute, "")
	step("transit", 20*time.Minute, "")
	step("ready at the point", 10*time.Minute, "čeká na výdejním místě")
	step("delivered", 10*time.Minute, "je doručená")
	step("asked again", time.Hour, "")
	tab.screenshot("parcel-steps-cs-390")
}

// trackingOf is a shipment's tracking number.
func trackingOf(t *testing.T, env *apptest.Env, id int64) string {
	t.Helper()
	s, err := env.App.DB.ShipmentByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s.Tracking()
}
