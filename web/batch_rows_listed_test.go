package web_test

import (
	"net/url"
	"strings"
	"testing"

	"shipdesk/storage"
)

// A batch's page reads each closed row's chosen offer alone (storage), yet
// shows what it showed: an ordered row, which can no longer be changed,
// still has its offers' button and names its chosen offer with its price;
// the row opened lists every offer it had.
func TestBatchPageShowsEachRowsOffersFromItsChosenOne(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	id := importOrders(t, env, b)
	env.SettledBatch(t, id)
	path := "/shipping/batches/" + itoa(id)
	if resp := b.PostForm(path+"/order", url.Values{}); resp.StatusCode != 303 {
		t.Fatalf("order: %d", resp.StatusCode)
	}
	var ordered []storage.BatchRow
	for _, r := range env.SettledBatch(t, id) {
		if r.State == storage.RowOrdered {
			ordered = append(ordered, r)
		}
	}
	if len(ordered) < 2 {
		t.Fatalf("ordered rows: %d", len(ordered))
	}
	doc := page(t, b.Get(path+"?state=all").Body)
	for _, r := range ordered {
		row := doc.Find(`[data-testid=batch-row][data-line="` + itoa(int64(r.Line)) + `"]`)
		offer := strings.TrimSpace(row.Find(`[data-testid=row-offer]`).Text())
		price := row.Find(`[data-testid=row-price]`).Text()
		if row.Find(`[data-testid=row-edit]`).Length() != 1 || offer == "" || !strings.ContainsAny(price, "0123456789") {
			t.Errorf("ordered line %d: offers' button %d, chosen offer %q at %q", r.Line, row.Find(`[data-testid=row-edit]`).Length(), offer, price)
		}
		if row.Find(`[data-testid=row-offer-choice]`).Length() != 0 {
			t.Errorf("closed line %d lists its offers", r.Line)
		}
	}

	first := ordered[0]
	var stored []any
	if err := jsonUnmarshal(first.Offers, &stored); err != nil || len(stored) < 2 {
		t.Fatalf("line %d stores %d offers: %v", first.Line, len(stored), err)
	}
	doc = page(t, b.Get(path+"?state=all&open="+itoa(first.ID)).Body)
	row := doc.Find(`[data-testid=batch-row][data-line="` + itoa(int64(first.Line)) + `"]`)
	if n := row.Find(`[data-testid=row-offer-choice]`).Length(); n != len(stored) {
		t.Errorf("the open line %d lists %d offers, want the %d it has", first.Line, n, len(stored))
	}
	if n := row.Find(`input[name=choice]:checked`).Length(); n != 1 {
		t.Errorf("the open line %d marks %d offers chosen", first.Line, n)
	}
}
