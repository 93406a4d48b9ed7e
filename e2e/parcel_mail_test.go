package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/desk"
	"shipdesk/identity"
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
	tab.WaitText(`[data-testid=preview-handed_over-cs]`, "Balík DEMO0000012345 od Váš obchod vyrazil k vám")
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
