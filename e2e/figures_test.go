package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"shipdesk/identity"
)

// The manager pages through the shipments list with a small page size,
// forward and back, is told when the date range is reversed, and reads the
// money of the reports; both pages in English and Czech at three widths.
func TestManagerPagesTheListAndReadsTheMoney(t *testing.T) {
	t.Parallel()
	env, clerk := deskTab(t)
	before := env.App.Upstream.Now()
	// Two cash-on-delivery shipments ordered through the pages...
	for _, value := range []string{"1250", "480"} {
		clerk.Open("/shipping/new")
		clerk.fillRecipient()
		clerk.Click("#cod")
		clerk.Fill("#cod_value", value)
		clerk.Click(`[data-testid=compare]`)
		clerk.WaitText(`[data-testid=offers]`, "UPS")
		clerk.ChooseOffer("UPS")
		clerk.WaitText(`[data-testid=chosen]`, "UPS")
		orderChosen(t, clerk)
	}
	// ...printed, then delivered by the sandbox's clock and the tracking job...
	env.LabelsFetched()
	env.Sandbox.Advance(48 * time.Hour)
	ctx := context.Background()
	if _, err := env.App.Jobs.Tracking(ctx); err != nil {
		t.Fatal(err)
	}
	// ...and 58 older shipments, so the list has pages.
	if _, err := env.App.DB.SQL().Exec(`
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, recipient_name, recipient_city,
    tracking_number, status, label_mode, label_status, created_at)
SELECT gen_random_uuid(), 'OLD-' || i, 'created', '{}', 'UPS', 301, 'Zákazník ' || i, 'Olomouc',
    'G3E' || lpad(i::text, 8, '0'), 'DELIVERED', 'PRINT', 'READY', $1::timestamptz - interval '1 day' - i * interval '1 minute'
FROM generate_series(1, 58) AS i`, before); err != nil { // made before them, on the dashboard's clock
		t.Fatal(err)
	}

	pw := env.AddUser("marta", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("marta", pw)
	tab.Open("/tracking")
	tab.WaitText(`[data-testid=list-position]`, "1–50 of 60")
	// Choosing from a list applies at once.
	tab.do("choose 25 a page", chromedpSelect(`#size`, "25"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#size').dispatchEvent(new Event('change', {bubbles: true}))`))
	tab.WaitText(`[data-testid=list-position]`, "1–25 of 60")
	tab.wantText(`[data-testid=list-total]`, "60 shipments")
	if rows := tab.Texts(`[data-testid=shipment-list] tbody tr`); len(rows) != 25 {
		t.Fatalf("%d rows on a page of 25", len(rows))
	}
	if !strings.Contains(tab.Path(), "size=25") {
		t.Errorf("the page size is not in the URL: %s", tab.Path())
	}
	tab.shots("list-en")
	tab.Submit(`[data-testid=next-page]`)
	tab.WaitText(`[data-testid=list-position]`, "26–50 of 60")
	tab.Submit(`[data-testid=next-page]`)
	tab.WaitText(`[data-testid=list-position]`, "51–60 of 60")
	if n := len(tab.Texts(`[data-testid=next-page]`)); n != 0 {
		t.Error("the last page offers a next page")
	}
	tab.Submit(`[data-testid=prev-page]`)
	tab.WaitText(`[data-testid=list-position]`, "26–50 of 60")
	tab.Submit(`[data-testid=prev-page]`)
	tab.WaitText(`[data-testid=list-position]`, "1–25 of 60")
	if rows := tab.Texts(`[data-testid=shipment-list] tbody tr td:nth-child(4)`); len(rows) != 25 || rows[0] == "" || strings.HasPrefix(rows[0], "OLD-") {
		t.Errorf("back on the first page the newest is not first: %q", rows[:1])
	}
	// A reversed range is named next to the dates, with the list kept out.
	tab.Fill(`#from`, "2026-11-20")
	tab.Fill(`#to`, "2026-11-10")
	tab.Click(`[data-testid=filters] button[type=submit]`)
	tab.WaitText(`#from-error`, "after")
	tab.wantText(`#to-error`, "before")
	if n := len(tab.Texts(`[data-testid=shipment-list]`)); n != 0 {
		t.Error("a reversed range still lists shipments")
	}
	tab.look("list-reversed")

	tab.Open("/reports")
	tab.WaitText(`[data-testid=money]`, "Cash on delivery")
	tab.wantText(`[data-testid=cod-CZK]`, "CZK")
	tab.wantText(`[data-testid=spend-UPS] [data-testid=shipments]`, "60")
	tab.wantText(`[data-testid=spend-UPS] [data-testid=unknown]`, "58")
	tab.shots("reports-en")

	tab.toCzech()
	tab.Open("/tracking?size=25")
	tab.WaitText(`[data-testid=list-position]`, "1–25 z 60")
	tab.wantText(`[data-testid=list-total]`, "60 zásilek")
	tab.shots("list-cs")
	tab.Open("/reports")
	tab.WaitText(`[data-testid=money]`, "Dobírky")
	tab.wantText(`[data-testid=spend-UPS] [data-testid=unknown]`, "58")
	tab.shots("reports-cs")
}
