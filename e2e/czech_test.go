package e2e

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// Each role switches the dashboard to Czech with the header's language
// switch and goes through its pages: the shell (navigation, sign-out, the
// scan box), the home page, the users and connection pages and the sign-in
// page read Czech, <html lang> says so, and the pages render at desktop and
// phone width. Only texts of the shell's catalog are asserted: the desks'
// pages are translated separately.

// toCzech presses the header's language switch and checks the page is Czech.
func (b *Tab) toCzech() {
	b.t.Helper()
	if got := b.Text(`[data-testid=language] button`); got != "Česky" {
		b.t.Fatalf("the language switch offers %q, want Česky", got)
	}
	b.Submit(`[data-testid=language] button`)
	b.wantCzech()
}

// wantCzech checks <html lang="cs"> and that the switch now offers English.
func (b *Tab) wantCzech() {
	b.t.Helper()
	if got := b.Attr("html", "lang"); got != "cs" {
		b.t.Errorf("%s: <html lang=%q>, want cs", b.Path(), got)
	}
	if got := b.Text(`[data-testid=language] button`); got != "English" {
		b.t.Errorf("%s: the language switch offers %q, want English", b.Path(), got)
	}
}

// shots scans the page for accessibility and takes screenshots of it at
// desktop, tablet and phone width.
func (b *Tab) shots(name string) {
	b.t.Helper()
	b.accessible()
	for _, w := range []int64{1280, 768, 390} {
		b.do("width", chromedp.EmulateViewport(w, 900))
		b.screenshot(name + "-" + strconv.FormatInt(w, 10))
	}
	b.do("width", chromedp.EmulateViewport(1280, 900))
}

// wantText fails unless the first match of sel contains want.
func (b *Tab) wantText(sel, want string) {
	b.t.Helper()
	if got := b.Text(sel); !strings.Contains(got, want) {
		b.t.Errorf("%s: %s says %q, want %q in it", b.Path(), sel, got, want)
	}
}

// wantNav fails unless the navigation reads want.
func (b *Tab) wantNav(want ...string) {
	b.t.Helper()
	if got := b.Texts(`[data-testid=nav] a`); !slices.Equal(got, want) {
		b.t.Errorf("%s: navigation %q, want %q", b.Path(), got, want)
	}
}

// The clerk switches to Czech, opens Expedice and the new-shipment form.
func TestClerkInCzech(t *testing.T) {
	t.Parallel()
	_, tab := deskTab(t)
	tab.Open("/")
	tab.toCzech()
	if got := tab.Path(); got != "/" {
		t.Errorf("the switch went to %q, want back to /", got)
	}
	tab.wantText("h1", "Dobrý den, clara")
	tab.wantNav("Expedice", "Sledování", "Pozornost")
	tab.wantText(`.who span`, "Přihlášen(a) jako clara (Expedient)")
	tab.wantText(`form[action="/logout"] button`, "Odhlásit")
	if got := tab.Attr(`[data-testid=scan]`, "placeholder"); got != "Sledovací číslo" {
		t.Errorf("scan box placeholder %q", got)
	}
	tab.shots("home")

	tab.Submit(`[data-testid=nav] a[href="/shipping"]`)
	tab.wantCzech()
	if got := tab.Text(`[data-testid=nav] a[aria-current=page]`); got != "Expedice" {
		t.Errorf("current navigation entry %q, want Expedice", got)
	}
	tab.shots("shipping")

	tab.Open("/shipping/new")
	tab.wantCzech()
	tab.wantNav("Expedice", "Sledování", "Pozornost")
	if title, err := chromedp.Run(tab.ctx, chromedp.Evaluate[string](`document.title`)); err != nil || !strings.HasSuffix(title, "· shipdesk") {
		t.Errorf("document title %q (%v)", title, err)
	}
	tab.shots("new-shipment")

	// Back to English: the same pages at the same widths.
	tab.Submit(`[data-testid=language] button`)
	if lang := tab.Attr("html", "lang"); lang != "en" {
		t.Fatalf("after switching back the page is %q", lang)
	}
	tab.wantNav("Shipping", "Tracking", "Attention")
	tab.shots("new-shipment-en")
	tab.Open("/tracking")
	tab.shots("tracking-en")
	tab.Open("/shipping")
	tab.shots("shipping-en")
}

