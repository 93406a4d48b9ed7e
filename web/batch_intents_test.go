package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/client/shipping"
	"shipdesk/desk"
	"shipdesk/identity"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// A batch records the intents of the rows it orders together in one
// statement, yet each row's intent and first attempt are stored before its
// create call reaches the service; every row is ordered once, its shipment
// recorded as created with the service's answer.
func TestBatchIntentsStoredBeforeTheirCalls(t *testing.T) {
	t.Parallel()
	db := pgtest.New(t)
	ctx := context.Background()
	var mu sync.Mutex
	var problems []string
	creates := map[string]int{}
	wrap := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/api/v1/shipments/create" {
				body, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
				var o shipping.Order
				_ = json.Unmarshal(body, &o)
				for _, s := range o.Shipments {
					got, err := db.ShipmentByReference(ctx, s.Reference)
					var attempts []storage.Attempt
					if err == nil {
						attempts, err = db.ShipmentAttempts(ctx, got.ID)
					}
					mu.Lock()
					creates[s.Reference]++
					if err != nil || got.State != storage.StateOrdering || len(attempts) != 1 {
						problems = append(problems, fmt.Sprintf("%s sent as %q with %d attempts (%v)", s.Reference, got.State, len(attempts), err))
					}
					mu.Unlock()
				}
			}
			next.ServeHTTP(w, r)
		})
	}
	env := apptest.StartOn(t, db, sandboxtest.StartThrough(t, "", wrap))
	if err := env.App.Desk.SeedDemo(ctx); err != nil {
		t.Fatal(err)
	}
	b := env.SignedIn(identity.Clerk)
	const n = 19 // two claims of eight and a part of one
	resp := upload(t, env, b, "intents.csv", benchOrders("INT", n), map[string]string{"handover": desk.HandoverOnDemand})
	m := batchPath.FindStringSubmatch(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusSeeOther || m == nil {
		t.Fatalf("import: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	if s := states(env.SettledBatch(t, id)); s[storage.RowPriced] != n {
		t.Fatalf("priced: %v", s)
	}
	if r := b.PostForm("/shipping/batches/"+m[1]+"/order", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("order: %d", r.StatusCode)
	}
	rows := env.SettledBatch(t, id)
	mu.Lock()
	defer mu.Unlock()
	for _, p := range problems {
		t.Error(p)
	}
	if len(creates) != n {
		t.Errorf("%d references sent, want %d", len(creates), n)
	}
	for _, r := range rows {
		if creates[r.Reference] != 1 {
			t.Errorf("line %d sent %d times", r.Line, creates[r.Reference])
		}
		if r.State != storage.RowOrdered || r.ShipmentID == nil {
			t.Fatalf("line %d: %s %s", r.Line, r.State, r.Error)
		}
		s, err := db.ShipmentByID(ctx, *r.ShipmentID)
		if err != nil || s.State != storage.StateCreated || s.Tracking() == "" || s.Reference != r.Reference {
			t.Errorf("line %d: shipment %+v %v", r.Line, s, err)
		}
		if a, err := db.ShipmentAttempts(ctx, s.ID); err != nil || len(a) != 1 || a[0].Outcome != storage.AttemptCreated {
			t.Errorf("line %d: attempts %+v %v", r.Line, a, err)
		}
	}
}
