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

// The clerk imports the documented template, fixes the rows whose point the
// sandbox does not have, orders every row, and once the labels are made
// downloads one PDF of them and the carriers' hand-over protocols.
func TestClerkRunsADayBatch(t *testing.T) {
	env, tab := deskTab(t)
	file, err := filepath.Abs(filepath.Join("..", "examples", "orders.csv"))
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

	// Rows 4 and 7 name points the sandbox does not have: clear the code, save.
	for _, r := range rows {
		if r.State != storage.RowProblem {
			continue
		}
		row := fmt.Sprintf(`[data-testid=batch-row][data-line="%d"]`, r.Line)
		cell := fmt.Sprintf("#row-%d-point_code", r.ID)
		tab.Fill(cell, "-")
		tab.do("clear the point of line "+fmt.Sprint(r.Line), chromedp.SendKeys(cell, "\b"))
		tab.Click(row + ` [data-testid=row-save]`)
		tab.WaitCount(row+` [data-testid=row-problems]`, 0)
	}
	rows = env.SettledBatch(t, batch)
	for _, r := range rows {
		if r.State != storage.RowPriced {
			t.Fatalf("line %d is %s after the fixes", r.Line, r.State)
		}
	}
	tab.Open(path)
	tab.Submit(`[data-testid=order-all]`)
	for _, r := range env.SettledBatch(t, batch) {
		if r.State != storage.RowOrdered {
			t.Errorf("line %d: %s", r.Line, r.State)
		}
	}

	// Labels are made before the courier's pickup (15 minutes after export).
	env.Sandbox.Advance(10 * time.Minute)
	if _, err := env.App.Jobs.Labels(context.Background()); err != nil {
		t.Fatal(err)
	}
	tab.Open(path)
	tab.shots("ordered")
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
}
