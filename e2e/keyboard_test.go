package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// Keyboard helpers: keys go to whatever has the focus, as a person's
// keyboard does; nothing here clicks or focuses an element itself.

// press types keys into the focused element.
func (b *Tab) press(keys string) {
	b.t.Helper()
	b.do("press "+keys, chromedp.KeyEvent(keys))
}

// pressAndLoad presses a key that leads to another page and waits for it.
func (b *Tab) pressAndLoad(keys string) {
	b.t.Helper()
	b.untilLoad(fmt.Sprintf("press %q and wait for the page", keys), chromedp.KeyEvent(keys))
}

// focused describes the focused element: its tag, id, name and test id.
func (b *Tab) focused() string {
	b.t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(() => { const e = document.activeElement;
		return e ? [e.tagName.toLowerCase(), e.id, e.getAttribute("name") || "", e.getAttribute("data-testid") || "", (e.textContent || "").trim().slice(0, 40)].join("|") : ""; })()`))
	if err != nil {
		b.t.Fatalf("focused element: %v", err)
	}
	return out
}

// hasFocus reports whether the focused element matches sel.
func (b *Tab) hasFocus(sel string) bool {
	b.t.Helper()
	ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`!!document.activeElement && document.activeElement.matches(%q)`, sel)))
	if err != nil {
		b.t.Fatalf("focus on %s: %v", sel, err)
	}
	return ok
}

// focusComes says whether the focus reaches sel within a few seconds (a swap
// settles, then the page's script moves the focus), without failing.
func (b *Tab) focusComes(sel string) bool {
	b.t.Helper()
	js := fmt.Sprintf(`!!document.activeElement && document.activeElement.matches(%q)`, sel)
	_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(5*time.Second)))
	return err == nil
}

// waitFocus waits until the focused element matches sel (a page load moves
// it, whose autofocus the browser applies at its next rendering step, after
// the load on a busy machine; an htmx swap moves it too).
func (b *Tab) waitFocus(sel string) {
	b.t.Helper()
	js := fmt.Sprintf(`!!document.activeElement && document.activeElement.matches(%q)`, sel)
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		b.t.Fatalf("%s: the focus is not on %s but on %q: %v", b.Path(), sel, b.focused(), err)
	}
}

// tabTo presses Tab until the focus is on sel and returns how many presses it
// took; more than most fails the test.
func (b *Tab) tabTo(sel string, most int) int {
	b.t.Helper()
	for n := 0; n <= most; n++ {
		if b.hasFocus(sel) {
			return n
		}
		b.press(kb.Tab)
	}
	b.t.Fatalf("%s: %d Tabs did not reach %s (the focus is on %q)", b.Path(), most, sel, b.focused())
	return 0
}

// htmxIdle is true when no htmx request, swap or settle is under way. htmx
// applies a swapped part's autofocus as it settles, a moment after the new
// part is in the page: only after that may a person type on elsewhere.
const htmxIdle = `!document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling")`

// waitTrue polls a script until it says true.
func (b *Tab) waitTrue(what, js string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		b.t.Fatalf("%s: %s: %v", b.Path(), what, err)
	}
}

// eval runs a script and returns its boolean answer.
func (b *Tab) eval(js string) bool {
	b.t.Helper()
	ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return ok
}

