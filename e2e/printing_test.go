package e2e

import (
	"context"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/desk"
	"shipdesk/printout"
)

// orderOf orders a shipment of a carrier group through the new-shipment form.
func (b *Tab) orderOf(group, town string) {
	b.t.Helper()
	b.Open("/shipping/new")
	b.fillRecipient()
	b.Fill("#to_city", town)
	b.Click(`[data-testid=compare]`)
	b.WaitText(`[data-testid=offers]`, group)
	b.ChooseOffer(group)
	b.WaitText(`[data-testid=chosen]`, group)
	orderChosen(b.t, b)
}

// labelsMade moves the sandbox past the carriers' export and runs the labels
// job, as the scheduler would.
func labelsMade(t *testing.T, env *apptest.Env) {
	t.Helper()
	env.Sandbox.Advance(10 * time.Minute) // exported, before the courier picks it up
	if _, err := env.App.Jobs.Labels(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// js evaluates an expression in the tab.
func js[T any](b *Tab, expr string) T {
	b.t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return out
}

// afterRefresh waits until the live part sel has asked for itself again
// and its answer is in place (nothing changed: a 204, left alone; else
// swapped and settled), leaving what follows its whole interval to the next.
func (b *Tab) afterRefresh(sel string) {
	b.t.Helper()
	expr := `new Promise(done => {
		const el = document.querySelector(` + strconv.Quote(sel) + `);
		el.addEventListener("htmx:afterRequest", e => { if (e.detail.xhr.status === 204) done(true); });
		el.addEventListener("htmx:afterSettle", () => done(true));
	})`
	if _, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr, chromedp.EvalAwaitPromise)); err != nil {
		b.t.Fatalf("wait for %s to refresh: %v", sel, err)
	}
}

// ticked is the ticks of the queue's rows, in order.
func (b *Tab) ticked() []bool {
	b.t.Helper()
	return js[[]bool](b, `[...document.querySelectorAll('#print-live input[name=ids]')].map(e => e.checked)`)
}

// The print queue counts the labels being made and shows each as it
// arrives, without a reload; select all and none work from the keyboard and
// a tick taken off stays off while the list refreshes.
func TestPrintQueueShowsLabelsArrivingByItself(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	for _, town := range []string{"Plzeň", "Brno", "Ostrava"} {
		tab.orderOf("UPS", town)
	}
	tab.Open("/shipping/print")
	tab.WaitText(`[data-testid=being-made-count]`, "3 labels are being made")
	if n := len(tab.ticked()); n != 0 {
		t.Fatalf("%d labels shown before they are made", n)
	}
	// A mark that a reload would wipe out.
	js[bool](tab, `(window.stillThisPage = true)`)
	labelsMade(t, env)
	tab.WaitCount(`[data-testid=shipments] tbody tr`, 3)
	if !js[bool](tab, `window.stillThisPage === true`) {
		t.Error("the page was reloaded: the labels should come by themselves")
	}
	if n := js[int](tab, `document.querySelectorAll('[data-testid=being-made]').length`); n != 0 {
		t.Error("labels still shown as being made")
	}
	// Select all or none: the header's checkbox, by keyboard. Right after the
	// list refreshed, so the next refresh is seconds away: a key pressed while
	// the list is being swapped lands on no checkbox (on a loaded machine the
	// test met one).
	tab.afterRefresh(`#print-live`)
	tab.do("focus select all", chromedp.Focus(`#pick-all`))
	tab.do("space", chromedp.KeyEvent(" "))
	if got := tab.ticked(); got[0] || got[1] || got[2] {
		t.Errorf("select none: %v", got)
	}
	tab.do("space again", chromedp.KeyEvent(" "))
	if got := tab.ticked(); !got[0] || !got[1] || !got[2] {
		t.Errorf("select all: %v", got)
	}
	// One tick taken off: the header shows "some"; it stays off while one
	// shipment leaves the list (printed at another desk) and the list refreshes.
	tab.Click(`#print-live tbody tr:nth-child(2) input[name=ids]`)
	if !js[bool](tab, `document.getElementById('pick-all').indeterminate`) {
		t.Error("the header's checkbox does not show a partial selection")
	}
	ids := js[[]string](tab, `[...document.querySelectorAll('#print-live input[name=ids]')].map(e => e.value)`)
	id, _ := strconv.ParseInt(ids[2], 10, 64)
	if _, err := env.App.Desk.PrintLabels(context.Background(), io.Discard, desk.Print{IDs: []int64{id}, Format: printout.A6, Start: 1}, 0); err != nil {
		t.Fatal(err)
	}
	tab.WaitCount(`[data-testid=shipments] tbody tr`, 2)
	if got := tab.ticked(); len(got) != 2 || !got[0] || got[1] {
		t.Errorf("after the list refreshed the ticks are %v, want [true false]", got)
	}
	if !js[bool](tab, `window.stillThisPage === true`) {
		t.Error("the page was reloaded")
	}
	tab.look("print-queue-live")
}

