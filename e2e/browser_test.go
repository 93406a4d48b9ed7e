package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// browser is the one chromium the package's tests share; each test gets its own
// tab and cookie-free context.
var browser context.Context

func TestMain(m *testing.M) {
	flag.Parse()
	// Tabs of one browser run side by side, but no more than two: each
	// draws pages, and a starved tab misses its focus and its timers.
	if n, err := strconv.Atoi(flag.Lookup("test.parallel").Value.String()); err == nil && n > 2 {
		_ = flag.Set("test.parallel", "2")
	}
	code, err := withBrowser(m.Run)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	os.Exit(code)
}

// withBrowser starts chromium with a fresh profile, runs the tests and stops it.
func withBrowser(run func() int) (int, error) {
	// Debian's headless build of chromium: the same engine without the
	// desktop browser's window and tab strip, which cost the suite a third
	// of its browser time on two cores.
	path, err := exec.LookPath("chromium-headless-shell")
	if err != nil {
		return 0, fmt.Errorf("chromium-headless-shell is not installed (make test installs it): %w", err)
	}
	profile, err := os.MkdirTemp("", "shipdesk-e2e-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(profile)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.UserDataDir(profile),
		chromedp.NoSandbox, // CI runs as root, where chromium's sandbox cannot start
		chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-component-update", true),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(alloc)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil { // start the browser without a deadline
		return 0, fmt.Errorf("start chromium: %w", err)
	}
	browser = ctx
	return run(), nil
}

// Tab is one browser tab against a running dashboard.
type Tab struct {
	t    *testing.T
	tab  context.Context // the tab's life, without a deadline
	ctx  context.Context // the steps' context: the test binary's deadline, less a margin
	base string
}

// newTab opens a tab with its own cookies; on failure it leaves a screenshot in
// var/screenshots/<test>.png. A long journey on a loaded machine has no time
// limit of its own; a stuck step fails a minute before the test binary's
// deadline, with its name and a screenshot, instead of taking the package down.
func newTab(t *testing.T, base string) *Tab {
	t.Helper()
	tctx, cancelTab := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	if err := chromedp.Do(tctx); err != nil { // open the tab on a context without a deadline
		cancelTab()
		t.Fatalf("open a tab: %v", err)
	}
	ctx, cancel := tctx, context.CancelFunc(func() {})
	if deadline, ok := t.Deadline(); ok {
		ctx, cancel = context.WithDeadline(tctx, deadline.Add(-time.Minute))
	}
	tab := &Tab{t: t, tab: tctx, ctx: ctx, base: base}
	t.Cleanup(func() {
		if t.Failed() {
			tab.screenshot("failed")
		}
		cancel()
		cancelTab()
	})
	return tab
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// screenshot saves the whole page under var/screenshots. With
// SHIPDESK_SCREENSHOTS=failures it saves only a failed test's page: make
// test's rerun of the clock journeys keeps the first pass's pictures.
func (b *Tab) screenshot(suffix string) string {
	if os.Getenv("SHIPDESK_SCREENSHOTS") == "failures" && !b.t.Failed() {
		return ""
	}
	dir := filepath.Join("..", "var", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Logf("screenshot: %v", err)
		return ""
	}
	ctx, cancel := context.WithTimeout(b.tab, 30*time.Second) // also after the steps' deadline
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Logf("screenshot: %v", err)
		return ""
	}
	name := filepath.Join(dir, unsafeName.ReplaceAllString(b.t.Name()+"-"+suffix, "_")+".png")
	if err := os.WriteFile(name, png, 0o644); err != nil {
		b.t.Logf("screenshot: %v", err)
		return ""
	}
	b.t.Logf("screenshot: %s", name)
	return name
}

// do runs steps and fails the test with what was being done.
func (b *Tab) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// Open loads a path of the dashboard and waits for its body.
func (b *Tab) Open(path string) {
	b.t.Helper()
	b.do("open "+path, chromedp.Navigate(b.base+path), chromedp.WaitReady("body"))
}

// Submit clicks a submit button and waits for the page the form leads to.
func (b *Tab) Submit(button string) {
	b.t.Helper()
	b.untilLoad("submit with "+button, chromedp.Click(button))
}

// loadWait bounds the wait for the page a click or a key leads to. It is far
// beyond any page of ours on a loaded machine: it turns a click that went
// nowhere into a failure with a screenshot in minutes, instead of a wait
// until the test binary's deadline.
const loadWait = 3 * time.Minute

// untilLoad runs action and waits for the page load it leads to.
func (b *Tab) untilLoad(what string, action chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, loadWait)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.WaitEvent(page.LoadEventFired, nil, action)); err != nil {
		b.t.Fatalf("%s: %v (the page is %s)", what, err, b.Path())
	}
}

// Fill types into a field.
func (b *Tab) Fill(sel, value string) {
	b.t.Helper()
	clear := fmt.Sprintf(`document.querySelector(%q).value = ""`, sel)
	b.do("fill "+sel, chromedp.WaitVisible(sel), chromedp.Evaluate[chromedp.Void](clear), chromedp.SendKeys(sel, value))
}

