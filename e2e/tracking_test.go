package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"shipdesk/identity"
)

// The manager filters the shipments list, exports it as CSV and opens a
// shipment's timeline.
func TestManagerFiltersExportsAndOpensTimeline(t *testing.T) {
	t.Parallel()
	env, clerk := deskTab(t)
	// Two shipments ordered by a clerk, moved on by the sandbox and the poller.
	for _, town := range []string{"Plzeň", "Brno"} {
		clerk.Open("/shipping/new")
		clerk.fillRecipient()
		clerk.Fill("#to_city", town)
		clerk.Click(`[data-testid=compare]`)
		clerk.WaitText(`[data-testid=offers]`, "UPS")
		clerk.ChooseOffer("UPS")
		clerk.WaitText(`[data-testid=chosen]`, "UPS")
		orderChosen(t, clerk)
	}
	env.Sandbox.Advance(3 * time.Hour)
	ctx := context.Background()
	if _, err := env.App.Jobs.Labels(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := env.App.Jobs.Tracking(ctx); err != nil {
		t.Fatal(err)
	}

	pw := env.AddUser("maria", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("maria", pw)
	tab.Submit(`[data-testid=nav] a[href="/tracking"]`)
	if rows := tab.Texts(`[data-testid=shipment-list] tbody tr`); len(rows) != 2 {
		t.Fatalf("list: %q", rows)
	}
	tab.Fill(`#q`, "brno")
	tab.Click(`[data-testid=filters] button[type=submit]`)
	tab.WaitCount(`[data-testid=shipment-list] tbody tr`, 1)
	if rows := tab.Texts(`[data-testid=shipment-list] tbody tr`); len(rows) != 1 || !strings.Contains(rows[0], "Brno") {
		t.Fatalf("filtered: %q", rows)
	}
	if !strings.Contains(tab.Path(), "q=brno") {
		t.Errorf("the filter is not in the URL: %s", tab.Path())
	}
	tab.look("filtered")
	ctype, start := tab.Fetch(tab.Attr(`[data-testid=csv]`, "href"))
	if !strings.HasPrefix(ctype, "text/csv") || !strings.HasPrefix(start, "id,creat") {
		t.Errorf("csv: %s %q", ctype, start)
	}
	tab.Submit(`[data-testid=shipment-list] tbody tr a`)
	tab.WaitText(`[data-testid=timeline]`, "Package 1")
	if events := tab.Texts(`[data-testid=timeline] ol.timeline li`); len(events) < 2 {
		t.Errorf("timeline: %q", events)
	}
	tab.look("timeline")
	// The scan box opens the same shipment from its tracking number.
	number := tab.Text(`[data-testid=tracking-number]`)
	tab.Open("/tracking")
	tab.Fill(`[data-testid=scan]`, number)
	tab.Enter(`[data-testid=scan]`)
	if got := tab.Text(`[data-testid=tracking-number]`); got != number {
		t.Errorf("scan opened %q, want %q", got, number)
	}
	tab.Open("/reports")
	tab.WaitText(`[data-testid=figures]`, "Shipments")
	tab.look("reports")
}

// orderChosen orders the chosen offer and waits for the shipment page.
func orderChosen(t *testing.T, tab *Tab) {
	t.Helper()
	tab.Submit(`[data-testid=create]`)
	if !strings.HasPrefix(tab.Path(), "/shipping/shipments/") {
		t.Fatalf("after ordering the page is %s", tab.Path())
	}
}
