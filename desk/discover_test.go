package desk_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"shipdesk/sandbox/sandboxtest"
)

// Discover pages the service's list as the service pages it: by offset in
// steps of 100. 130 shipments made elsewhere come in two pages, all of them.
func TestDiscoverPagesTheListByOffset(t *testing.T) {
	e := start(t)
	ctx := context.Background()
	body, _ := json.Marshal(map[string]any{"currency": "CZK", "payment_type": "CREDIT", "shipments": []any{map[string]any{
		"type": "ONDEMAND", "carrier": "fedex", "reference": "WEB",
		"from":     map[string]any{"company": "Shop", "street": "A 1", "city": "Praha", "zip": "110 00", "country": "CZ", "phone": "+420601000000"},
		"to":       map[string]any{"firstname": "Ota", "surname": "Kovář", "street": "C 3", "city": "Olomouc", "zip": "779 00", "country": "CZ", "phone": "+420603000000"},
		"packages": []any{map[string]any{"weight": 3}}}}})
	if _, err := e.sb.Sandbox.Shipping.CreateMany(sandboxtest.ShippingKey, body, 130); err != nil {
		t.Fatal(err)
	}
	e.sb.Advance(40 * time.Minute) // active now
	f := e.refresher()
	first, err := f.Discover(ctx, 0)
	if err != nil || first.Imported != 100 || first.Last || first.Next != 100 {
		t.Fatalf("first page: %+v %v", first, err)
	}
	second, err := f.Discover(ctx, first.Next)
	if err != nil || second.Imported != 30 || !second.Last {
		t.Fatalf("second page: %+v %v", second, err)
	}
	if got, _ := e.db.RecentShipments(ctx, 200); len(got) != 130 {
		t.Errorf("%d shipments stored, want 130", len(got))
	}
}
