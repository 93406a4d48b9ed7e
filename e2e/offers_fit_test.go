package e2e

import (
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// offersFit measures the offers at one width: whether the table's right edge
// stays within its card, whether every choose button lies whole within the
// card and the window, the tallest offer row in lines of its text, and
// whether the page scrolls sideways.
type offersFit struct {
	InCard, ButtonsShown, PageFits bool
	Lines                          float64
	Rows, Buttons                  int
}

func (b *Tab) measureOffers() offersFit {
	b.t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[offersFit](`(() => {
		const card = document.getElementById("offers").getBoundingClientRect();
		const table = document.querySelector("[data-testid=offers]").getBoundingClientRect();
		const buttons = [...document.querySelectorAll("#offers button[name=choose]")];
		const shown = buttons.every(b => { const r = b.getBoundingClientRect();
			return r.width > 0 && r.left >= card.left && r.right <= card.right + 0.5 && r.right <= window.innerWidth; });
		const rows = [...document.querySelectorAll("[data-testid=offers] tbody tr")];
		const line = parseFloat(getComputedStyle(rows[0]).fontSize) * 1.5;
		const tallest = Math.max(...rows.map(r => r.getBoundingClientRect().height));
		return {InCard: table.right <= card.right + 0.5, ButtonsShown: buttons.length > 0 && shown,
			PageFits: document.documentElement.scrollWidth <= window.innerWidth,
			Lines: tallest / line, Rows: rows.length, Buttons: buttons.length};
	})()`))
	if err != nil {
		b.t.Fatalf("measure the offers: %v", err)
	}
	return out
}

// The offers fit the screen: at 1280 px a dense table within its card, every
// "Choose" in sight; at 768 px at most two lines an offer; at 390 px every
// offer usable without scrolling sideways. In English and Czech, looked at.
func TestOffersFitEveryWidth(t *testing.T) {
	t.Parallel()
	_, tab := deskTab(t)
	tab.Open("/shipping/new")
	for _, lang := range []string{"en", "cs"} {
		if lang == "cs" {
			tab.toCzech()
		}
		tab.do("desktop width", chromedp.EmulateViewport(1280, 900))
		tab.Open("/shipping/new")
		tab.fillRecipient()
		tab.Click(`[data-testid=compare]`)
		tab.WaitText(`[data-testid=offers]`, "UPS")
		for _, w := range []int64{1280, 768, 390} {
			tab.do("width", chromedp.EmulateViewport(w, 900))
			m := tab.measureOffers()
			t.Logf("%s %d px: %+v", lang, w, m)
			switch w {
			case 1280:
				if !m.InCard || !m.ButtonsShown {
					t.Errorf("%s at 1280 px: the table is cut at its card (%+v)", lang, m)
				}
			case 768:
				if m.Lines > 2.6 || !m.InCard || !m.ButtonsShown {
					t.Errorf("%s at 768 px: an offer takes %.1f lines (%+v)", lang, m.Lines, m)
				}
			case 390:
				if !m.PageFits || !m.ButtonsShown {
					t.Errorf("%s at 390 px: the offers are not usable (%+v)", lang, m)
				}
			}
			tab.screenshot("offers-" + lang + "-" + strconv.FormatInt(w, 10))
		}
	}
}