// A clerk works the whole order by keyboard: from the home page to the new
// shipment, the recipient and the package typed, Enter compares, Choose,
// Order, and the label printed from the print queue. Few Tabs are needed: the
// focus is where the next step is.
func TestKeyboardOnlyClerkJourney(t *testing.T) {
	t.Parallel()
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true})
	env.SeedDesk()
	pw := env.AddUser("clara", identity.Clerk)
	tab := newTab(t, env.URL)
	tab.do("desktop width", chromedp.EmulateViewport(1280, 900))
	// Sign in: the focus starts in the username.
	tab.Open("/login")
	tab.waitFocus(`#username`)
	tab.press("clara")
	tab.press(kb.Tab)
	tab.press(pw)
	tab.pressAndLoad(kb.Enter)
	if tab.Path() != "/" {
		t.Fatalf("after signing in by keyboard the page is %s", tab.Path())
	}
	tab.waitFocus(`a.tile[href="/shipping"]`)
	tab.pressAndLoad(kb.Enter)
	tab.waitFocus(`a[href="/shipping/new"]`)
	tab.pressAndLoad(kb.Enter)
	if tab.Path() != "/shipping/new" {
		t.Fatalf("Enter on New shipment went to %s", tab.Path())
	}
	tab.waitFocus(`#to_firstname`)

	tabs := 0
	for _, f := range []struct{ sel, text string }{
		{"#to_firstname", "Petra"}, {"#to_surname", "Svobodová"}, {"#to_street", "Americká 12"},
		{"#to_city", "Plzeň"}, {"#to_zip", "301 00"}, {"#to_phone", "+420 731 222 333"},
		{"#pkg_weight_0", "2"}, {"#pkg_length_0", "30"}, {"#pkg_width_0", "20"}, {"#pkg_height_0", "10"},
	} {
		tabs += tab.tabTo(f.sel, 6)
		tab.press(f.text)
	}
	// From the first name to the package's height: one Tab per field, and a
	// few over the fields left empty (company, country, e-mail, the checkbox).
	t.Logf("%d Tabs to fill the recipient and the package", tabs)
	if tabs > 16 {
		t.Errorf("%d Tabs to fill the recipient and the package", tabs)
	}
	// Enter in the form compares; the focus lands on the first offer.
	tab.press(kb.Enter)
	tab.waitFocus(`[data-testid=offers] button[name=choose]`)
	// Tab over the offers to one the courier brings to the address.
	choose := 0
	for !tab.eval(`document.activeElement.closest("tr").querySelector("[data-testid=offer-delivery-point]").textContent.trim() === "no"`) {
		if choose++; choose > 12 {
			t.Fatalf("no offer to an address among the first 12")
		}
		tab.press(kb.Tab)
	}
	t.Logf("%d Tabs over the offers to one delivered to the address", choose)
	tab.press(kb.Enter)
	// After Choose the focus is on the Order button: no Tab at all.
	tab.waitFocus(`[data-testid=create]`)
	if n := tab.tabTo(`[data-testid=create]`, 3); n != 0 {
		t.Errorf("%d Tabs from Choose to Order", n)
	}
	tab.look("order-focused")
	tab.pressAndLoad(kb.Enter)
	if !strings.HasPrefix(tab.Path(), "/shipping/shipments/") {
		t.Fatalf("after ordering by keyboard the page is %s", tab.Path())
	}
	tab.WaitText(`[data-testid=label-box]`, "label being made")

	// The label is ready later (before the courier's pickup, 15 minutes after
	// export); the print queue prints it by keyboard.
	env.Sandbox.Advance(10 * time.Minute)
	if _, err := env.App.Jobs.Labels(context.Background()); err != nil {
		t.Fatal(err)
	}
	tab.Open("/shipping")
	tab.waitFocus(`a[href="/shipping/new"]`)
	tab.tabTo(`a[href="/shipping/print"]`, 1)
	tab.pressAndLoad(kb.Enter)
	tab.waitFocus(`[data-testid=print-selected]`)
	if rows := tab.Texts(`[data-testid=shipments] tbody tr`); len(rows) != 1 {
		t.Fatalf("print queue: %q", rows)
	}
	tab.press(kb.Enter)
	tab.WaitText(`main`, "No labels waiting")
}

