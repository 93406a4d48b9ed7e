package desk

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// A page's label check is due (LabelStale) exactly when the database would
// let a page lease the shipment's label (LeaseStaleLabels): checked long
// ago or never, the poller's turn come or not, checks failing or not, the
// label pending or not.
func TestLabelStaleIsTheLeaseOfStaleLabels(t *testing.T) {
	t.Parallel()
	db := pgtest.New(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	const pendingAfter = 30 * time.Second
	at := func(d time.Duration) any { return now.Add(d) }
	var cases []string
	var ids []int64
	for _, label := range []string{"PENDING", "READY"} {
		for _, last := range []any{nil, at(-time.Hour), at(-pendingAfter), at(-time.Second)} {
			for _, next := range []any{nil, at(-time.Minute), at(0), at(time.Minute)} {
				for _, failures := range []int{0, 3} {
					var id int64
					err := db.SQL().QueryRow(`INSERT INTO shipments (request_key, reference, state, request, carrier, service_id,
    tracking_number, status, label_mode, label_status, created_at, last_checked_at, next_label_check_at, poll_failures)
VALUES (gen_random_uuid(), 'REF-' || gen_random_uuid(), 'created', '{}', 'UPS', 1, 'UPS' || floor(random() * 1e12)::text,
    'CREATED', 'PRINT', $1, $2, $3, $4, $5) RETURNING id`, label, now.Add(-2*time.Hour), last, next, failures).Scan(&id)
					if err != nil {
						t.Fatal(err)
					}
					ids = append(ids, id)
					cases = append(cases, fmt.Sprintf("label %s, last checked %v, next check %v, %d failures", label, last, next, failures))
				}
			}
		}
	}
	shipments, err := db.ShipmentsByID(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	leased, err := db.LeaseStaleLabels(ctx, storage.Lease{Who: PageLessee, Now: now, Limit: len(ids), For: time.Minute}, now.Add(-pendingAfter))
	if err != nil {
		t.Fatal(err)
	}
	var leasedIDs []int64
	for _, s := range leased {
		leasedIDs = append(leasedIDs, s.ID)
	}
	for i, s := range shipments {
		if stale, lease := LabelStale(s, now, pendingAfter), slices.Contains(leasedIDs, s.ID); stale != lease {
			t.Errorf("%s: LabelStale %v, leased %v", cases[i], stale, lease)
		}
	}
}