// The clerk prints on A4 from the third position while a new label is being
// made, and the page offers the last print again: at desktop, tablet and
// phone width, in English and Czech.
func TestPrintQueueInBothLanguages(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	tab.orderOf("UPS", "Plzeň")
	tab.orderOf("UPS", "Brno")
	labelsMade(t, env)
	tab.orderOf("UPS", "Žďár nad Sázavou")
	tab.Open("/shipping/print")
	tab.WaitText(`[data-testid=being-made-count]`, "1 label is being made")
	tab.WaitCount(`[data-testid=shipments] tbody tr`, 2)
	// A4 from position 3, only the first label: the PDF opens in another tab.
	tab.Click(`input[name=format][value=A4]`)
	tab.Click(`input[name=start][value="3"]`)
	tab.Click(`#print-live tbody tr:nth-child(2) input[name=ids]`)
	// The form is sent as the print button sends it, but fetched here: the
	// button's new tab with the PDF is TestClerkOrdersCODShipmentToPoint's.
	sent, err := chromedp.Run(tab.ctx, chromedp.Evaluate[string](`(async () => {
		const form = document.getElementById('print-form');
		const r = await fetch(form.action, {method: 'POST', body: new URLSearchParams(new FormData(form))});
		return r.headers.get('content-type') + ' ' + (await r.text()).slice(0, 5);
	})()`, chromedp.EvalAwaitPromise))
	if err != nil || sent != "application/pdf %PDF-" {
		t.Fatalf("print: %q %v", sent, err)
	}
	tab.Open("/shipping/print")
	tab.WaitText(`[data-testid=batches]`, "A4 from position 3")
	tab.WaitCount(`[data-testid=shipments] tbody tr`, 1)
	tab.shots("print-queue")
	tab.toCzech()
	tab.wantText(`[data-testid=being-made-count]`, "1 štítek se ještě připravuje")
	tab.wantText(`[data-testid=batches]`, "A4 od pozice 3")
	tab.shots("print-queue-cs")
}

// The hand-over protocols are one per carrier, each with its count and the
// signature lines: at desktop, tablet and phone width, in English and Czech.
func TestProtocolsInBothLanguages(t *testing.T) {
	t.Parallel()
	_, tab := deskTab(t)
	tab.orderOf("UPS", "Plzeň")
	tab.orderOf("UPS", "Žďár nad Sázavou")
	tab.orderOf("PPL", "Ostrava")
	tab.Open("/shipping/manifest")
	tab.WaitCount(`[data-testid=protocol]`, 2)
	tab.wantText(`[data-carrier=UPS] [data-testid=protocol-count]`, "2 parcels, 2 packages")
	tab.wantText(`[data-carrier=PPL] [data-testid=protocol-count]`, "1 parcel, 1 package")
	if ctype, start := tab.Fetch(tab.Attr(`[data-testid=protocols-pdf]`, "href")); ctype != "application/pdf" || !strings.HasPrefix(start, "%PDF-") {
		t.Errorf("protocols PDF: %s %q", ctype, start)
	}
	tab.shots("protocols")
	tab.toCzech()
	tab.wantText(`[data-carrier=UPS] [data-testid=protocol-count]`, "2 zásilky, 2 balíky")
	tab.wantText(`[data-carrier=UPS] [data-testid=sign-courier]`, "Převzal (kurýr)")
	tab.shots("protocols-cs")
}

