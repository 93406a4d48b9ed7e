package main

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"

	"shipdesk/client/shipping"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/upstream"
)

// rowStates counts the batch's rows by state.
func rowStates(t *testing.T, db *sqlx.DB, batch int64) map[string]int {
	t.Helper()
	var rows []struct {
		State string `db:"state"`
		N     int    `db:"n"`
	}
	if err := db.Select(&rows, `SELECT state, count(*) AS n FROM batch_rows WHERE batch_id = $1 GROUP BY state`, batch); err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, r := range rows {
		out[r.State] = r.N
	}
	return out
}

// waitFor polls cond every 100 ms until it holds or a minute passes; when it
// does not, the failure says what the optional show returns.
func waitFor(t *testing.T, what string, cond func() bool, show ...func() string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			detail := ""
			for _, f := range show {
				detail += "\n" + f()
			}
			t.Fatalf("waited a minute for %s%s", what, detail)
		}
	}
}

// A `serve` killed outright while it orders a batch leaves rows claimed and
// orders in flight. The next instance to start takes the batch up by itself
// (nobody opens the page) and orders every row once: the service holds one
// order per row, and each row is bound to it.
func TestBatchOrderSurvivesAKilledServer(t *testing.T) {
	c := newCluster(t)
	first := c.serve()
	db, sb := c.DB, c.SB
	clerk := c.clerk(first.URL)
	batch := batchOf(t, upload(t, clerk, first.URL, "orders.csv", exampleOrders(t), map[string]string{"handover": "ONDEMAND"}))
	waitFor(t, "the batch priced", func() bool {
		s := rowStates(t, db, batch)
		return s["pricing"] == 0 && s["priced"] > 0
	})
	priced := rowStates(t, db, batch)["priced"]

	// Each order takes a second and a half: the first instance dies with some
	// rows ordered, some in flight and the rest queued.
	sb.Fault("/api/v1/shipments/create", map[string]any{"latency_ms": 1500, "count": 1000})
	if r := post(t, clerk, first.URL, fmt.Sprintf("/shipping/batches/%d/order", batch), "application/x-www-form-urlencoded", nil); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("order all: %d", r.StatusCode)
	}
	waitFor(t, "the first orders", func() bool { return rowStates(t, db, batch)["ordered"] > 0 })
	first.kill()
	before := rowStates(t, db, batch)
	t.Logf("killed with rows %v", before)
	if before["ordering"] == 0 {
		t.Fatalf("the batch was not cut midway: %v", before)
	}

	second := c.serve()
	waitFor(t, "the second instance to finish the batch", func() bool {
		s := rowStates(t, db, batch)
		return s["ordering"] == 0
	})
	after := rowStates(t, db, batch)
	if after["ordered"] != priced {
		t.Fatalf("rows after the restart %v, want all %d priced rows ordered\n%s", after, priced, second.log())
	}

	// Let every order's settle window pass, so the reconciler has bound each.
	ctx := context.Background()
	up, err := upstream.New(upstream.Config{ShippingURL: sb.URL, ShippingKey: sandboxtest.ShippingKey, ReturnsURL: sb.Returns,
		ReturnsKey: sandboxtest.ReturnsKey, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var refs []struct {
		Reference string `db:"reference"`
		State     string `db:"state"`
		Tracking  string `db:"tracking"`
	}
	waitFor(t, "every shipment bound to its order", func() bool {
		refs = refs[:0]
		if err := db.Select(&refs, `SELECT s.reference, s.state, coalesce(s.tracking_number, '') AS tracking
FROM batch_rows r JOIN shipments s ON s.id = r.shipment_id WHERE r.batch_id = $1`, batch); err != nil {
			t.Fatal(err)
		}
		for _, r := range refs {
			// An order the kill cut before it reached the service is proved
			// missing once its deadline passed: settled too, and checked below.
			if r.State != "created" && r.State != "missing" {
				return false
			}
		}
		return len(refs) == priced
	}, func() string { return fmt.Sprintf("shipments %+v\n%s", refs, second.log()) })
	for _, r := range refs {
		held, err := up.Shipping.ListAll(ctx, shipping.ListQuery{Reference: r.Reference})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case r.State == "missing" && len(held) != 0:
			t.Errorf("reference %s: called missing, but the service holds %d orders", r.Reference, len(held))
		case r.State == "created" && (len(held) != 1 || held[0].TrackingNumber != r.Tracking):
			t.Errorf("reference %s: the service holds %d orders, the row's shipment is bound to %q", r.Reference, len(held), r.Tracking)
		}
	}
}
