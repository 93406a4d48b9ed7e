package e2e

import (
	"context"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
)

// space ticks or unticks a checkbox from the keyboard: the focus on it, then Space.
func (b *Tab) space(sel string) {
	b.t.Helper()
	b.do("space on "+sel, chromedp.Focus(sel), chromedp.KeyEvent(" "))
}

// listTicks is the ticks of the shipments list's rows, in order.
func (b *Tab) listTicks() []bool {
	b.t.Helper()
	return js[[]bool](b, `[...document.querySelectorAll('#selection tbody input[name=ids]')].map(e => e.checked)`)
}

// The clerk ticks shipments of the list by keyboard, cancels some after the
// confirm step (Cancel keeps them) and prints the labels of others: the
// list with its selection in English and Czech.
func TestListSelectionByKeyboard(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	for _, town := range []string{"Plzeň", "Brno", "Ostrava"} {
		tab.orderOf("UPS", town)
	}
	tab.Open("/tracking")
	tab.WaitCount(`[data-testid=shipment-list] tbody tr`, 3)
	row := func(n int) string { return `#selection tbody tr:nth-child(` + strconv.Itoa(n) + `) input[name=ids]` }
	tab.space(row(1))
	tab.space(row(2))
	if got := tab.listTicks(); !got[0] || !got[1] || got[2] {
		t.Fatalf("ticks after Space on two rows: %v", got)
	}
	if !js[bool](tab, `document.getElementById('sel-all').indeterminate`) {
		t.Error("the header's checkbox does not show a partial selection")
	}
	// Select all on the page and none, by keyboard.
	tab.space(`#sel-all`)
	if got := tab.listTicks(); !got[0] || !got[1] || !got[2] {
		t.Errorf("select all: %v", got)
	}
	tab.space(`#sel-all`)
	if got := tab.listTicks(); got[0] || got[1] || got[2] {
		t.Errorf("select none: %v", got)
	}

	// Storno of two: Cancel on the confirm step keeps them.
	tab.space(row(1))
	tab.space(row(2))
	ids := js[[]string](tab, `[...document.querySelectorAll('#selection tbody input[name=ids]:checked')].map(e => e.value)`)
	tab.Submit(`[data-testid=bulk-storno]`)
	tab.WaitText(`[data-testid=confirm] h1`, "Cancel 2 shipments?")
	tab.look("selection-storno-confirm")
	tab.Submit(`[data-testid=confirm-cancel]`)
	tab.WaitCount(`[data-testid=shipment-list] tbody tr`, 3)
	ctx := context.Background()
	cancelled := func(id string) bool {
		n, _ := strconv.ParseInt(id, 10, 64)
		s, err := env.App.DB.ShipmentByID(ctx, n)
		if err != nil {
			t.Fatal(err)
		}
		return s.CancelledAt != nil
	}
	for _, id := range ids {
		if cancelled(id) {
			t.Fatalf("Cancel on the confirm step cancelled shipment %s", id)
		}
	}
	// One, confirmed.
	tab.space(row(1))
	tab.Submit(`[data-testid=bulk-storno]`)
	tab.WaitText(`[data-testid=confirm] h1`, "Cancel 1 shipment?")
	tab.Submit(`[data-testid=confirm-yes]`)
	tab.WaitText(`[data-testid=bulk-lead]`, "1 shipment cancelled.")
	if !cancelled(ids[0]) || cancelled(ids[1]) {
		t.Errorf("after the storno of %s: %v %v", ids[0], cancelled(ids[0]), cancelled(ids[1]))
	}
	tab.look("selection-storno-done")

	// Print labels of the other two: the step lists them, and its form gives one PDF.
	labelsMade(t, env)
	tab.Submit(`[data-testid=back-to-list]`)
	tab.WaitCount(`[data-testid=shipment-list] tbody tr`, 3)
	tab.space(row(2))
	tab.space(row(3))
	tab.shots("list-selection")
	tab.Submit(`[data-testid=bulk-labels]`)
	tab.WaitText(`[data-testid=bulk-print-count]`, "2 labels to print")
	sent, err := chromedp.Run(tab.ctx, chromedp.Evaluate[string](`(async () => {
		const form = document.querySelector('[data-testid=bulk-print]');
		const r = await fetch(form.action, {method: 'POST', body: new URLSearchParams(new FormData(form))});
		return r.headers.get('content-type') + ' ' + (await r.text()).slice(0, 5);
	})()`, chromedp.EvalAwaitPromise))
	if err != nil || sent != "application/pdf %PDF-" {
		t.Fatalf("print: %q %v", sent, err)
	}
	tab.look("selection-print")
	// Its button opens the PDF in another tab and leaves this one as it was,
	// ready to print again.
	tab.Click(`[data-testid=bulk-print-button]`)
	if state := tab.settledState(`[document.querySelector('[data-testid=bulk-print-button]').disabled, document.querySelector('[data-testid=bulk-print]').hasAttribute('data-sent')]`); state != "false,false" {
		t.Errorf("after printing in another tab, this tab's form is spent (disabled, sent): %s", state)
	}

	// In Czech: the list with a selection.
	tab.Submit(`[data-testid=back-to-list]`)
	tab.toCzech()
	tab.wantText(`[data-testid=selection-bar] legend`, "S vybranými zásilkami")
	tab.space(row(2))
	tab.space(row(3))
	tab.shots("list-selection-cs")
}

// settledState is js's value, as text, once the page's immediate timers (a
// submit handler's, say) have run.
func (b *Tab) settledState(js string) string {
	b.t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`new Promise(r => setTimeout(() => r(String(`+js+`)), 50))`, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return out
}
