package storage_test

import (
	"context"
	"testing"
	"time"

	"shipdesk/apperr"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

func TestKeptUploadsBelongToTheirUploaderAndAreOnlyPrunedUnused(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	agent := func(name string) int64 {
		var id int64
		if err := db.SQL().QueryRow(`INSERT INTO users (username, role, password_hash) VALUES ($1, 'agent', 'x') RETURNING id`, name).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	alice, bob := agent("alice"), agent("bob")
	save := func() int64 {
		up, err := db.SaveUpload(ctx, "receipt.pdf", "application/pdf", []byte("%PDF-1.4"), &alice)
		if err != nil {
			t.Fatal(err)
		}
		return up.ID
	}
	abandoned, attached, ordering := save(), save(), save()

	if _, err := db.KeptUpload(ctx, abandoned, alice); err != nil {
		t.Errorf("alice's own kept file: %v", err)
	}
	if _, err := db.KeptUpload(ctx, abandoned, bob); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("bob reads alice's kept file: %v, want NotFound", err)
	}

	c, _, _, err := db.BeginCommission(ctx, storage.Commission{RequestKey: "00000000-0000-4000-8000-000000000001", Reference: "RC-1", Type: "warranty",
		CustomerName: "A", Request: []byte(`{}`), UploadID: &attached}, time.Now(), time.Now().Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AttachUpload(ctx, attached, c.ID); err != nil {
		t.Fatal(err)
	}
	// An order being placed names its file before attaching it.
	if _, _, _, err := db.BeginCommission(ctx, storage.Commission{RequestKey: "00000000-0000-4000-8000-000000000002", Reference: "RC-2", Type: "warranty",
		CustomerName: "B", Request: []byte(`{}`), UploadID: &ordering}, time.Now(), time.Now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.KeptUpload(ctx, attached, alice); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("a commission's file read as kept: %v", err)
	}

	if _, err := db.SQL().Exec(`UPDATE uploads SET created_at = now() - interval '2 days'`); err != nil {
		t.Fatal(err)
	}
	n, err := db.PruneKeptUploads(ctx, 24*time.Hour)
	if err != nil || n != 1 {
		t.Fatalf("pruned %d (%v), want only the abandoned file", n, err)
	}
	if _, err := db.UploadByID(ctx, abandoned); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("abandoned file still there: %v", err)
	}
	for _, id := range []int64{attached, ordering} {
		if _, err := db.UploadByID(ctx, id); err != nil {
			t.Errorf("file %d of a commission: %v", id, err)
		}
	}
}