// Text is the visible text of the first match.
//
// It finds the element and reads it in one step in the page, waiting until
// it is there: a live part that htmx swaps between a query and a read
// (chromedp.Text's two calls) would leave the read a node that is gone.
func (b *Tab) Text(sel string) string {
	b.t.Helper()
	// What chromedp.Text reads: a shown element's innerText, else "".
	js := fmt.Sprintf(`(() => { const e = document.querySelector(%q); if (!e) return null;
		return {text: e.offsetWidth || e.offsetHeight || e.getClientRects().length ? e.innerText : ""}; })()`, sel)
	got, err := chromedp.Run(b.ctx, chromedp.Poll[struct{ Text string }](js, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(got.Text)
}

// Texts is the text of every match, in page order.
func (b *Tab) Texts(sel string) []string {
	b.t.Helper()
	js := fmt.Sprintf(`Array.from(document.querySelectorAll(%q)).map(e => e.textContent.trim())`, sel)
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](js))
	if err != nil {
		b.t.Fatalf("texts of %s: %v", sel, err)
	}
	return out
}

// Path is the current location's path.
func (b *Tab) Path() string {
	b.t.Helper()
	loc, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`location.pathname + location.search`))
	if err != nil {
		b.t.Fatalf("location: %v", err)
	}
	return loc
}

// Click clicks an element without waiting for a page load (htmx swaps).
func (b *Tab) Click(sel string) {
	b.t.Helper()
	b.do("click "+sel, chromedp.WaitVisible(sel), chromedp.Click(sel))
}

// WaitText waits until the first match of sel contains want.
func (b *Tab) WaitText(sel, want string) {
	b.t.Helper()
	js := fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && e.textContent.includes(%q); })()`, sel, want)
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, err := chromedp.Run(b.ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(time.Until(deadline))))
		if err == nil {
			return
		}
		// A plain form post (before htmx took over new content) loads a new
		// page: the poll ends with it (or with the old page's script context
		// gone), so poll again on the new page.
		if (strings.Contains(err.Error(), "navigated") || strings.Contains(err.Error(), "Cannot find context")) && time.Now().Before(deadline) {
			_, _ = chromedp.Run(b.ctx, chromedp.WaitReady("body"))
			continue
		}
		b.t.Fatalf("wait for %q in %s: %v (it says %q)", want, sel, err, b.Texts(sel))
	}
}

// Type types into a field key by key, as a person does (htmx sees the input).
func (b *Tab) Type(sel, value string) {
	b.t.Helper()
	b.do("type into "+sel, chromedp.WaitVisible(sel), chromedp.Click(sel), chromedp.SendKeys(sel, value))
}

// Fetch downloads a path with the tab's cookies and returns its content type and
// first bytes.
func (b *Tab) Fetch(path string) (string, string) {
	b.t.Helper()
	js := fmt.Sprintf(`fetch(%q).then(async r => [r.headers.get("content-type"), (await r.text()).slice(0, 8)])`, path)
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](js, chromedp.EvalAwaitPromise))
	if err != nil || len(out) != 2 {
		b.t.Fatalf("fetch %s: %v", path, err)
	}
	return out[0], out[1]
}

// Attr is an attribute of the first match.
func (b *Tab) Attr(sel, name string) string {
	b.t.Helper()
	js := fmt.Sprintf(`(document.querySelector(%q) || {getAttribute: () => ""}).getAttribute(%q) || ""`, sel, name)
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		b.t.Fatalf("attribute %s of %s: %v", name, sel, err)
	}
	return out
}

// chromedpSelect picks an option of a select by value, as a person would.
func chromedpSelect(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.SetValue(sel, value)
}

// SignIn signs in through the login form.
func (b *Tab) SignIn(username, password string) {
	b.t.Helper()
	b.Open("/login")
	b.Fill("#username", username)
	b.Fill("#password", password)
	b.Submit(`form[action="/login"] button[type=submit]`)
}

// Enter presses Enter in a field and waits for the page the form leads to.
func (b *Tab) Enter(sel string) {
	b.t.Helper()
	b.untilLoad("enter in "+sel, chromedp.SendKeys(sel, kb.Enter))
}

// ChooseOffer clicks "Choose" on the first selectable offer of a carrier group.
func (b *Tab) ChooseOffer(group string) {
	b.t.Helper()
	js := fmt.Sprintf(`(() => {
		const row = [...document.querySelectorAll('[data-testid=offers] tbody tr')]
			.find(r => r.cells[0].textContent.trim().startsWith(%q) && r.querySelector('button[name=choose]') && r.querySelector('[data-testid=offer-delivery-point]').textContent.trim() === 'no');
		if (!row) return false;
		row.querySelector('button[name=choose]').click();
		return true;
	})()`, group)
	ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](js))
	if err != nil || !ok {
		b.t.Fatalf("choose a %s offer: %v (found %v)", group, err, ok)
	}
}

// WaitCount waits until sel matches exactly n elements (htmx swaps).
func (b *Tab) WaitCount(sel string, n int) {
	b.t.Helper()
	js := fmt.Sprintf(`document.querySelectorAll(%q).length === %d`, sel, n)
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		b.t.Fatalf("wait for %d of %s: %v (found %d)", n, sel, err, len(b.Texts(sel)))
	}
}
