package e2e

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A batch's page says each row's carrier and point by name: the template's
// rows priced, line 4 going to a point of Zásilkovna, its offers opened,
// in English and in Czech at desktop, tablet and phone width.
func TestBatchSaysCarriersAndPointsByName(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	file, err := filepath.Abs(filepath.Join("..", "examples", "orders.csv"))
	if err != nil {
		t.Fatal(err)
	}
	points, err := env.App.DB.PointsByCode(context.Background(), "ZASILKOVNA-OSTRAVA-6")
	if err != nil || len(points) != 1 {
		t.Fatalf("the template's point: %v %v", points, err)
	}
	tab.Open("/shipping/batches/new")
	tab.do("attach the day's orders", chromedp.SetUploadFiles(`#file`, []string{file}))
	tab.Submit(`[data-testid=batch-import] button[type=submit]`)
	path := tab.Path()
	var batch int64
	if _, err := fmt.Sscanf(path, "/shipping/batches/%d", &batch); err != nil {
		t.Fatalf("after the import the page is %s", path)
	}
	env.SettledBatch(t, batch)
	line4 := `[data-testid=batch-row][data-line="4"]`
	for _, lang := range []string{"en", "cs"} {
		if lang == "cs" {
			tab.toCzech()
		}
		tab.Open(path)
		tab.wantText(line4+` .batch-point`, points[0].Name)
		tab.wantText(line4+` [data-testid=row-offer]`, "Zásilkovna")
		tab.shots("batch-names-" + lang)
		tab.Click(line4 + ` [data-testid=row-edit]`)
		tab.WaitCount(line4+` [data-testid=row-offers]`, 1)
		tab.wantText(line4+` [data-testid=row-offers]`, "Zásilkovna")
		if offers := tab.Text(line4 + ` [data-testid=row-offers]`); strings.Contains(offers, "ZASILKOVNA") {
			t.Errorf("%s: the offers say a carrier's code: %q", lang, offers)
		}
		tab.shots("batch-names-offers-" + lang)
	}
}
