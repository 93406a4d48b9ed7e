package e2e

import (
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// A filter of more shipments than the list counts says "more than 2,000";
// the manager asks it to count them all and pages on with the exact total,
// in English and Czech at three widths.
func TestManagerCountsALargeFilterOnRequest(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	if _, err := env.App.DB.SQL().Exec(`
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, recipient_name, recipient_city,
    tracking_number, status, label_mode, label_status, created_at)
SELECT gen_random_uuid(), 'BIG-' || i, 'created', '{}', 'UPS', 301, 'Zákazník ' || i, 'Olomouc',
    'G3B' || lpad(i::text, 8, '0'), 'DELIVERED', 'PRINT', 'READY', now() - i * interval '1 minute'
FROM generate_series(1, 2345) AS i`); err != nil {
		t.Fatal(err)
	}
	pw := env.AddUser("marta", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("marta", pw)
	tab.Open("/tracking")
	tab.WaitText(`[data-testid=list-total]`, "More than 2,000 shipments")
	tab.wantText(`[data-testid=list-position]`, "1–50 of more than 2,000")
	tab.wantText(`[data-testid=selection-bar] label.whole`, "more than 2,000")
	tab.shots("list-counted-so-far-en")
	tab.Submit(`[data-testid=count-all]`)
	tab.WaitText(`[data-testid=list-total]`, "2,345 shipments")
	tab.wantText(`[data-testid=list-position]`, "1–50 of 2,345")
	if n := len(tab.Texts(`[data-testid=count-all]`)); n != 0 {
		t.Error("counted to the end, the list still offers to count")
	}
	tab.Submit(`[data-testid=next-page]`)
	tab.WaitText(`[data-testid=list-position]`, "51–100 of 2,345")
	tab.look("list-counted-all-en")

	tab.toCzech()
	tab.Open("/tracking?status=DELIVERED")
	tab.WaitText(`[data-testid=list-total]`, "Více než 2\u00a0000 zásilek")
	tab.wantText(`[data-testid=count-all]`, "Spočítat všechny")
	tab.shots("list-counted-so-far-cs")
	tab.Submit(`[data-testid=count-all]`)
	tab.WaitText(`[data-testid=list-total]`, "2\u00a0345 zásilek")
	tab.look("list-counted-all-cs")
}
