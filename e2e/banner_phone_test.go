package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/i18n"
	"shipdesk/identity"
)

// bannerFits fails unless the page scrolls not sideways and the banner's
// "+1 day", faults and sent-mail controls lie whole on the screen.
func (b *Tab) bannerFits(width int64) {
	b.t.Helper()
	if !b.eval(`document.documentElement.scrollWidth <= window.innerWidth`) {
		b.t.Errorf("%d px: the page scrolls sideways", width)
	}
	for _, sel := range []string{`[data-testid=sandbox-clock] button[value="1440"]`, `[data-testid=sandbox-faults]`, `[data-testid=sandbox-mail]`} {
		if !b.eval(`(() => { const e = document.querySelector('` + sel + `'); if (!e) return false;
			const r = e.getBoundingClientRect(); return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth; })()`) {
			b.t.Errorf("%d px: %s is not whole on the screen", width, sel)
		}
	}
}

// On every width the sandbox banner fits: it wraps rather than scrolling
// sideways, and a manager reaches "+1 day", the faults and the sent mail
// without scrolling. Its time follows the clock on a page that refreshes
// itself (the home page's counts): moved two days on, the banner says so without
// a click.
func TestSandboxBannerFitsAndFollowsTheClock(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("marta", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("marta", pw)
	tab.Open("/")
	for _, lang := range []string{"en", "cs"} {
		if lang == "cs" {
			tab.toCzech()
		}
		for _, w := range []int64{1280, 768, 390} {
			tab.do("width", chromedp.EmulateViewport(w, 844))
			tab.bannerFits(w)
		}
		tab.shots("banner-" + lang)
	}
	tab.do("phone width", chromedp.EmulateViewport(390, 844))
	was := tab.words(`[data-testid=sandbox-now] time`)
	env.Sandbox.Advance(48 * time.Hour)
	now, err := env.App.Upstream.Controls.Now(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	day := i18n.Date(i18n.WithLang(context.Background(), i18n.Czech), now.Now)
	got := tab.waitChange(`[data-testid=sandbox-now] time`, was)
	if !containsWord(got, day) {
		t.Errorf("after two days the banner says %q, want %q in it", got, day)
	}
	tab.bannerFits(390)
	tab.screenshot("banner-moved-cs-390")
}

// containsWord reports whether s holds want, spaces collapsed in both.
func containsWord(s, want string) bool {
	return strings.Contains(strings.Join(strings.Fields(s), " "), strings.Join(strings.Fields(want), " "))
}
