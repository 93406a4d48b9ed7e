package storage_test

import (
	"context"
	"slices"
	"testing"

	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

func TestCommissionPagesPutOverdueFirst(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	_, err := db.SQL().Exec(`
INSERT INTO commissions (request_key, reference, state, type, status, customer_name, request, created_at, deadline_at)
SELECT gen_random_uuid(), 'RC-' || i, 'created', CASE WHEN i % 3 = 0 THEN 'paid_repair' ELSE 'warranty' END, 'processing',
    'Customer ' || i, '{}', now() - i * interval '1 hour',
    CASE WHEN i % 3 = 0 THEN NULL ELSE now() + (i % 7 - 2) * interval '1 day' END
FROM generate_series(1, 25) AS i`)
	if err != nil {
		t.Fatal(err)
	}
	whole, _, err := db.ListCommissions(ctx, storage.CommissionFilter{Limit: 100})
	if err != nil || len(whole) != 25 {
		t.Fatalf("one page: %d %v", len(whole), err)
	}
	var want, got []int64
	for i, c := range whole {
		want = append(want, c.ID)
		if i > 0 && c.DeadlineAt != nil && (whole[i-1].DeadlineAt == nil || whole[i-1].DeadlineAt.After(*c.DeadlineAt)) {
			t.Errorf("row %d: deadlines out of order", i)
		}
	}
	if whole[0].DeadlineAt == nil || whole[24].DeadlineAt != nil {
		t.Error("running deadlines are not first")
	}
	f := storage.CommissionFilter{Limit: 7}
	for range 10 {
		page, next, err := db.ListCommissions(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range page {
			got = append(got, c.ID)
		}
		if next == "" {
			break
		}
		f.After = next
	}
	if !slices.Equal(got, want) {
		t.Errorf("pages %v\nwhole %v", got, want)
	}
}
