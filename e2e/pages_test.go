package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/storage"
)

// dayEnv is a dashboard with a day's data: the demo desk, its shipments
// moved on by the sandbox until their labels are ready, and the demo
// commissions; a manager (who sees every page) is signed in.
func dayEnv(t *testing.T) (*apptest.Env, *Tab) {
	t.Helper()
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true})
	env.SeedDesk()
	ctx := context.Background()
	if err := env.App.Desk.SeedDemoOrders(ctx); err != nil {
		t.Fatal(err)
	}
	if err := env.App.Bench.SeedDemo(ctx); err != nil {
		t.Fatal(err)
	}
	env.Sandbox.Advance(10 * time.Minute)
	if _, err := env.App.Jobs.Labels(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := env.App.Jobs.Tracking(ctx); err != nil {
		t.Fatal(err)
	}
	pw := env.AddUser("marta", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("marta", pw)
	return env, tab
}

// dailyPages are the pages of a day at the desk; {shipment} and
// {commission} stand for the first of each.
var dailyPages = []struct{ name, path string }{
	{"home", "/"},
	{"shipping", "/shipping"},
	{"tracking", "/tracking"},
	{"shipment", "{shipment}"},
	{"addresses", "/shipping/addresses"},
	{"print-queue", "/shipping/print"},
	{"manifest", "/shipping/manifest"},
	{"pickups", "/shipping/pickups"},
	{"drafts", "/shipping/drafts"},
	{"returns", "/returns"},
	{"commission", "{commission}"},
	{"new-commission", "/returns/new"},
	{"reports", "/reports"},
	{"users", "/users"},
	{"connection", "/connection"},
}

// emulateMedia renders the page for a CSS media type ("print"; "": the screen again).
func emulateMedia(media string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media})
		return err
	})
}

