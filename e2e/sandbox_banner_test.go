package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/i18n"
	"shipdesk/identity"
)

// The manager reads the carrier table in both languages, then turns on faults
// for a demonstration from the banner, which shows the simulated time and
// warns while they are on; turning them off ends the warning.
func TestBannerFaultsForADemo(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("marta", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("marta", pw)
	tab.Open("/connection")
	tab.WaitText(`[data-carrier=ZASILKOVNA] [data-testid=carrier-name]`, "Zásilkovna")
	tab.shots("carriers-en")

	tab.Open("/shipping/print")
	now, err := env.App.Upstream.Controls.Now(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	day := i18n.Date(i18n.WithLang(context.Background(), i18n.English), now.Now)
	tab.wantText(`[data-testid=sandbox-now]`, day)
	tab.Submit(`[data-testid=sandbox-faults]`)
	tab.Fill(`#fault-latency`, "300")
	tab.Fill(`#fault-errors`, "10")
	tab.Fill(`#fault-lost`, "5")
	tab.Submit(`[data-testid=faults-set]`)
	tab.WaitText(`[data-testid=sandbox-faults-on]`, "Faults on: 300 ms delay, 10% error answers, 5% lost answers")
	if got := tab.Path(); got != "/shipping/print" {
		t.Errorf("setting the faults led to %s, not back to the print queue", got)
	}
	tab.Submit(`[data-testid=sandbox-faults]`)
	if got := tab.Attr(`#fault-errors`, "value"); got != "10" {
		t.Errorf("the form shows %q as the error share in force", got)
	}
	tab.shots("banner-faults-en")

	tab.toCzech()
	tab.wantText(`[data-testid=sandbox-faults-on]`, "Poruchy zapnuty: zpoždění 300 ms, 10 % chybových odpovědí, 5 % ztracených odpovědí")
	tab.wantText(`[data-testid=sandbox-now]`, "Simulovaný čas")
	tab.shots("banner-faults-cs")
	// On a phone the banner is one line: the warning is a word or two there,
	// read whole, and the faults page says what is played.
	tab.do("phone width", chromedp.EmulateViewport(390, 844))
	const shown = `document.querySelector('[data-testid=sandbox-faults-on]').innerText.trim()`
	if !tab.eval(shown + ` === "Poruchy zapnuty"`) {
		t.Error("on a phone the banner's warning of faults is not the short one")
	}
	if !tab.eval(`(() => { const e = document.querySelector('[data-testid=sandbox-faults-on]').getBoundingClientRect(); return e.left >= 0 && e.right <= window.innerWidth; })()`) {
		t.Error("on a phone the banner's warning of faults is not read whole")
	}
	tab.do("desktop width", chromedp.EmulateViewport(1280, 900))
	tab.Submit(`[data-testid=faults-off]`)
	tab.WaitText(`main`, "Poruchy vypnuty")
	if n := len(tab.Texts(`[data-testid=sandbox-faults-on]`)); n != 0 {
		t.Error("the banner still warns of faults turned off")
	}
	tab.Open("/connection")
	tab.WaitText(`[data-testid=carrier-terms] summary`, "Co jednotlivé sloupce znamenají")
	if strings.Contains(tab.Text(`main`), "shipments/validate") {
		t.Error("the Czech carrier table speaks of the service's operations")
	}
	tab.shots("carriers-cs")
}
