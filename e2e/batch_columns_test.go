package e2e

import (
	"testing"
)

// From the batch import page the clerk opens the guide to the template's
// columns: a page in the reader's language, each column with what it holds
// and whether it is required. Looked at in English and Czech at 1280, 768
// and 390 px.
func TestClerkReadsTheColumnGuide(t *testing.T) {
	t.Parallel()
	_, tab := deskTab(t)
	tab.Open("/shipping/batches/new")
	tab.Submit(`[data-testid=batch-columns-link]`)
	tab.WaitText(`h1`, "The columns of a file of orders")
	tab.wantText(`[data-column=phone] [data-testid=column-need]`, "Yes.")
	if n := len(tab.Texts(`[data-testid=batch-column]`)); n < 20 {
		t.Errorf("%d columns explained", n)
	}
	tab.shots("en")
	tab.toCzech()
	tab.WaitText(`h1`, "Sloupce souboru objednávek")
	tab.wantText(`[data-column=point_code]`, "Kód výdejního místa")
	tab.shots("cs")
}
