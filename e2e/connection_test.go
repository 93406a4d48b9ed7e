package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// The manager opens Connection from the navigation and sees both keys accepted.
func TestManagerSeesTheConnection(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("boss", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("boss", pw)
	tab.Submit(`[data-testid=nav] a[href="/connection"]`)
	checks := tab.Texts(`[data-testid=checks] tbody tr`)
	if len(checks) != 2 {
		t.Fatalf("checks %q", checks)
	}
	for _, c := range checks {
		if !strings.Contains(c, "OK") || !strings.Contains(c, "key accepted") {
			t.Errorf("check row %q", c)
		}
	}
	tab.look("connection")
	// The carrier table: BALIKOVNA may take cash on delivery with one package only.
	tab.do("choose the COD rule", chromedpSelect(`select[form=carrier-BALIKOVNA][name=cod_packages]`, "single"))
	tab.Submit(`form#carrier-BALIKOVNA button`)
	tab.WaitText(`main`, "Carrier BALIKOVNA saved.")
	if got := tab.Attr(`select[form=carrier-BALIKOVNA][name=cod_packages] option[selected]`, "value"); got != "single" {
		t.Errorf("after saving the rule reads %q", got)
	}
	for _, w := range []int64{1280, 768, 390} {
		tab.do("width", chromedp.EmulateViewport(w, 900))
		tab.Open("/connection#carriers")
		tab.look(fmt.Sprintf("carriers-%d", w))
	}
}