// Three parcels scanned one after another open three shipments without a
// click: after each scan the box on the new page has the focus, ready for the
// next one. A scan that finds several shipments keeps the focus too.
func TestScansInARowKeepTheFocus(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	ctx := context.Background()
	if err := env.App.Desk.SeedDemoOrders(ctx); err != nil {
		t.Fatal(err)
	}
	list, err := env.App.DB.RecentShipments(ctx, 10)
	if err != nil || len(list) < 3 {
		t.Fatalf("demo shipments: %d %v", len(list), err)
	}
	// The tracking pages start in the scan box; elsewhere "/" goes there.
	tab.Open("/tracking")
	tab.waitFocus(`#scan`)
	tab.Open("/shipping")
	tab.waitFocus(`a[href="/shipping/new"]`)
	tab.press("/")
	tab.waitFocus(`#scan`)
	for _, s := range list[:3] {
		tab.press(s.Tracking())
		tab.pressAndLoad(kb.Enter)
		if want := fmt.Sprintf("/shipping/shipments/%d", s.ID); tab.Path() != want {
			t.Fatalf("scanning %s opened %s, want %s", s.Tracking(), tab.Path(), want)
		}
		if got := tab.Text(`[data-testid=tracking-number]`); got != s.Tracking() {
			t.Errorf("the page shows %q, scanned %q", got, s.Tracking())
		}
		tab.waitFocus(`#scan`)
	}
	// The demo references share a prefix: a list of matches, the box ready again.
	tab.press("DEMO-")
	tab.pressAndLoad(kb.Enter)
	if !strings.HasPrefix(tab.Path(), "/scan") {
		t.Fatalf("a scan of several matches went to %s", tab.Path())
	}
	tab.waitFocus(`#scan`)
	tab.look("several")
	tab.press(list[0].Tracking())
	tab.pressAndLoad(kb.Enter)
	if want := fmt.Sprintf("/shipping/shipments/%d", list[0].ID); tab.Path() != want {
		t.Errorf("the next scan opened %s, want %s", tab.Path(), want)
	}
	tab.waitFocus(`#scan`)
}

// "/" goes to the scan box from a page, but not while typing in a field; "?"
// opens the list of shortcuts, an accessible dialog that Escape closes.
func TestShortcutsScanBoxAndHelp(t *testing.T) {
	t.Parallel()
	_, tab := deskTab(t)
	tab.Open("/shipping")
	tab.waitFocus(`a[href="/shipping/new"]`)
	tab.press("/")
	tab.waitFocus(`#scan`)
	if !tab.eval(`document.getElementById("scan").value === ""`) {
		t.Errorf("the / went into the scan box")
	}

	tab.Open("/shipping/new")
	tab.waitFocus(`#to_firstname`)
	tab.tabTo(`#to_street`, 3)
	tab.press("Dlouhá 12/3")
	if !tab.hasFocus(`#to_street`) {
		t.Errorf("a / typed in a field moved the focus to %q", tab.focused())
	}
	if !tab.eval(`document.getElementById("to_street").value === "Dlouhá 12/3"`) {
		t.Errorf("the street lost its slash")
	}

	// "?" from outside a field: the shortcuts, in the request's language.
	tab.Open("/shipping")
	tab.waitFocus(`a[href="/shipping/new"]`)
	tab.press("?")
	tab.waitTrue("the shortcuts dialog opens", `document.getElementById("shortcuts")?.open && document.getElementById("shortcuts").contains(document.activeElement)`)
	tab.wantText(`#shortcuts`, "Go to the scan box")
	tab.wantText(`#shortcuts-title`, "Keyboard shortcuts")
	tab.look("shortcuts")
	tab.press(kb.Escape)
	tab.waitTrue("Escape closes the shortcuts", `!document.getElementById("shortcuts").open`)
	tab.waitFocus(`a[href="/shipping/new"]`)

	// In Czech the dialog reads Czech.
	tab.toCzech()
	tab.press("?")
	tab.waitTrue("the shortcuts dialog opens", `document.getElementById("shortcuts")?.open`)
	tab.wantText(`#shortcuts-title`, "Klávesové zkratky")
	tab.wantText(`#shortcuts`, "Přejít do pole pro skenování")
	tab.look("shortcuts-cs")
	tab.press(kb.Escape)
	tab.waitTrue("Escape closes the shortcuts", `!document.getElementById("shortcuts").open`)
}

