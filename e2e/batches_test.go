package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"shipdesk/storage"
)

// The clerk imports the documented template and works its rows in one
// table: filters to the rows with problems, opens each in place, clears the
// point the sandbox does not have and saves (the row prices itself), sends
// one parcel label-free by choosing that offer by hand, orders every row,
// and once the labels are made downloads one PDF of them, the carriers'
// hand-over protocols and the sheet of label-free codes. The batch page is
// looked at in English and in Czech at desktop, tablet and phone width.
func TestClerkRunsADayBatch(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
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
	rows := env.SettledBatch(t, batch)
	tab.Open(path)
	tab.look("imported")
	if got := len(tab.Texts(`[data-testid=batch-rows] [data-testid=batch-row]`)); got != 10 {
		t.Fatalf("%d rows in the table, want 10", got)
	}

	// Just the rows with problems: rows 4 and 7 name points the sandbox does not have.
	if n := tab.Text(`[data-testid=batch-filter] a[data-filter=problems] .count`); n != "2" {
		t.Errorf("rows with problems: %s", n)
	}
	tab.Submit(`[data-testid=batch-filter] a[data-filter=problems]`)
	if p := tab.Path(); p != path+"?state=problems" {
		t.Errorf("the filter is at %s", p)
	}
	tab.WaitCount(`[data-testid=batch-rows] [data-testid=batch-row]`, 2)
	tab.shots("problems")
	first := true
	for _, r := range rows {
		if r.State != storage.RowProblem {
			continue
		}
		row := fmt.Sprintf(`[data-testid=batch-row][data-line="%d"]`, r.Line)
		cell := fmt.Sprintf("#row-%d-point_code", r.ID)
		tab.Click(row + ` [data-testid=row-edit]`)
		tab.WaitCount(row+` [data-testid=row-form]`, 1)
		if !tab.focusComes(cell) {
			t.Errorf("line %d: the field with the problem does not have the focus", r.Line)
		}
		if first {
			tab.shots("row-opened")
			first = false
		}
		tab.Fill(cell, "-")
		tab.do("clear the point of line "+fmt.Sprint(r.Line), chromedp.SendKeys(cell, "\b"))
		tab.Click(row + ` [data-testid=row-save]`)
		tab.WaitCount(row+` [data-testid=row-problems]`, 0)
		tab.WaitCount(row+` [data-testid=row-form]`, 0)
		// The focus is back on the row, which asks for itself until it is
		// priced, and stays there.
		tab.waitFocus(row + ` [data-testid=row-reference], ` + row + ` [data-testid=row-edit]`)
		tab.WaitText(row+` [data-testid=row-state]`, "Priced")
		tab.waitFocus(row + ` [data-testid=row-reference], ` + row + ` [data-testid=row-edit]`)
	}
	rows = env.SettledBatch(t, batch)
	for _, r := range rows {
		if r.State != storage.RowPriced {
			t.Fatalf("line %d is %s after the fixes", r.Line, r.State)
		}
	}

	// Line 2 goes label-free: the clerk takes that offer by hand.
	tab.Open(path)
	if n := tab.Text(`[data-testid=batch-filter] a[data-filter=problems] .count`); n != "0" {
		t.Errorf("rows with problems after the fixes: %s", n)
	}
	line2 := `[data-testid=batch-row][data-line="2"]`
	tab.Click(line2 + ` [data-testid=row-edit]`)
	tab.WaitCount(line2+` [data-testid=row-offers]`, 1)
	tab.Click(line2 + ` [data-testid=row-offers] input[value$="-label-free"]:not([disabled])`)
	tab.Click(line2 + ` [data-testid=row-choose]`)
	tab.WaitText(line2+` [data-testid=row-offer-why]`, "chosen by hand")
	tab.shots("table")

	tab.toCzech()
	tab.Open(path + "?state=ready")
	tab.wantText(`[data-testid=batch-filter] a[aria-current]`, "Připravené")
	tab.shots("table-cs")
	tab.Click(`[data-testid=batch-row][data-line="3"] [data-testid=row-edit]`)
	tab.WaitCount(`[data-testid=batch-row][data-line="3"] [data-testid=row-form]`, 1)
	tab.shots("row-opened-cs")
	tab.Click(`[data-testid=batch-row][data-line="3"] [data-testid=row-close]`)
	tab.WaitCount(`[data-testid=batch-row][data-line="3"] [data-testid=row-form]`, 0)
	tab.waitFocus(`[data-testid=batch-row][data-line="3"] [data-testid=row-edit]`)

	tab.Open(path)
	tab.Submit(`[data-testid=order-all]`)
	for _, r := range env.SettledBatch(t, batch) {
		if r.State != storage.RowOrdered {
			t.Errorf("line %d: %s", r.Line, r.State)
		}
	}

	// While the labels are being made the page says so and asks for itself;
	// they are made before the courier's pickup (15 minutes after export), and
	// the labels, codes and protocols appear without a reload.
	tab.WaitText(`[data-testid=batch-progress]`, "se ještě připrav")
	tab.WaitCount(`[data-testid=labels-A6]`, 0)
	tab.shots("labels-pending-cs")
	env.Sandbox.Advance(10 * time.Minute)
	if _, err := env.App.Jobs.Labels(context.Background()); err != nil {
		t.Fatal(err)
	}
	tab.WaitCount(`[data-testid=labels-A6]`, 1)
	tab.shots("ordered-cs")
	if ctype, start := tab.Fetch(tab.Attr(`[data-testid=labels-A6]`, "href")); !strings.HasPrefix(ctype, "application/pdf") || start != "%PDF-1.4" && !strings.HasPrefix(start, "%PDF-") {
		t.Errorf("labels: %s %q", ctype, start)
	}
	protocols := tab.Texts(`[data-testid=protocol]`)
	if len(protocols) == 0 {
		t.Fatal("no hand-over protocol offered")
	}
	if ctype, start := tab.Fetch(tab.Attr(`[data-testid=protocol]`, "href")); !strings.HasPrefix(ctype, "application/pdf") || !strings.HasPrefix(start, "%PDF-") {
		t.Errorf("protocol: %s %q", ctype, start)
	}
	tab.wantText(`[data-testid=codes-pdf]`, "Kód 1 zásilky bez štítku")
	if ctype, start := tab.Fetch(tab.Attr(`[data-testid=codes-pdf]`, "href")); !strings.HasPrefix(ctype, "application/pdf") || !strings.HasPrefix(start, "%PDF-") {
		t.Errorf("codes: %s %q", ctype, start)
	}
	tab.Submit(`[data-testid=language] button`)
	tab.Open(path)
	tab.shots("ordered")
}
