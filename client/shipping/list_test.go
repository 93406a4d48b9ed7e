package shipping_test

import (
	"encoding/json"
	"testing"

	"shipdesk/client/shipping"
	"shipdesk/sandbox/sandboxtest"
)

// The client pages shipments/list by offset as the service does and reads
// data keyed by tracking number: 130 shipments come in two pages, newest
// first, in both answer shapes.
func TestListPagesByOffsetAndReadsDataKeyedByTrackingNumber(t *testing.T) {
	for _, shapes := range []string{"documented", "minimal"} {
		t.Run(shapes, func(t *testing.T) {
			env := sandboxtest.StartShapes(t, shapes)
			c, m := client(t, env, sandboxtest.ShippingKey)
			body, _ := json.Marshal(order(shipment("ups", "BULK")))
			made, err := env.Sandbox.Shipping.CreateMany(sandboxtest.ShippingKey, body, 130)
			if err != nil {
				t.Fatal(err)
			}
			first, err := c.List(ctx, shipping.ListQuery{})
			if err != nil || len(first.Shipments) != shipping.ListStep || first.Last || first.Next() != 100 {
				t.Fatalf("first page: %d shipments, last %v, %v", len(first.Shipments), first.Last, err)
			}
			if s := first.Shipments[0]; s.TrackingNumber != made[129].TrackingNumber || s.Status == "" || s.DeliveryDate == "" {
				t.Errorf("first listed %+v, want the newest %s with status and delivery date", s, made[129].TrackingNumber)
			}
			all, err := c.ListAll(ctx, shipping.ListQuery{})
			if err != nil || len(all) != 130 {
				t.Fatalf("all: %d %v", len(all), err)
			}
			seen := map[string]bool{}
			for _, s := range all {
				seen[s.TrackingNumber] = true
			}
			for _, mk := range made {
				if !seen[mk.TrackingNumber] {
					t.Errorf("%s not listed", mk.TrackingNumber)
				}
			}
			if n := calls(m, "shipments/list"); n != 3 {
				t.Errorf("%d list calls, want 1 + 2 pages", n)
			}
			if ref, err := c.ListAll(ctx, shipping.ListQuery{Reference: made[5].Reference}); err != nil || len(ref) != 1 || ref[0].TrackingNumber != made[5].TrackingNumber {
				t.Errorf("by reference: %+v %v", ref, err)
			}
		})
	}
}
