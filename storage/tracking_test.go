package storage_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

func leasedIDs(t *testing.T, db *storage.DB, c storage.Lease) []int64 {
	t.Helper()
	batch, err := db.LeaseTracking(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, s := range batch {
		ids = append(ids, s.ID)
	}
	slices.Sort(ids) // which are taken matters, not the order they come in
	return ids
}

// Leases take the shipments never asked about first, then the longest due, by
// id; a row another writer holds is passed over and the batch is still full;
// arrived, not yet due and leased shipments stay out.
func TestLeaseTrackingTakesFullBatchesInDueOrder(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	seedShipments(t, db, 12) // ids 1…12, all due, never asked
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	for _, u := range []struct {
		id   int64
		next any
		done bool
	}{
		{1, now.Add(-time.Minute), false}, {2, now.Add(-time.Hour), false}, {3, now.Add(time.Minute), false},
		{4, nil, true}, {5, now.Add(-time.Hour), false},
	} {
		if _, err := db.SQL().Exec(`UPDATE shipments SET next_track_at = $2, tracking_done = $3 WHERE id = $1`, u.id, u.next, u.done); err != nil {
			t.Fatal(err)
		}
	}
	// Another writer holds shipment 7 (a clerk's change) while the lease runs.
	tx, err := db.SQL().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`SELECT id FROM shipments WHERE id = 7 FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	lease := storage.Lease{Who: "a", Now: now, Limit: 4, For: 2 * time.Minute}
	if got, want := leasedIDs(t, db, lease), []int64{6, 8, 9, 10}; !slices.Equal(got, want) {
		t.Errorf("first lease %v, want %v", got, want)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	lease.Who = "b"
	if got, want := leasedIDs(t, db, lease), []int64{2, 7, 11, 12}; !slices.Equal(got, want) {
		t.Errorf("second lease %v, want %v", got, want)
	}
	if got, want := leasedIDs(t, db, lease), []int64{1, 5}; !slices.Equal(got, want) {
		t.Errorf("last lease %v, want %v (3 is not due, 4 has arrived)", got, want)
	}
	// Once the lease has run out, a shipment nobody recorded is taken again.
	lease.Now = now.Add(3 * time.Minute)
	if got := leasedIDs(t, db, lease); len(got) != 4 {
		t.Errorf("after the lease: %v", got)
	}
}
