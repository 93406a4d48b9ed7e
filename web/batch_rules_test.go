package web_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"shipdesk/desk"
	"shipdesk/shiprules"
	"shipdesk/storage"
)

// A batch's rows take the offer the managers' rules choose: with a "fastest"
// rule every priced row holds the earliest delivery among the offers it may
// take, and says which rule chose it; without rules the cheapest stays.
func TestBatchRowsFollowTheManagersRules(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	ctx := context.Background()
	if _, err := env.App.DB.SaveShipRule(ctx, shiprules.Rule{Name: "Fastest first", COD: shiprules.CODAny, Delivery: shiprules.DeliveryAny, Choice: shiprules.Fastest}); err != nil {
		t.Fatal(err)
	}
	rows := env.SettledBatch(t, importOrders(t, env, b))
	priced := 0
	for _, r := range rows {
		if r.State != storage.RowPriced {
			continue
		}
		priced++
		var notes []desk.RowOffer
		if err := json.Unmarshal(r.Offers, &notes); err != nil {
			t.Fatalf("line %d: offers: %v", r.Line, err)
		}
		var chosen *desk.RowOffer
		for i := range notes {
			if notes[i].Choice == r.Chosen {
				chosen = &notes[i]
			}
		}
		if chosen == nil {
			t.Fatalf("line %d: the chosen offer %q is not among its offers", r.Line, r.Chosen)
		}
		for _, n := range notes {
			if n.Eligible && n.Offer.Delivery < chosen.Offer.Delivery {
				t.Errorf("line %d: %s delivers %s, earlier than the chosen %s on %s", r.Line, n.Offer.Service, n.Offer.Delivery, chosen.Offer.Service, chosen.Offer.Delivery)
			}
		}
		if !strings.HasPrefix(chosen.Why.Key, "rules.") {
			t.Errorf("line %d: the chosen offer says %q, not which rule chose it", r.Line, chosen.Why.Key)
		}
	}
	if priced == 0 {
		t.Fatal("no row was priced")
	}
}