// While the service holds its answer over the offers, Compare and Choose
// are disabled and the busy notice shows; both come back with the answer.
// A plain form (refresh the tracking) does the same until its page comes.
// The service answers once the page has been seen busy, however slow the
// machine.
func TestSlowServiceShowsProgress(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	tab.Open("/shipping/new")
	tab.fillRecipient()
	env.Sandbox.Hold("/api/v1/rates/get")
	busy := `getComputedStyle(document.getElementById("busy")).visibility === "visible"`
	tab.Click(`[data-testid=compare]`)
	tab.waitTrue("Compare is disabled and the notice shows", `document.querySelector("[data-testid=compare]").disabled && `+busy)
	tab.wantText(`#busy`, "Asking the service")
	tab.screenshot("waiting")
	env.Sandbox.Release()
	tab.WaitText(`[data-testid=offers]`, "UPS")
	tab.waitTrue("Compare is enabled again and the notice gone", `!document.querySelector("[data-testid=compare]").disabled && !(`+busy+`)`)

	env.Sandbox.Hold("/api/v1/rates/get")
	tab.ChooseOffer("UPS")
	tab.waitTrue("Choose is disabled while the offers are asked again", `[...document.querySelectorAll("button[name=choose]")].every(b => b.disabled) && `+busy)
	env.Sandbox.Release()
	tab.WaitText(`[data-testid=chosen]`, "UPS")
	tab.waitTrue("the buttons are back", `!document.querySelector("[data-testid=create]").disabled && !(`+busy+`)`)

	orderChosen(t, tab)
	shipment := tab.Path()
	env.Sandbox.Advance(time.Hour)
	tab.Open(shipment)
	tab.countLiveTicks()
	env.Sandbox.Hold("/api/v1/shipments/tracking")
	refresh := `[data-testid=refresh-now]`
	// The page's own live refresh comes every few seconds; one passing while
	// the answer is awaited must not bring the button back for a second click.
	tab.clickAndLoad(refresh, `(`+busy+` && window.liveTicks > 0) ? [document.querySelector(`+"`"+refresh+"`"+`).disabled] : null`,
		func(state []bool) {
			if len(state) != 1 || !state[0] {
				t.Errorf("a live refresh brought the sent form back: its button is enabled again (%v)", state)
			}
			env.Sandbox.Release()
		})
	tab.WaitText(`#flashes`, "Asked the service")
	if tab.eval(busy) || tab.eval(`document.querySelector(`+"`"+refresh+"`"+`).disabled`) {
		t.Error("the new page still looks busy")
	}
}

// countLiveTicks counts the page's live refreshes from now on, swapped or
// held back.
func (b *Tab) countLiveTicks() {
	b.t.Helper()
	b.do("count live ticks", chromedp.Evaluate[chromedp.Void](`window.liveTicks = 0;
		document.addEventListener("htmx:beforeRequest", e => { if (e.defaultPrevented) window.liveTicks++; });
		document.addEventListener("htmx:afterSettle", () => window.liveTicks++);`))
}

// clickAndLoad clicks a plain form's button and, while the page waits for
// the answer, waits until js gives the page's state, hands it to answer
// (which lets the answer go) and waits for the page the answer brings. The
// click and the waiting are one call run in the page: once a form is sent,
// chromedp's next calls wait for the next page and would look at that one.
func (b *Tab) clickAndLoad(sel, js string, answer func(state []bool)) {
	b.t.Helper()
	wait := fmt.Sprintf(`(async () => {
		document.querySelector(%q).click();
		for (const end = Date.now() + 30000; Date.now() < end; await new Promise(r => setTimeout(r, 20))) {
			const state = %s;
			if (state) return state;
		}
		throw new Error("the page never showed the awaited state");
	})()`, sel, js)
	trigger := chromedp.Action[chromedp.Void](func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		state, err := chromedp.Evaluate[[]bool](wait, chromedp.EvalAwaitPromise)(ctx, t)
		if err != nil {
			return chromedp.Void{}, err
		}
		answer(state)
		return chromedp.Void{}, nil
	})
	b.untilLoad("click "+sel+" and wait", trigger)
}

// When the service fails, the form says so in place of the offers and its
// buttons work again; the focus goes to the message.
func TestFailedCompareSaysSo(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	tab.Open("/shipping/new")
	tab.fillRecipient()
	env.Sandbox.Fault("/api/v1/rates/get", map[string]any{"error_rate": 1})
	tab.Click(`[data-testid=compare]`)
	tab.WaitText(`#form-problems`, "answered with error 503") // it answered: refused, not silent
	tab.waitTrue("the buttons work again", `!document.querySelector("[data-testid=compare]").disabled`)
	tab.waitFocus(`#form-problems`)
	if got := tab.Attr(`#to_surname`, "value"); got != "Svobodová" {
		t.Errorf("the form lost what was typed: surname %q", got)
	}
	tab.top()
	tab.look("service-down")
}
