package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/sandbox/sandboxtest"
)

// fiftyShipments stores a page of shipments with long names and towns, as a
// busy day leaves them, dated back from the test's epoch.
func fiftyShipments(t *testing.T, env *apptest.Env) {
	t.Helper()
	if _, err := env.App.DB.SQL().Exec(`
INSERT INTO shipments (request_key, reference, state, request, carrier, service_id, recipient_name, recipient_city,
    tracking_number, status, label_mode, label_status, created_at, last_checked_at)
SELECT gen_random_uuid(), 'OBJ-2026-' || lpad(i::text, 5, '0'), 'created', '{}', 'ZASILKOVNA', 301,
    'Bohuslava Nováková-Dvořáčková ' || i, 'Frýdek-Místek', 'IZ' || lpad(i::text, 10, '0'), 'INTRANSIT', 'PRINT', 'READY',
    $1::timestamptz - i * interval '7 minutes', $1::timestamptz - i * interval '3 minutes'
FROM generate_series(1, 50) AS i`, sandboxtest.Epoch); err != nil {
		t.Fatal(err)
	}
}

// At tablet width the shipments list is a dense table: fifty rows fit in
// three screens and nothing runs off the side; on a phone each row is a card.
func TestTabletGetsADenseShipmentsList(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	fiftyShipments(t, env)
	pw := env.AddUser("marta", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("marta", pw)
	tab.do("tablet", chromedp.EmulateViewport(768, 1024))
	tab.Open("/tracking")
	tab.WaitCount(`[data-testid=shipment-list] tbody tr`, 50)
	if head := js[string](tab, `getComputedStyle(document.querySelector('[data-testid=shipment-list] thead')).display`); head == "none" {
		t.Error("at 768 px the list has no header row: it is still cards")
	}
	if h := js[int](tab, `document.documentElement.scrollHeight`); h > 3*1024 {
		t.Errorf("at 768 px fifty rows take %d px, more than three screens (%d px)", h, 3*1024)
	}
	if over := js[[]string](tab, `[document.documentElement, document.querySelector('.table-scroll')]
		.filter(e => e.scrollWidth > e.clientWidth).map(e => e.tagName + '.' + e.className)`); len(over) > 0 {
		t.Errorf("at 768 px these are wider than the screen: %v", over)
	}
	// Every cell's text fits its column: nothing is cut or runs over.
	if over := js[[]string](tab, `[...document.querySelectorAll('[data-testid=shipment-list] tbody tr:first-child td')]
		.filter(td => td.scrollWidth > td.clientWidth + 1).map(td => td.dataset.label || td.className)`); len(over) > 0 {
		t.Errorf("cells overflowing at 768 px: %v", over)
	}
	tab.do("phone", chromedp.EmulateViewport(390, 844))
	if row := js[string](tab, `getComputedStyle(document.querySelector('[data-testid=shipment-list] tbody tr')).display`); row != "block" {
		t.Errorf("at 390 px a row is %q, want a card (block)", row)
	}
	tab.do("desktop", chromedp.EmulateViewport(1280, 900))
	tab.shots("tablet-list-en")
	tab.toCzech()
	tab.Open("/tracking")
	tab.WaitCount(`[data-testid=shipment-list] tbody tr`, 50)
	tab.shots("tablet-list-cs")
}
