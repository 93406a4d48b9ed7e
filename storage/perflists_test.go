package storage_test

import (
	"context"
	"testing"

	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// A search that matches more points than PointsCountCap counts only so far
// and says so; one below it counts exactly. Either way the page is the first
// points in the picker's order.
func TestFindPointsCountsOnlySoFar(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	storePoints(t, db, fakePoints(4*storage.PointsCountCap+400)) // 1 100 points of g1
	many, err := db.FindPoints(ctx, storage.PointQuery{Carrier: "g1", Text: "point", Limit: 15})
	if err != nil || !many.More || many.Total != storage.PointsCountCap || len(many.Points) != 15 {
		t.Fatalf("a broad search: %d points, total %d, more %v, %v", len(many.Points), many.Total, many.More, err)
	}
	all, err := db.SearchPoints(ctx, storage.PointQuery{Carrier: "g1", Text: "point", Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range many.Points {
		if p.ID != all[i].ID {
			t.Fatalf("point %d is %d, want %d: a page of 15 is not the first 15 of 100", i, p.ID, all[i].ID)
		}
	}
	few, err := db.FindPoints(ctx, storage.PointQuery{Carrier: "g1", Text: "plzen", Limit: 15})
	if err != nil || few.More || few.Total != 220 || len(few.Points) != 15 {
		t.Errorf("Plzeň: %d points, total %d, more %v, %v; want 15 of 220", len(few.Points), few.Total, few.More, err)
	}
	// In a transaction (one connection) the count runs first; the answer is the same.
	err = db.InTx(ctx, func(tx *storage.DB) error {
		in, err := tx.FindPoints(ctx, storage.PointQuery{Carrier: "g1", Text: "plzen", Limit: 15})
		if err == nil && (in.Total != few.Total || in.More || len(in.Points) != 15) {
			t.Errorf("in a transaction: %d of %d", len(in.Points), in.Total)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