// overflow is how much wider than the window the page is (0: it fits).
func (b *Tab) overflow() int {
	b.t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth - window.innerWidth`))
	if err != nil {
		b.t.Fatalf("overflow: %v", err)
	}
	return out
}

// wideElements names the elements that stick out of the window, to say why.
func (b *Tab) wideElements() []string {
	out, _ := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`(() => {
		const w = window.innerWidth, out = [];
		for (const e of document.body.querySelectorAll('*')) {
			const r = e.getBoundingClientRect();
			if (r.right > w + 1 && r.width > 0 && !e.closest('.table-scroll')) out.push(e.tagName.toLowerCase() + '.' + e.className + ' ' + Math.round(r.right));
		}
		return out.slice(0, 8);
	})()`))
	return out
}

// smallTargets lists the visible links, buttons, fields and summaries
// smaller than 24 × 24 px.
func (b *Tab) smallTargets() []string {
	b.t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`(() => {
		const out = [];
		for (const e of document.querySelectorAll('a, button, input, select, summary')) {
			if (e.type === 'hidden') continue;
			const r = e.getBoundingClientRect(), st = getComputedStyle(e);
			if (r.width <= 1 || r.height <= 1 || st.visibility === 'hidden' || r.right < 0 || r.bottom < 0) continue;
			if (r.width < 24 || r.height < 24) out.push(e.outerHTML.slice(0, 90) + ' ' + Math.round(r.width) + '×' + Math.round(r.height));
		}
		return out;
	})()`))
	if err != nil {
		b.t.Fatalf("tap targets: %v", err)
	}
	return out
}

// height of the first match, in px.
func (b *Tab) height(sel string) int {
	b.t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](fmt.Sprintf(`Math.round(document.querySelector(%q).getBoundingClientRect().bottom)`, sel)))
	if err != nil {
		b.t.Fatalf("height of %s: %v", sel, err)
	}
	return out
}

// visibleCount counts the matches of sel that take space on the page and
// are rendered (not inside a closed disclosure, whose content keeps its boxes).
func (b *Tab) visibleCount(sel string) int {
	b.t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](fmt.Sprintf(`[...document.querySelectorAll(%q)].filter(e => e.getClientRects().length > 0 && e.checkVisibility() && e.type !== 'hidden').length`, sel)))
	if err != nil {
		b.t.Fatalf("count %s: %v", sel, err)
	}
	return out
}

// The pages of a day fit a tablet and a phone: nothing wider than the
// window, tap targets of at least 24 px on the tracking list, a header that
// folds on a phone; printed, a page shows its content without controls.
func TestDailyPagesOnTabletPhoneAndPaper(t *testing.T) {
	t.Parallel()
	env, tab := dayEnv(t)
	ctx := context.Background()
	recent, err := env.App.DB.RecentShipments(ctx, 1)
	if err != nil || len(recent) == 0 {
		t.Fatalf("no shipments: %v", err)
	}
	tab.Open("/returns")
	commission := tab.Attr(`[data-testid=commission] a`, "href")
	if commission == "" {
		t.Fatal("no commission listed")
	}
	for _, lang := range []string{"en", "cs"} {
		if lang == "cs" {
			tab.Open("/")
			tab.toCzech()
		}
		for _, p := range dailyPages {
			path := strings.NewReplacer("{shipment}", fmt.Sprintf("/shipping/shipments/%d", recent[0].ID), "{commission}", commission).Replace(p.path)
			tab.do("desktop width", chromedp.EmulateViewport(1280, 900))
			tab.Open(path)
			if lang == "en" || p.name == "tracking" || p.name == "shipment" || p.name == "addresses" || p.name == "returns" {
				tab.shots(lang + "-" + p.name)
			}
			for _, w := range []int64{768, 390} {
				tab.do("width", chromedp.EmulateViewport(w, 900))
				if over := tab.overflow(); over > 0 {
					t.Errorf("%s %s at %d px: %d px wider than the window: %q", lang, path, w, over, tab.wideElements())
				}
			}
		}
	}

	// The tracking list on a phone: every tap target at least 24 × 24 px; the
	// header folded behind its menu button, the sandbox banner a short strip.
	tab.do("phone", chromedp.EmulateViewport(390, 900))
	tab.Open("/tracking")
	if small := tab.smallTargets(); len(small) > 0 {
		t.Errorf("%d tap targets under 24 px on the tracking list: %q", len(small), small)
	}
	if h := tab.height(`header.topbar`); h > 130 {
		t.Errorf("the header ends at %d px on a phone", h)
	}
	// The manager's banner wraps (time, clock, faults, mail) rather than
	// scrolling sideways; it stays a strip of at most three short lines.
	if h := tab.height(`.sandbox-banner`); h > 90 {
		t.Errorf("the sandbox banner is %d px high on a phone", h)
	}
	if !tab.eval(`(() => { const b = document.querySelector('.sandbox-banner'); return b.scrollWidth <= b.clientWidth; })()`) {
		t.Error("the sandbox banner scrolls sideways on a phone")
	}
	if n := tab.visibleCount(`[data-testid=nav] a`); n != 0 {
		t.Errorf("%d navigation links shown before the menu is opened", n)
	}
	tab.Click(`[data-testid=menu] summary`)
	if n := tab.visibleCount(`[data-testid=nav] a`); n < 5 {
		t.Errorf("the opened menu shows %d links", n)
	}
	tab.shots("menu-open")
	tab.Submit(`[data-testid=nav] a[href="/returns"]`)
	if got := tab.Path(); got != "/returns" {
		t.Errorf("the menu led to %s", got)
	}
	for _, w := range []int64{768, 1280} {
		tab.do("width", chromedp.EmulateViewport(w, 900))
		tab.Open("/tracking")
		// Wider than a phone the menu stands open without its button.
		if n := tab.visibleCount(`[data-testid=nav] a`); n < 5 || tab.visibleCount(`[data-testid=menu] summary`) != 0 {
			t.Errorf("at %d px the header shows %d links and its menu button", w, n)
		}
		if small := tab.smallTargets(); len(small) > 0 {
			t.Errorf("%d tap targets under 24 px on the tracking list at %d px: %q", len(small), w, small)
		}
	}

	// Printed: no buttons, forms, checkboxes, navigation or banner; the content stays.
	tab.do("desktop width", chromedp.EmulateViewport(1280, 900))
	for _, path := range []string{"/tracking", fmt.Sprintf("/shipping/shipments/%d", recent[0].ID), "/shipping/print", "/shipping/addresses", commission} {
		tab.Open(path)
		tab.do("print media", emulateMedia("print"))
		for _, sel := range []string{"button", "input", "select", "textarea", "nav", ".sandbox-banner", "header", "a.button", "summary"} {
			if n := tab.visibleCount(sel); n != 0 {
				t.Errorf("printing %s shows %d %s", path, n, sel)
			}
		}
		if n := tab.visibleCount("main h1"); n != 1 {
			t.Errorf("printing %s loses its heading", path)
		}
		if path == "/shipping/print" && tab.visibleCount("table.list tbody tr") == 0 {
			t.Errorf("printing the print queue loses its list")
		}
		tab.screenshot("print-" + strings.Trim(strings.ReplaceAll(path, "/", "-"), "-"))
		tab.do("screen media", emulateMedia(""))
	}
}

// Every removal asks first: the confirm step appears before anything goes,
// Cancel (or Escape) leaves the item in place, Confirm removes it.
func TestRemovalsAskFirstInTheBrowser(t *testing.T) {
	t.Parallel()
	env, tab := dayEnv(t)
	ctx := context.Background()
	// A second sender to remove, and a saved recipient.
	tab.Open("/shipping/addresses")
	tab.Fill("#label", "Dock B")
	tab.Fill("#street", "Skladová 1")
	tab.Fill("#city", "Brno")
	tab.Fill("#zip", "602 00")
	tab.Fill("#phone", "+420 777 123 456")
	tab.Submit(`form[action="/shipping/senders"] button[type=submit]`)
	tab.WaitText(`[data-testid=senders]`, "Dock B")
	if _, err := env.App.DB.SaveRecipient(ctx, storage.Address{Firstname: "Petra", Surname: "Svobodová", Street: "Americká 12",
		City: "Plzeň", Zip: "301 00", Country: "CZ", Phone: "+420 731 222 333"}); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		name, list, button, item string
	}{
		{"sender", `[data-testid=senders]`, `[data-testid=senders] [data-row="Dock B"] [data-testid=remove-sender]`, "Dock B"},
		{"recipient", `#recipients`, `#recipients [data-testid=remove-recipient]`, ""},
		{"preset", `#presets`, `#presets [data-testid=remove-preset]`, ""},
	} {
		tab.Open("/shipping/addresses")
		item := c.item
		if item == "" {
			item = strings.TrimSpace(strings.Split(tab.Text(c.list+" li"), ",")[0])
		}
		// Remove, in the row of the sender to remove (marked so the selector finds it).
		press := func() {
			tab.do("mark Dock B", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('[data-testid=senders] tbody tr')].
				filter(r => r.textContent.includes('Dock B')).forEach(r => r.setAttribute('data-row', 'Dock B'))`))
			tab.Submit(c.button)
		}
		before := tab.Texts(c.list + " li, " + c.list + " tbody tr")
		press()
		tab.WaitText(`[data-testid=confirm]`, item)
		if c.name == "sender" {
			tab.look("confirm-" + c.name)
		}
		// Cancel: back to the address book, nothing gone.
		tab.Submit(`[data-testid=confirm-cancel]`)
		if got := tab.Texts(c.list + " li, " + c.list + " tbody tr"); len(got) != len(before) {
			t.Fatalf("%s: Cancel removed it: %d before, %d after", c.name, len(before), len(got))
		}
		// Escape does what Cancel does.
		press()
		tab.WaitText(`[data-testid=confirm]`, item)
		tab.untilLoad(c.name+": Escape", chromedp.KeyEvent(kb.Escape))
		if !strings.HasPrefix(tab.Path(), "/shipping/addresses") {
			t.Fatalf("%s: Escape led to %s", c.name, tab.Path())
		}
		if got := tab.Texts(c.list + " li, " + c.list + " tbody tr"); len(got) != len(before) {
			t.Fatalf("%s: Escape removed it", c.name)
		}
		// Confirm: it goes.
		press()
		tab.WaitText(`[data-testid=confirm]`, item)
		tab.Submit(`[data-testid=confirm-yes]`)
		tab.WaitText(`#flashes`, "")
		if got := tab.Texts(c.list + " li, " + c.list + " tbody tr"); len(got) != len(before)-1 {
			t.Errorf("%s: Confirm: %d before, %d after", c.name, len(before), len(got))
		}
		if c.item != "" && strings.Contains(tab.Text(c.list), c.item) {
			t.Errorf("%s: %s still listed", c.name, c.item)
		}
	}

	// Storno of a shipment just ordered: the confirm step, Cancel keeps it,
	// Confirm cancels.
	tab.Open("/shipping/new")
	tab.fillRecipient()
	tab.Click(`[data-testid=compare]`)
	tab.WaitText(`[data-testid=offers]`, "UPS")
	tab.ChooseOffer("UPS")
	tab.WaitText(`[data-testid=chosen]`, "UPS")
	orderChosen(t, tab)
	page := tab.Path()
	var id int64
	if _, err := fmt.Sscanf(page, "/shipping/shipments/%d", &id); err != nil {
		t.Fatalf("shipment page %s", page)
	}
	tab.Submit(`[data-testid=storno-start]`)
	tab.WaitText(`[data-testid=confirm]`, "Petra Svobodová")
	tab.look("confirm-storno")
	tab.Submit(`[data-testid=confirm-cancel]`)
	if tab.Path() != page || tab.visibleCount(`[data-testid=storno]`) != 1 {
		t.Fatalf("Cancel of the storno: at %s", tab.Path())
	}
	tab.Submit(`[data-testid=storno-start]`)
	tab.Submit(`[data-testid=confirm-yes]`)
	tab.WaitText(`[data-testid=todo]`, "cancelled")
	if s, _ := env.App.DB.ShipmentByID(ctx, id); s.CancelledAt == nil {
		t.Error("the storno did not happen once confirmed")
	}

	// Cancelling a commission.
	tab.Open("/returns")
	commission := tab.Attr(`[data-testid=commission] a`, "href")
	tab.Open(commission)
	status := tab.Text(`[data-testid=commission-status]`)
	tab.Submit(`[data-testid=move-cancelled]`)
	tab.WaitText(`[data-testid=confirm]`, "")
	tab.look("confirm-commission")
	tab.Submit(`[data-testid=confirm-cancel]`)
	if tab.Path() != commission || tab.Text(`[data-testid=commission-status]`) != status {
		t.Fatalf("Cancel of the commission's cancelling: at %s, %q", tab.Path(), tab.Text(`[data-testid=commission-status]`))
	}
	tab.Submit(`[data-testid=move-cancelled]`)
	tab.Submit(`[data-testid=confirm-yes]`)
	if got := tab.Text(`[data-testid=commission-status]`); got == status {
		t.Errorf("the commission is still %q once its cancelling was confirmed", got)
	}
}
