package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/sandbox/sandboxtest"
)

// A clerk orders a courier pickup from the shipping desk and sees it in the
// list of coming pickups, on a desktop and on a phone-wide screen.
func TestClerkOrdersCourierPickup(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("clara", identity.Clerk)
	tab := newTab(t, env.URL)
	tab.SignIn("clara", pw)
	tab.do("desktop width", chromedp.EmulateViewport(1280, 900))
	tab.Open("/shipping")
	tab.Submit(`a[href="/shipping/pickups"]`)
	tab.WaitText(`h1`, "Courier pickups")
	// The sandbox's clock stands on a Monday: the form proposes Tuesday.
	if got := tab.Attr(`#date`, "value"); got != sandboxtest.Day(1) {
		t.Errorf("date defaults to %q, want the next working day", got)
	}
	tab.do("choose the Brno address", chromedpSelect("#address", "2"))
	tab.Fill("#weight", "")
	tab.Type("#weight", "14.5")
	tab.Fill("#packages", "")
	tab.Type("#packages", "3")
	tab.Type("#note", "Ramp 2, ring the bell")
	// A Saturday is refused next to the date, and the rest stays typed.
	// A date input takes no typed keys reliably: set it as a date picker does.
	tab.do("pick a Saturday", chromedp.SetValue("#date", sandboxtest.Day(5)))
	tab.Submit(`[data-testid=pickup-form] button.primary`)
	tab.WaitText(`#date-error`, "weekends")
	if got := tab.Attr(`#note`, "value"); got != "Ramp 2, ring the bell" {
		t.Errorf("the note was lost: %q", got)
	}
	tab.look("refused-1280")
	tab.do("pick Tuesday", chromedp.SetValue("#date", sandboxtest.Day(1)))
	tab.Submit(`[data-testid=pickup-form] button.primary`)
	tab.WaitText(`main`, "ordered for "+sandboxtest.Epoch.AddDate(0, 0, 1).Format("Monday 2 January 2006"))
	rows := tab.Texts(`[data-testid=pickups] tbody tr`)
	if len(rows) != 1 || !strings.Contains(rows[0], "Vídeňská 88") || !strings.Contains(rows[0], "PU00000001") || !strings.Contains(rows[0], "tomorrow") {
		t.Fatalf("pickups list: %q", rows)
	}
	tab.look("ordered-1280")
	tab.do("phone width", chromedp.EmulateViewport(390, 844))
	tab.Open("/shipping/pickups")
	tab.WaitText(`[data-testid=pickups]`, "PU00000001")
	tab.look("ordered-390")
}
