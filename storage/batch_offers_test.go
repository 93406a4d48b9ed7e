package storage_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// offerChoices are the choices of a row's stored offers, in their order.
func offerChoices(t *testing.T, r storage.BatchRow) []string {
	t.Helper()
	var offers []struct {
		Choice string `json:"choice"`
	}
	if err := json.Unmarshal(r.Offers, &offers); err != nil {
		t.Fatalf("row %d: offers %s: %v", r.Line, r.Offers, err)
	}
	out := []string{}
	for _, o := range offers {
		out = append(out, o.Choice)
	}
	return out
}

// createBatch stores a batch whose rows have the lines given, stored in
// that order, each in the state stateOf gives it.
func createBatch(t *testing.T, db *storage.DB, at time.Time, lines []int, stateOf func(line int) string) storage.Batch {
	t.Helper()
	var rows []storage.BatchRow
	for _, line := range lines {
		rows = append(rows, storage.BatchRow{Line: line, State: stateOf(line), RequestKey: requestkey.New(),
			Raw: storage.JSON(`{}`), Parsed: storage.JSON(`{}`), Problems: storage.JSON(`[]`)})
	}
	b, err := db.CreateBatch(context.Background(), storage.Batch{Source: "csv", FileName: "day.csv", Handover: "pickup", CreatedAt: at}, rows)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A batch's page lists each row with its chosen offer alone and how many it
// has, but the open row with all of them; a row leased to be ordered comes
// with its chosen offer alone, a row leased to be priced with what it had.
// The stored offers stay whole.
func TestBatchRowsReadTheirChosenOfferAlone(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	b := createBatch(t, db, at, []int{1, 2, 3}, func(int) string { return storage.RowReady })
	if _, err := db.QueueRows(ctx, b.ID, storage.RowReady, storage.RowPricing); err != nil {
		t.Fatal(err)
	}
	leased, err := db.LeaseRows(ctx, b.ID, at, at.Add(-time.Minute), 10)
	if err != nil || len(leased) != 3 {
		t.Fatalf("leased %d rows to price: %v", len(leased), err)
	}
	offers := storage.JSON(`[{"choice":"101","offer":{"Carrier":"A"}},{"choice":"102","offer":{"Carrier":"B"}},{"choice":"102-label-free","offer":{"Carrier":"B"}}]`)
	chosen := []string{"102", "101", ""} // the last row has no offer it may take
	var outcomes []storage.RowOutcome
	for i, r := range leased {
		r.State, r.Offers, r.Chosen, r.ChosenBy = storage.RowPriced, offers, chosen[i], "rules"
		outcomes = append(outcomes, storage.RowOutcome{Priced: &r, Leased: at})
	}
	if _, err := db.RecordRows(ctx, outcomes); err != nil {
		t.Fatal(err)
	}

	open := leased[1].ID
	var listed []storage.BatchRow
	if err := db.EachBatchRow(ctx, b.ID, open, func(r storage.BatchRow) error { listed = append(listed, r); return nil }); err != nil {
		t.Fatal(err)
	}
	want := map[int][]string{1: {"102"}, 2: {"101", "102", "102-label-free"}, 3: {}}
	for _, r := range listed {
		if got := offerChoices(t, r); !slices.Equal(got, want[r.Line]) || r.OfferCount != 3 {
			t.Errorf("listed row %d: offers %v (want %v), count %d (want 3)", r.Line, got, want[r.Line], r.OfferCount)
		}
	}
	if len(listed) != 3 {
		t.Fatalf("listed %d rows", len(listed))
	}
	whole, err := db.BatchRow(ctx, b.ID, leased[0].ID)
	if err != nil || len(offerChoices(t, whole)) != 3 {
		t.Errorf("a row read alone has all its offers: %s %v", whole.Offers, err)
	}

	// The first row goes to be ordered; the second is priced again.
	if ok, err := db.QueueRow(ctx, b.ID, leased[0].ID, storage.RowPriced, storage.RowOrdering); !ok || err != nil {
		t.Fatalf("queue to order: %v %v", ok, err)
	}
	if ok, err := db.QueueRow(ctx, b.ID, leased[1].ID, storage.RowPriced, storage.RowPricing); !ok || err != nil {
		t.Fatalf("queue to price: %v %v", ok, err)
	}
	again, err := db.LeaseRows(ctx, b.ID, at.Add(time.Second), at, 10)
	if err != nil || len(again) != 2 {
		t.Fatalf("leased %d rows: %v", len(again), err)
	}
	for _, r := range again {
		got := offerChoices(t, r)
		switch r.State {
		case storage.RowOrdering:
			if !slices.Equal(got, []string{"102"}) {
				t.Errorf("a row to order: offers %v, want its chosen one", got)
			}
		case storage.RowPricing:
			if len(got) != 3 {
				t.Errorf("a row to price: offers %v, want what it had", got)
			}
		default:
			t.Errorf("leased a row in state %s", r.State)
		}
	}
	if whole, err := db.BatchRow(ctx, b.ID, leased[0].ID); err != nil || len(offerChoices(t, whole)) != 3 {
		t.Errorf("the stored offers stay whole: %s %v", whole.Offers, err)
	}
}

// Workers lease the rows to price before the rows to order, each in the
// file's order, a lease's rows at a time; rows another worker holds are
// skipped until their lease goes stale.
func TestBatchRowsLeasedPricingFirstInFileOrder(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	// Lines 1-3 go to be ordered, 4-6 to be priced; stored out of the file's
	// order, as a row fixed later is.
	b := createBatch(t, db, at, []int{1, 5, 3, 4, 2, 6}, func(line int) string {
		if line > 3 {
			return storage.RowReady
		}
		return storage.RowPriced
	})
	for from, to := range map[string]string{storage.RowPriced: storage.RowOrdering, storage.RowReady: storage.RowPricing} {
		if _, err := db.QueueRows(ctx, b.ID, from, to); err != nil {
			t.Fatal(err)
		}
	}
	lines := func(rows []storage.BatchRow) []int {
		var out []int
		for _, r := range rows {
			out = append(out, r.Line)
		}
		return out
	}
	stale := at.Add(-time.Minute)
	first, err := db.LeaseRows(ctx, b.ID, at, stale, 4)
	if err != nil || !slices.Equal(lines(first), []int{4, 5, 6, 1}) {
		t.Fatalf("first lease: lines %v, want 4 5 6 1: %v", lines(first), err)
	}
	second, err := db.LeaseRows(ctx, b.ID, at, stale, 4)
	if err != nil || !slices.Equal(lines(second), []int{2, 3}) {
		t.Fatalf("second lease: lines %v, want 2 3 (the others are held): %v", lines(second), err)
	}
	later := at.Add(10 * time.Minute)
	if again, err := db.LeaseRows(ctx, b.ID, later, at.Add(time.Minute), 2); err != nil || !slices.Equal(lines(again), []int{4, 5}) {
		t.Fatalf("leases gone stale: lines %v, want 4 5: %v", lines(again), err)
	}
}
