package e2e

import (
	"context"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// The manager finds the demo shop connected and mapped in the Connection
// page's shop section, maps a shipping method to the offer rules and sees
// it kept; the section reads Czech after the language switch; screenshots
// in both languages at 1280, 768 and 390 px.
func TestManagerMapsTheShopsMethods(t *testing.T) {
	t.Parallel()
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true, Hooks: true})
	env.SeedDesk()
	if err := env.App.SeedDemoShop(context.Background()); err != nil {
		t.Fatal(err)
	}
	pw := env.AddUser("boss", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("boss", pw)
	tab.Open("/connection#shop")
	tab.wantText(`[data-testid=shop-connected]`, "Connected to")
	tab.wantText(`[data-testid=shop-hooks]`, "each change at once")
	first := `[data-testid=shop-methods] tbody tr:first-child select`
	if got := tab.Attr(first+` option[selected]`, "value"); got == "" || got == "unmapped" {
		t.Errorf("the demo's first shipping method is not mapped: %q", got)
	}
	tab.do("map to the offer rules", chromedpSelect(first, "rules"))
	tab.Submit(`[data-testid=shop-mappings] button[type=submit]`)
	tab.WaitText(`main`, "Saved. The orders are judged again.")
	if got := tab.Attr(first+` option[selected]`, "value"); got != "rules" {
		t.Errorf("after saving the method ships by %q", got)
	}
	tab.Open("/connection#shop")
	tab.shots("shop-connection-en")
	tab.toCzech()
	tab.wantText(`#shop-heading`, "E-shop (Shoptet)")
	tab.wantText(`[data-testid=shop-connected]`, "Připojeno k e-shopu")
	tab.shots("shop-connection-cs")
}