// postForm sends a form of the page as its button would, and answers the
// content type and the first bytes of what came back.
func (b *Tab) postForm(sel string) string {
	b.t.Helper()
	sent, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`(async () => {
		const form = document.querySelector(`+strconv.Quote(sel)+`);
		const r = await fetch(form.action, {method: 'POST', body: new URLSearchParams(new FormData(form))});
		return r.headers.get('content-type') + ' ' + (await r.text()).slice(0, 5);
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("post %s: %v", sel, err)
	}
	return sent
}

// The paper comes before the print button; after printing on A6 the clerk
// prints the same labels again on A4 from the last print, without the
// reprint rows, and they stay printed once.
func TestLastPrintAgainOnTheOtherPaper(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	tab.orderOf("UPS", "Plzeň")
	tab.orderOf("UPS", "Brno")
	labelsMade(t, env)
	tab.Open("/shipping/print")
	tab.WaitCount(`[data-testid=shipments] tbody tr`, 2)
	if !js[bool](tab, `!!(document.querySelector('[data-testid=paper]').compareDocumentPosition(document.getElementById('print-selected')) & Node.DOCUMENT_POSITION_FOLLOWING)`) {
		t.Error("the paper is chosen after the print button")
	}
	if n := js[int](tab, `document.querySelectorAll('[data-testid=last-print]').length`); n != 0 {
		t.Error("a last print offered before anything was printed")
	}
	tab.Click(`input[name=format][value=A6]`)
	if got := tab.postForm(`#print-form`); got != "application/pdf %PDF-" {
		t.Fatalf("print: %q", got)
	}
	var firstPrinted time.Time
	if err := env.App.DB.SQL().QueryRow(`SELECT max(printed_at) FROM shipments`).Scan(&firstPrinted); err != nil {
		t.Fatal(err)
	}
	tab.Open("/shipping/print")
	tab.WaitText(`[data-testid=last-print-what]`, "2 labels on A6")
	tab.wantText(`[data-testid=again-A4]`, "Print again on A4")
	tab.do("position 2", chromedpSelect(`#again-start-A4`, "2"))
	if got := tab.postForm(`[data-testid=last-print] form:has([data-testid=again-A4])`); got != "application/pdf %PDF-" {
		t.Fatalf("again on A4: %q", got)
	}
	tab.Open("/shipping/print")
	tab.WaitText(`[data-testid=last-print-what]`, "2 labels on A4 from position 2")
	tab.wantText(`[data-testid=batches] tbody tr:first-child`, "again, of no. 1")
	var printed, batches int
	var lastPrinted time.Time
	if err := env.App.DB.SQL().QueryRow(`SELECT count(*) FILTER (WHERE printed_at IS NOT NULL), max(printed_at), (SELECT count(*) FROM print_batches) FROM shipments`).
		Scan(&printed, &lastPrinted, &batches); err != nil {
		t.Fatal(err)
	}
	if printed != 2 || batches != 2 || !lastPrinted.Equal(firstPrinted) {
		t.Errorf("after printing again: %d printed, %d prints, printed at %s (first %s)", printed, batches, lastPrinted, firstPrinted)
	}
	if n := js[int](tab, `document.querySelectorAll('[data-testid=shipments] tbody tr').length`); n != 0 {
		t.Errorf("%d labels back in the queue after printing again", n)
	}
	tab.shots("last-print-en")
	tab.toCzech()
	tab.wantText(`[data-testid=again-A6]`, "Vytisknout znovu na A6")
	tab.wantText(`[data-testid=last-print-what]`, "2 štítky na A4 od pozice 2")
	tab.shots("last-print-cs")
}
