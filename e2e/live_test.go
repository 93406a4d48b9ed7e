package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/storage"
)

// waitChange waits, without any click, until the text of sel is no longer
// was (the page's polling brought it anew), and returns it.
func (b *Tab) waitChange(sel, was string) string {
	b.t.Helper()
	js := fmt.Sprintf(`(() => { const e = document.querySelector(%q); return !!e && e.textContent.replace(/\s+/g, ' ').trim() !== %q; })()`, sel, was)
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(200*time.Millisecond), chromedp.WithPollingTimeout(40*time.Second))); err != nil {
		b.t.Fatalf("%s still says %q: %v", sel, was, err)
	}
	return b.words(sel)
}

// words is the text of sel with its spaces collapsed.
func (b *Tab) words(sel string) string {
	b.t.Helper()
	return strings.Join(strings.Fields(b.Text(sel)), " ")
}

// A shipment's page and its rows in the lists bring its state anew while it
// moves, without any click, and say it in the same words; so does a
// commission's page and its row. The pollers run in the background, as in
// serve; the pages only read what they stored.
func TestPagesShowTheServiceNowWithoutAClick(t *testing.T) {
	t.Parallel()
	env := apptest.StartOptions(t, apptest.Options{Pollers: 300 * time.Millisecond})
	_, clerk := deskTabOn(t, env)
	clerk.Open("/shipping/new")
	clerk.fillRecipient()
	clerk.Click(`[data-testid=compare]`)
	clerk.WaitText(`[data-testid=offers]`, "UPS")
	clerk.ChooseOffer("UPS")
	clerk.WaitText(`[data-testid=chosen]`, "UPS")
	orderChosen(t, clerk)
	page := clerk.Path()
	state := clerk.words(`[data-testid=shipment-state] [data-testid=state-words]`)
	if age := clerk.words(`[data-testid=shipment-state] [data-testid=age]`); !strings.Contains(age, "checked") {
		t.Errorf("the page does not say how old its state is: %q", age)
	}
	list := newTab(t, env.URL)
	list.SignIn("clara2", env.AddUser("clara2", identity.Clerk))
	list.Open("/shipping")
	row := fmt.Sprintf(`[data-testid=shipments] tr:has(a[href=%q]) [data-testid=state-words]`, page)
	if got := list.words(row); got != state {
		t.Errorf("the list row says %q, the page %q", got, state)
	}

	clerk.WaitCount(`[data-testid=storno]`, 1) // just ordered: the service would still cancel it
	env.Sandbox.Advance(3 * time.Hour)         // the label is made, the courier is on the way
	moved := clerk.waitChange(`[data-testid=shipment-state] [data-testid=state-words]`, state)
	// Waiting for the courier, the service no longer cancels it: the page
	// takes the offer away by itself.
	clerk.WaitCount(`[data-testid=storno]`, 0)
	// Its label was never printed: it stays printable, as in the print queue.
	if ctype, start := clerk.Fetch(clerk.Attr(`[data-testid=print-label]`, "href")); !strings.HasPrefix(ctype, "application/pdf") || !strings.HasPrefix(start, "%PDF-") {
		t.Errorf("the unprinted label after the jump: %s %q", ctype, start)
	}
	clerk.shots("moved")
	rowNow := list.waitChange(row, state)
	for rowNow != clerk.words(`[data-testid=shipment-state] [data-testid=state-words]`) {
		// Each page asks on its own beat: wait for the later one.
		rowNow = list.waitChange(row, rowNow)
	}
	// The desk's count of labels to print came along with the list.
	list.WaitText(`[data-testid=print-queue-link]`, "(1)")
	list.look("list-moved")
	t.Logf("the shipment went from %q to %q", state, moved)
	list.Open("/shipping/print")
	list.WaitCount(fmt.Sprintf(`[data-testid=shipments] a[href=%q]`, page), 1)
	list.Open("/tracking")
	trk := fmt.Sprintf(`[data-testid=shipment-list] tr:has(a[href=%q]) [data-testid=state-words]`, page)
	if got, want := list.words(trk), clerk.words(`[data-testid=shipment-state] [data-testid=state-words]`); got != want {
		t.Errorf("the tracking list says %q, the page %q", got, want)
	}

	// A two-way repair waits for the customer's goods; the service has them
	// after their transit, and the page says so by itself.
	ctx := context.Background()
	if err := env.App.Bench.SeedDemo(ctx); err != nil {
		t.Fatal(err)
	}
	repair := twoWayCommission(t, env)
	agent := newTab(t, env.URL)
	agent.SignIn("alice", env.AddUser("alice", identity.Agent))
	agent.Open(fmt.Sprintf("/returns/commissions/%d", repair))
	agent.WaitText(`[data-testid=commission-status]`, "waiting for the goods")
	was := agent.words(`[data-testid=commission-status]`)
	env.Sandbox.Advance(7 * 24 * time.Hour)
	now := agent.waitChange(`[data-testid=commission-status]`, was)
	agent.look("commission-moved")
	agent.Open("/returns")
	crow := fmt.Sprintf(`[data-testid=commission]:has(a[href="/returns/commissions/%d"]) [data-testid=state-words]`, repair)
	if got := agent.words(crow); got != now {
		t.Errorf("the commissions list says %q, the page %q", got, now)
	}
}

// twoWayCommission is the demo's two-way repair.
func twoWayCommission(t *testing.T, env *apptest.Env) int64 {
	t.Helper()
	list, _, err := env.App.DB.ListCommissions(context.Background(), storage.CommissionFilter{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range list {
		if c.TwoWay {
			return c.ID
		}
	}
	t.Fatal("no two-way commission")
	return 0
}
