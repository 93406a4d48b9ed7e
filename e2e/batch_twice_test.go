package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/client/shipping"
	"shipdesk/desk"
	"shipdesk/orderfile"
	"shipdesk/storage"
)

// importOrders uploads our template with two unknown points through the import form and
// returns the new batch's id and path, its rows settled.
func importOrders(t *testing.T, env *apptest.Env, tab *Tab) (int64, string, []storage.BatchRow) {
	t.Helper()
	file, err := filepath.Abs(filepath.Join("..", "testdata", "orders-unknown-points.csv"))
	if err != nil {
		t.Fatal(err)
	}
	tab.Open("/shipping/batches/new")
	tab.do("attach the day's orders", chromedp.SetUploadFiles(`#file`, []string{file}))
	tab.Submit(`[data-testid=batch-import] button[type=submit]`)
	path := tab.Path()
	var batch int64
	if _, err := fmt.Sscanf(path, "/shipping/batches/%d", &batch); err != nil {
		t.Fatalf("after the import the page is %s", path)
	}
	return batch, path, env.SettledBatch(t, batch)
}

// shipmentsHeld counts our shipments and those the service holds.
func shipmentsHeld(t *testing.T, env *apptest.Env) (ours, theirs int) {
	t.Helper()
	if err := env.App.DB.SQL().QueryRow(`SELECT count(*) FROM shipments`).Scan(&ours); err != nil {
		t.Fatal(err)
	}
	held, err := env.App.Upstream.Shipping.ListAll(context.Background(), shipping.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	return ours, len(held)
}

// The clerk imports the day's file, orders it, and the next morning imports
// the same file again: every row shows as already ordered, with its
// shipment, "Order all" is not offered and nothing is ordered twice. One row
// really is a second parcel: taken as a new parcel under a reference of its
// own, it is priced and ordered.
func TestSameFileImportedTwiceShipsNothingTwice(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	ctx := context.Background()
	first, path, rows := importOrders(t, env, tab)
	for _, r := range rows {
		if r.State == storage.RowProblem { // the points the sandbox lacks: to the address instead
			cells := desk.ReadBatchRow(r).Cells
			cells[orderfile.PointCode] = ""
			if _, err := env.App.Desk.EditRow(ctx, first, r.ID, cells); err != nil {
				t.Fatal(err)
			}
		}
	}
	env.SettledBatch(t, first)
	tab.Open(path)
	tab.Submit(`[data-testid=order-all]`)
	ordered := map[int]int64{}
	for _, r := range env.SettledBatch(t, first) {
		if r.State != storage.RowOrdered {
			t.Fatalf("first batch, line %d: %s %s", r.Line, r.State, r.Error)
		}
		ordered[r.Line] = *r.ShipmentID
	}
	ours, theirs := shipmentsHeld(t, env)

	second, path, rows := importOrders(t, env, tab)
	if second == first {
		t.Fatal("the second import made no batch")
	}
	tab.Open(path)
	tab.wantText(`[data-testid=batch-known]`, "10 rows of this file were ordered already")
	if n := tab.Text(`[data-testid=batch-filter] a[data-filter=known] .count`); n != "10" {
		t.Errorf("rows already ordered: %s", n)
	}
	tab.WaitCount(`[data-testid=order-all]`, 0)
	for _, r := range rows {
		row := fmt.Sprintf(`[data-testid=batch-row][data-line="%d"]`, r.Line)
		if r.State != storage.RowKnown {
			t.Errorf("second batch, line %d: %s", r.Line, r.State)
			continue
		}
		if got := tab.Text(row + ` [data-testid=row-state]`); got != "Already ordered" {
			t.Errorf("line %d is %q", r.Line, got)
		}
		if got, want := tab.Text(row+` [data-testid=row-known]`), fmt.Sprintf("Shipment %d", ordered[r.Line]); got != want {
			t.Errorf("line %d says %q, want %q", r.Line, got, want)
		}
		if href := tab.Attr(row+` [data-testid=row-known]`, "href"); href != fmt.Sprintf("/shipping/shipments/%d", ordered[r.Line]) {
			t.Errorf("line %d links %s", r.Line, href)
		}
	}
	tab.shots("known")
	// Ordering by hand (a second clerk's stale page) orders nothing either.
	if _, err := env.App.Desk.OrderBatch(ctx, second); err == nil {
		t.Error("the second batch had rows to order")
	}
	env.SettledBatch(t, second)
	if o, s := shipmentsHeld(t, env); o != ours || s != theirs {
		t.Fatalf("shipments after the second import: %d ours, %d at the service; want %d, %d", o, s, ours, theirs)
	}

	// Line 3 really is a second parcel for the same customer.
	line3 := `[data-testid=batch-row][data-line="3"]`
	tab.Click(line3 + ` [data-testid=row-edit]`)
	tab.WaitCount(line3+` [data-testid=row-new-parcel-form]`, 1)
	ref := fmt.Sprintf("#row-%d-new_reference", rowOnLine(t, rows, 3).ID)
	if got := tab.Attr(ref, "value"); got != "OBJ-2026-0413-2" {
		t.Errorf("the new parcel's reference offered: %q", got)
	}
	tab.shots("new-parcel")
	tab.Fill(ref, "OBJ-2026-0413")
	tab.Click(line3 + ` [data-testid=row-new-parcel]`)
	tab.WaitText(line3+` [data-testid=new-reference-error]`, "reference of the parcel already ordered")
	tab.Fill(ref, "OBJ-2026-0413-B")
	tab.Click(line3 + ` [data-testid=row-new-parcel]`)
	tab.WaitText(line3+` [data-testid=row-state]`, "Priced")
	tab.Open(path)
	tab.Submit(`[data-testid=order-all]`)
	for _, r := range env.SettledBatch(t, second) {
		want := storage.RowKnown
		if r.Line == 3 {
			want = storage.RowOrdered
		}
		if r.State != want {
			t.Errorf("second batch, line %d: %s, want %s (%s)", r.Line, r.State, want, r.Error)
		}
	}
	if o, s := shipmentsHeld(t, env); o != ours+1 || s != theirs+1 {
		t.Errorf("after the new parcel: %d ours, %d at the service; want %d, %d", o, s, ours+1, theirs+1)
	}

	tab.toCzech()
	tab.Open(path)
	tab.wantText(`[data-testid=batch-known]`, "9 řádků tohoto souboru už bylo objednáno")
	tab.wantText(`[data-testid=batch-row][data-line="2"] [data-testid=row-state]`, "Již objednáno")
	tab.wantText(`[data-testid=batch-row][data-line="2"] [data-testid=row-known]`, "Zásilka")
	tab.shots("known-cs")
	line2 := `[data-testid=batch-row][data-line="2"]`
	tab.Click(line2 + ` [data-testid=row-edit]`)
	tab.WaitCount(line2+` [data-testid=row-new-parcel-form]`, 1)
	tab.shots("new-parcel-cs")
}

func rowOnLine(t *testing.T, rows []storage.BatchRow, line int) storage.BatchRow {
	t.Helper()
	for _, r := range rows {
		if r.Line == line {
			return r
		}
	}
	t.Fatalf("no row on line %d", line)
	return storage.BatchRow{}
}

// A row names a point the carrier does not have: its problem links the
// row's point picker, which lists the points of the row's town; the clerk
// chooses one and saves, and the row is priced with that point.
func TestClerkFixesABadPointWithThePicker(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	batch, path, rows := importOrders(t, env, tab)
	bad := rowOnLine(t, rows, 4)
	if bad.State != storage.RowProblem {
		t.Fatalf("line 4: %s", bad.State)
	}
	tab.Open(path + "?state=problems")
	row := `[data-testid=batch-row][data-line="4"]`
	tab.wantText(row+` [data-testid=row-problems]`, "Choose the point from the row's list of points")
	tab.Click(row + ` [data-testid=row-pick-point]`)
	tab.WaitCount(row+` [data-testid=row-form]`, 1)
	kind := fmt.Sprintf("row-%d-point", bad.ID)
	points := fmt.Sprintf(`[data-testid=%s-points] input[type=radio]`, kind)
	tab.wantText(fmt.Sprintf(`[data-testid=%s-points-status]`, kind), "Ostrava")
	if n := len(tab.Texts(fmt.Sprintf(`[data-testid=%s-points] .point`, kind))); n == 0 {
		t.Fatal("the picker lists no point")
	}
	tab.shots("picker")
	// Typing narrows the list as on the new-shipment form: the last point's code finds it alone.
	codes := tab.Values(points)
	code := codes[len(codes)-1]
	if !strings.Contains(strings.ToUpper(code), "OSTRAVA") {
		t.Errorf("the picker offers %q", codes)
	}
	tab.Type("#"+kind+"_q", code)
	tab.WaitCount(points, 1)
	if got := tab.Attr(points, "value"); got != code {
		t.Fatalf("searched %q, found %q", code, got)
	}
	tab.Click(points)
	tab.Click(row + ` [data-testid=row-save]`)
	tab.WaitCount(row+` [data-testid=row-form]`, 0)
	for _, r := range env.SettledBatch(t, batch) {
		if r.ID != bad.ID {
			continue
		}
		fixed := desk.ReadBatchRow(r)
		if r.State != storage.RowPriced || fixed.Order.PointCode != code {
			t.Errorf("line 4 after the picker: %s with point %q, want priced with %q (%s)", r.State, fixed.Order.PointCode, code, r.Problems)
		}
	}

	tab.toCzech()
	tab.Open(path + "?state=problems")
	row = `[data-testid=batch-row][data-line="7"]`
	tab.wantText(row+` [data-testid=row-problems]`, "Vyberte místo ze seznamu")
	tab.Click(row + ` [data-testid=row-pick-point]`)
	tab.WaitCount(row+` [data-testid=row-form]`, 1)
	tab.shots("picker-cs")
}

// Values are the values of the inputs sel matches, in the page's order.
func (b *Tab) Values(sel string) []string {
	b.t.Helper()
	js := fmt.Sprintf(`Array.from(document.querySelectorAll(%q)).map(e => e.value)`, sel)
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](js))
	if err != nil {
		b.t.Fatalf("values of %s: %v", sel, err)
	}
	if len(out) == 0 {
		b.t.Fatalf("%s: no input", sel)
	}
	return out
}
