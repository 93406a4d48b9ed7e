package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// noOverflow fails when the page is wider than the window at width w.
func (b *Tab) noOverflow(w int64) {
	b.t.Helper()
	b.do("width", chromedp.EmulateViewport(w, 900))
	js := `[document.documentElement.scrollWidth, window.innerWidth]`
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]int](js))
	if err != nil {
		b.t.Fatalf("page width: %v", err)
	}
	if got[0] > got[1] {
		wide, _ := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("body *")]
			.filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5)
			.slice(0, 8).map(e => e.tagName + "." + e.className + "#" + e.id + " " + Math.round(e.getBoundingClientRect().right))`))
		b.t.Errorf("%s at %d px: the page is %d px wide, wider than the window (%d px): %q", b.Path(), w, got[0], got[1], wide)
	}
	b.do("width", chromedp.EmulateViewport(1280, 900))
}

// top scrolls to the top, so full-page screenshots show the sticky parts
// where the page begins.
func (b *Tab) top() {
	b.t.Helper()
	b.do("scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0); document.querySelectorAll(".ship-offers").forEach(e => e.scrollTop = 0)`))
}

// The new-shipment form with its offers and a chosen one, in Czech and
// English at desktop, tablet and phone width: the offers are beside the form
// or after the recipient, prices and dates never wrap, the Order button
// stays in sight, and nothing is wider than the window.
func TestNewShipmentFormAtEveryWidth(t *testing.T) {
	t.Parallel()
	_, tab := deskTab(t)
	tab.Open("/shipping/new")
	tab.toCzech()
	for _, lang := range []string{"cs", "en"} {
		tab.Open("/shipping/new")
		tab.fillRecipient()
		tab.Click(`[data-testid=compare]`)
		tab.WaitText(`[data-testid=offers]`, "UPS")
		// Money the Czech or the English way, and no price or date broken over two lines.
		price := tab.Text(`[data-testid=offer-price-vat]`)
		if lang == "cs" && !strings.HasSuffix(price, "\u00a0Kč") || lang == "en" && !strings.HasPrefix(price, "CZK\u00a0") {
			t.Errorf("%s: price %q", lang, price)
		}
		day := tab.Text(`[data-testid=offer-delivery]`)
		if strings.Contains(day, "-") {
			t.Errorf("%s: delivery day %q is written as ISO", lang, day)
		}
		for _, w := range []int64{1280, 768} {
			tab.do("width", chromedp.EmulateViewport(w, 900))
			// A text on two lines has two boxes at different heights.
			wrapped, err := chromedp.Run(tab.ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("[data-testid=offers] td.nowrap")]
				.filter(td => { const r = document.createRange(); r.selectNodeContents(td);
					return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size > 1; })
				.map(td => td.textContent.trim())`))
			if err != nil || len(wrapped) > 0 {
				t.Errorf("%s at %d px: prices or dates wrap: %q (%v)", lang, w, wrapped, err)
			}
		}
		tab.do("width", chromedp.EmulateViewport(1280, 900))
		tab.top()
		// On a wide screen the offers begin beside the recipient, not below the form.
		beside, err := chromedp.Run(tab.ctx, chromedp.Evaluate[bool](`(() => {
			const o = document.getElementById("offers").getBoundingClientRect(), r = document.querySelector(".ship-recipient").getBoundingClientRect();
			return o.left > r.right && o.top < r.bottom; })()`))
		if err != nil || !beside {
			t.Errorf("%s: at 1280 px the offers are not beside the recipient (%v)", lang, err)
		}
		tab.do("choose UPS", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll("[data-testid=offers] tr[data-carrier]")]
			.find(r => r.dataset.carrier.toUpperCase() === "UPS" && r.querySelector("button[name=choose]")).querySelector("button[name=choose]").click()`))
		tab.WaitText(`[data-testid=chosen]`, "UPS")
		tab.top()
		tab.shots("offers-" + lang)
		for _, w := range []int64{768, 390} {
			tab.noOverflow(w)
		}
		// The Order button is in the window wherever the page is scrolled.
		for _, w := range []int64{1280, 768, 390} {
			tab.do("width", chromedp.EmulateViewport(w, 900))
			for _, at := range []string{"0", "document.body.scrollHeight / 2"} {
				inView, err := chromedp.Run(tab.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { window.scrollTo(0, %s);
					const b = document.querySelector("[data-testid=create]").getBoundingClientRect();
					return b.top >= 0 && b.bottom <= window.innerHeight; })()`, at)))
				if err != nil || !inView {
					t.Errorf("%s at %d px, scrolled to %s: the Order button is out of sight (%v)", lang, w, at, err)
				}
			}
		}
		tab.do("width", chromedp.EmulateViewport(1280, 900))
		if lang == "cs" {
			tab.Submit(`[data-testid=language] button`)
		}
	}
}

// Compare on an empty form marks every missing field at once and puts the
// focus on the first.
func TestEmptyCompareMarksEveryField(t *testing.T) {
	t.Parallel()
	_, tab := deskTab(t)
	tab.Open("/shipping/new")
	tab.waitFocus(`#to_firstname`)
	tab.press("\r") // Enter in the first field compares
	tab.waitFocus(`#to_surname`)
	for _, field := range []string{"to_surname", "to_city", "to_zip", "to_phone", "packages"} {
		if tab.Text("#"+field+"-error") == "" {
			t.Errorf("%s is not marked", field)
		}
	}
	if n := len(tab.Texts(`.field-error`)); n < 5 {
		t.Errorf("%d problems shown, want at least 5", n)
	}
	tab.top()
	tab.look("empty")
}

// The point picker starts empty with the recipient's town as its
// placeholder; typing a town finds its points, nonsense finds nothing and
// says so, a broad search says there are more than shown. The shipment page
// then names the chosen point.
func TestPointPickerInTheBrowser(t *testing.T) {
	t.Parallel()
	_, tab := deskTab(t)
	tab.Open("/shipping/new")
	tab.fillRecipient() // Plzeň
	tab.Click(`[data-testid=compare]`)
	tab.WaitText(`[data-testid=offers]`, "Zásilkovna")
	tab.Click(`tr[data-service="102"] button[name=choose]`)
	tab.waitFocus(`#delivery_q`)
	if v := tab.Attr(`#delivery_q`, "value"); v != "" {
		t.Errorf("the picker starts with %q", v)
	}
	if p := tab.Attr(`#delivery_q`, "placeholder"); p != "Plzeň" {
		t.Errorf("placeholder %q, want the recipient's town", p)
	}
	tab.wantText(`[data-testid=delivery-points-status]`, "Plzeň")
	tab.press("Praha")
	tab.waitTrue("the points of Praha", `(() => { const p = [...document.querySelectorAll("[data-testid=delivery-points] .point-text")];
		return p.length > 0 && p.every(e => e.textContent.includes("Praha")); })()`)
	if v, err := chromedp.Run(tab.ctx, chromedp.Evaluate[string](`document.getElementById("delivery_q").value`)); err != nil || v != "Praha" {
		t.Errorf("after typing Praha the box holds %q", v)
	}
	addresses := tab.Texts(`[data-testid=delivery-points] .point-text > span:not(.hint)`)
	if len(addresses) == 0 {
		t.Fatal("no points for Praha")
	}
	for _, a := range addresses {
		if !strings.Contains(a, "Praha") {
			t.Errorf("a point outside Praha: %q", a)
		}
	}
	tab.Fill(`#delivery_q`, "")
	tab.Type(`#delivery_q`, "Xqzwyv")
	tab.WaitText(`[data-testid=delivery-points-status]`, "Nothing matches")
	tab.Fill(`#delivery_q`, "")
	tab.Type(`#delivery_q`, "a")
	tab.WaitText(`[data-testid=delivery-points-status]`, "Showing 15 of")
	tab.Fill(`#delivery_q`, "")
	tab.Type(`#delivery_q`, "Plzeň")
	tab.waitTrue("the points of Plzeň", `(() => { const p = [...document.querySelectorAll("[data-testid=delivery-points] .point-text")];
		return p.length > 0 && p.every(e => e.textContent.includes("Plzeň")); })()`)
	name := tab.Text(`[data-testid=delivery-points] .point-text strong`)
	tab.Click(`[data-testid=delivery-points] input[type=radio]`)
	tab.top()
	tab.look("picker")
	orderChosen(t, tab)
	got := tab.Text(`[data-testid=point-delivery]`)
	for _, want := range []string{"Plzeň", strings.Fields(name)[0]} {
		if !strings.Contains(got, want) {
			t.Errorf("the shipment page's delivery point %q lacks %q", got, want)
		}
	}
	tab.look("shipment-points")
}
