package desk_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/desk"
	"shipdesk/desk/desktest"
	"shipdesk/orderfile"
	"shipdesk/storage"
)

// batchDesk is a desk on the env's sandbox and database, its demo senders
// and the carriers' points stored, as a day at the desk begins.
func batchDesk(t *testing.T) (*desk.Desk, *desktest.Env) {
	t.Helper()
	e := desktest.Start(t)
	d := desk.New(e.DB, e.Ship, nil, e.Sandbox.Clock, nil)
	ctx := context.Background()
	if err := d.SeedDemo(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.RefreshPoints(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = d.Stop(ctx)
	})
	return d, e
}

// Our template's ten rows: each checked by the form's rules (two made to name
// points the sandbox lacks), fixed in place, priced in the background, ordered once
// each however often "order all" is pressed.
func TestBatchImportedCheckedPricedAndOrderedOnce(t *testing.T) {
	d, e := batchDesk(t)
	ctx := context.Background()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "orders-unknown-points.csv"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.ImportBatch(ctx, desk.BatchImport{FileName: "orders.csv", ContentType: "text/csv", Data: data, Handover: desk.HandoverOnDemand}, 0)
	if err != nil || res.Mapping != nil {
		t.Fatalf("import: %+v %v", res, err)
	}
	id := res.Batch.ID
	rows := desktest.SettledBatch(t, e.DB, id)
	if len(rows) != 10 {
		t.Fatalf("%d rows, want 10", len(rows))
	}
	for _, r := range rows {
		bad := r.Line == 4 || r.Line == 7 // points the sandbox does not have
		if got := r.State == storage.RowProblem; got != bad {
			t.Errorf("line %d: %s", r.Line, r.State)
		}
		if bad { // the clerk clears the point: the parcel goes to the address
			cells := desk.ReadBatchRow(r).Cells
			cells[orderfile.PointCode] = ""
			row, err := d.EditRow(ctx, id, r.ID, cells)
			if err != nil || len(row.RowProblems) > 0 {
				t.Fatalf("line %d fixed: %+v %v", r.Line, row.RowProblems, err)
			}
		}
	}
	if _, err := d.PriceBatch(ctx, id); err != nil {
		t.Fatal(err)
	}
	for _, r := range desktest.SettledBatch(t, e.DB, id) {
		if r.State != storage.RowPriced || r.Chosen == "" {
			t.Fatalf("line %d after pricing: %s, chosen %q", r.Line, r.State, r.Chosen)
		}
	}
	if n, err := d.OrderBatch(ctx, id); err != nil || n != 10 {
		t.Fatalf("order all: %d rows queued, %v", n, err)
	}
	// A second press queues nothing: every row is ordering or ordered.
	if n, err := d.OrderBatch(ctx, id); n != 0 || !apperr.Is(err, apperr.Conflict) {
		t.Errorf("order all again: %d rows queued, %v", n, err)
	}
	seen := map[int64]bool{}
	for _, r := range desktest.SettledBatch(t, e.DB, id) {
		if r.State != storage.RowOrdered || r.ShipmentID == nil || seen[*r.ShipmentID] {
			t.Fatalf("line %d: %s %v", r.Line, r.State, r.ShipmentID)
		}
		seen[*r.ShipmentID] = true
		s, err := e.DB.ShipmentByID(ctx, *r.ShipmentID)
		if err != nil {
			t.Fatal(err)
		}
		page, err := e.Ship.ListAll(ctx, shipping.ListQuery{Reference: s.Reference})
		if err != nil || len(page) != 1 {
			t.Errorf("line %d: the service holds %d orders with reference %s (%v), want 1", r.Line, len(page), s.Reference, err)
		}
	}
}
