package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"shipdesk/sandbox/sandboxtest"
)

// orderUPS orders a parcel to Plzeň with UPS through the pages.
func orderUPS(t *testing.T, tab *Tab) {
	t.Helper()
	tab.Open("/shipping/new")
	tab.fillRecipient()
	tab.Click(`[data-testid=compare]`)
	tab.WaitText(`[data-testid=offers]`, "UPS")
	tab.ChooseOffer("UPS")
	tab.WaitText(`[data-testid=chosen]`, "UPS")
	orderChosen(t, tab)
}

// item is the selector of the queue's row of a kind.
func item(kind string) string { return `tr[data-testid=attention-item][data-kind=` + kind + `]` }

// The clerk's queue holds a failed label, a parcel stuck without tracking
// news (the sandbox's clock moved two weeks on) and a parcel returning to
// the sender; each shows on the home page's counts and in the queue, is
// taken, noted and dismissed with a reason, and leaves the open list.
func TestClerkWorksTheAttentionQueue(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	ctx := context.Background()
	// The sandbox's first UPS parcel goes back to the sender; its label is
	// printed, so the courier takes it.
	orderUPS(t, tab)
	var returning string
	if err := env.App.DB.SQL().QueryRow(`SELECT tracking_number FROM shipments ORDER BY id LIMIT 1`).Scan(&returning); err != nil {
		t.Fatal(err)
	}
	env.Sandbox.LabelsFetched(returning)
	// The next gets no label from the carrier.
	env.Sandbox.Control("POST", "/sandbox/carriers/"+sandboxtest.ExpressCarrier+"/behaviour", map[string]any{"fail_labels": true})
	orderUPS(t, tab)
	env.Sandbox.Control("POST", "/sandbox/carriers/"+sandboxtest.ExpressCarrier+"/behaviour", map[string]any{"fail_labels": false})
	// The last waits for its label at the carrier: no news after that.
	orderUPS(t, tab)
	env.Sandbox.Advance(14 * 24 * time.Hour)
	if _, err := env.App.Jobs.Labels(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := env.App.Jobs.Tracking(ctx); err != nil {
		t.Fatal(err)
	}

	tab.Open("/")
	for _, want := range []string{"1 label failed", "1 parcel without tracking news", "1 parcel returning to the sender"} {
		tab.wantText(`[data-testid=attention]`, want)
	}
	tab.shots("home")
	tab.Submit(`[data-testid=attention] a[data-kind=stuck]`)
	if got := tab.Path(); got != "/attention?kind=stuck" {
		t.Errorf("the count leads to %s", got)
	}
	tab.wantText(item("stuck")+` [data-testid=why]`, "No new tracking event for")
	tab.wantText(item("stuck")+` [data-testid=why]`, "limit 3")
	tab.Open("/attention")
	if rows := tab.Texts(`[data-testid=attention-item]`); len(rows) != 3 {
		t.Fatalf("the queue: %q", rows)
	}
	tab.wantText(item("label_failed")+` [data-testid=why]`, "got no label")
	tab.wantText(item("returning")+` [data-testid=why]`, "going back to the sender")
	tab.shots("queue")
	// The same in Czech, then back to English for the work.
	tab.toCzech()
	tab.wantText("h1", "Vyžaduje pozornost")
	tab.wantText(item("stuck")+` [data-testid=why]`, "Bez nové události")
	tab.shots("queue-cs")
	tab.Open("/")
	tab.wantText(`[data-testid=attention]`, "1 zásilka bez zpráv ze sledování")
	tab.shots("home-cs")
	tab.Submit(`[data-testid=language] button`)
	tab.Open("/attention")

	for i, kind := range []string{"label_failed", "stuck", "returning"} {
		tab.Submit(item(kind) + ` [data-testid=take]`)
		tab.wantText(`.flash`, "The item is taken.")
		tab.wantText(item(kind)+` [data-testid=taken]`, "clara")
		tab.Click(item(kind) + ` [data-testid=note-open]`)
		tab.Fill(item(kind)+` textarea[name=text]`, "Checked with the carrier, "+kind)
		tab.Submit(item(kind) + ` [data-testid=note-save]`)
		tab.wantText(item(kind)+` [data-testid=note]`, "Checked with the carrier, "+kind)
		if i == 0 {
			tab.look("taken-and-noted")
		}
		tab.Click(item(kind) + ` [data-testid=dismiss-open]`)
		tab.do("choose a reason", chromedpSelect(item(kind)+` select[name=reason]`, "carrier"))
		tab.Fill(item(kind)+` textarea[name=reason_text]`, "Support ticket 42")
		tab.Submit(item(kind) + ` [data-testid=dismiss-save]`)
		if n := len(tab.Texts(item(kind))); n != 0 {
			t.Errorf("%s: still open after dismissing", kind)
		}
	}
	tab.wantText(`[data-testid=attention-empty]`, "Nothing here needs attention.")
	tab.Open("/attention?show=dismissed")
	if rows := tab.Texts(`[data-testid=attention-item]`); len(rows) != 3 || !strings.Contains(rows[0], "The carrier is dealing with it") {
		t.Errorf("dismissed: %q", rows)
	}
	tab.look("dismissed")

	// Home counts only the day's label to print now.
	tab.Open("/")
	for _, kind := range []string{"label_failed", "stuck", "returning"} {
		if got := tab.Texts(`[data-testid=attention] a[data-kind=` + kind + `]`); len(got) != 0 {
			t.Errorf("home still counts %s: %q", kind, got)
		}
	}
}
