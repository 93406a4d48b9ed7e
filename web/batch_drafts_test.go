package web_test

import (
	"context"
	"net/url"
	"sync"
	"testing"

	"shipdesk/identity"
	"shipdesk/storage"
)

// "Send as drafts" sends each ready row once, also when two clerks press it
// at the same time; rows with problems stay behind.
func TestBatchDraftsSendEachRowOnce(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	id := importOrders(t, env, b)
	rows := env.SettledBatch(t, id)
	priced := 0
	for _, r := range rows {
		if r.State == storage.RowPriced {
			priced++
		}
	}
	if priced == 0 {
		t.Fatal("no row was priced")
	}
	other := signIn(t, env, "clerk2", identity.Clerk)
	var wg sync.WaitGroup
	for _, post := range []func(){
		func() { b.PostForm("/shipping/batches/"+itoa(id)+"/drafts", url.Values{}) },
		func() { other.PostForm("/shipping/batches/"+itoa(id)+"/drafts", url.Values{}) },
	} {
		wg.Add(1)
		go func() { defer wg.Done(); post() }()
	}
	wg.Wait()
	rows, err := env.App.DB.BatchRows(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	drafted := map[int64]bool{}
	for _, r := range rows {
		switch {
		case r.State == storage.RowPriced && r.DraftID == nil:
			t.Errorf("line %d was not sent as a draft", r.Line)
		case r.State == storage.RowProblem && r.DraftID != nil:
			t.Errorf("line %d with problems went as a draft", r.Line)
		case r.DraftID != nil:
			if drafted[*r.DraftID] {
				t.Errorf("line %d shares draft %d with another row", r.Line, *r.DraftID)
			}
			drafted[*r.DraftID] = true
		}
	}
	sent, err := env.App.DB.Drafts(context.Background(), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(sent) != priced || len(drafted) != priced {
		t.Errorf("%d drafts sent, %d rows drafted, want %d each", len(sent), len(drafted), priced)
	}
}