// The agent switches to Czech on the home page and opens the service orders.
func TestAgentInCzech(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("alena", identity.Agent)
	tab := newTab(t, env.URL)
	tab.SignIn("alena", pw)
	tab.toCzech()
	tab.wantText("h1", "Dobrý den, alena")
	tab.wantText("p.lead", "Co chcete udělat?")
	tab.wantNav("Reklamace", "Pozornost")
	tab.wantText(`.tiles a[href="/returns"]`, "Servisní zakázky a komunikace se zákazníky.")
	tab.wantText(`.who span`, "(Reklamační pracovník)")
	tab.shots("home")

	tab.Submit(`[data-testid=nav] a[href="/returns"]`)
	tab.wantCzech()
	if got := tab.Text(`[data-testid=nav] a[aria-current=page]`); got != "Reklamace" {
		t.Errorf("current navigation entry %q, want Reklamace", got)
	}
	// The list's own heading belongs to the returns pages' translation; here
	// it must only be there.
	if h := tab.Text("h1"); h == "" {
		t.Errorf("the service orders list has no heading")
	}
	tab.shots("returns")
}

var czechDateTime = regexp.MustCompile(`^\d{1,2}\. \d{1,2}\. \d{4} \d{2}:\d{2}$`)

// The manager switches to Czech, reads the connection and users pages, and
// after signing out the sign-in page is Czech too (the choice stays in the
// browser).
func TestManagerInCzech(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("boss", identity.Manager)
	env.AddUser("clara", identity.Clerk)
	tab := newTab(t, env.URL)
	tab.SignIn("boss", pw)
	tab.Open("/connection")
	tab.toCzech()
	if got := tab.Path(); got != "/connection" {
		t.Errorf("the switch went to %q, want back to /connection", got)
	}
	tab.wantNav("Expedice", "Sledování", "Reklamace", "Pozornost", "Přehledy", "Uživatelé", "Spojení")
	tab.wantText("h1", "Spojení se zasílatelskou službou")
	tab.wantText(`[data-testid=checks] thead`, "Rozhraní")
	tab.wantText(`[data-testid=checks] tbody`, "OK")
	tab.wantText(`#carriers`, "Dopravci")
	tab.wantText(`form[action="/connection"] button`, "Ověřit znovu")
	tab.shots("connection")

	tab.Submit(`[data-testid=nav] a[href="/users"]`)
	tab.wantCzech()
	tab.wantText("h1", "Účty zaměstnanců")
	tab.wantText(`[data-testid=users] thead`, "Uživatelské jméno")
	tab.wantText(`#add-user h2`, "Přidat uživatele")
	rows := tab.Texts(`[data-testid=users] tbody tr td:nth-child(4)`)
	if len(rows) == 0 {
		t.Fatalf("no users listed")
	}
	for _, created := range rows {
		if !czechDateTime.MatchString(created) {
			t.Errorf("created %q, want a Czech date and time like 22. 11. 2026 14:05", created)
		}
	}
	tab.shots("users")

	tab.Submit(`[data-testid=users] tbody tr:has(td:first-child) a`)
	tab.wantCzech()
	tab.wantText("h1", "Uživatel ")
	tab.wantText(`[data-testid=audit] thead`, "Kdy")
	tab.wantText(`[data-testid=audit] tbody`, "Přidání uživatele")
	tab.shots("user")

	tab.Submit(`form[action="/logout"] button`)
	if got := tab.Path(); !strings.HasPrefix(got, "/login") {
		t.Fatalf("after sign-out at %q", got)
	}
	tab.wantCzech()
	tab.wantText("h1", "Přihlášení do shipdesku")
	tab.wantText(`label[for=username]`, "Uživatelské jméno")
	tab.wantText(`label[for=password]`, "Heslo")
	tab.wantText(`form[action="/login"] button[type=submit]`, "Přihlásit")
	tab.wantText(`#flashes`, "Jste odhlášeni.")
	tab.shots("login")
}
