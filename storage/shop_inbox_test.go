package storage_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

// The inbox's filters offer each value of its orders with how many it
// lists: an order shipped by us, cancelled or in a status not shipped is
// not counted, and a method or status is named as its newest order names it.
func TestShopInboxFacetsCountWhatTheInboxLists(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	connectShop(t, db)
	var orders []storage.ShopOrder
	for i := range 40 {
		o := shopOrder(fmt.Sprintf("F%03d", i), shopAt.Add(time.Duration(i)*time.Minute), storage.ShopWaiting)
		o.ShippingName, o.StatusName = "Zásilkovna", "Nová"
		if i%4 == 0 {
			o.ShippingGUID, o.ShippingName, o.Country, o.StatusID, o.StatusName = "ppl", "PPL", "SK", 2, "Vyřizuje se"
		}
		switch i % 10 {
		case 7:
			o.State = storage.ShopCancelled
		case 9:
			o.State = storage.ShopElsewhere
		}
		orders = append(orders, o)
	}
	orders[39].ShippingName = "Zásilkovna – výdejní místo" // the newest order of the method names it
	if err := db.StoreShopOrders(ctx, orders); err != nil {
		t.Fatal(err)
	}
	shipmentOf(t, db, "F036", "Z036") // a ppl order, SK, status 2: shipped by us
	shipping, statuses, countries, err := db.ShopInboxFacets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// 40 orders, 4 cancelled (7, 17, 27, 37), F036 shipped: 35; ppl are
	// 0, 4, …, 36 (10) less F036: 9.
	got := fmt.Sprint(shipping, statuses, countries)
	want := fmt.Sprint([]storage.ShopFacet{{Value: "ppl", Name: "PPL", Count: 9}, {Value: "zasilkovna", Name: "Zásilkovna – výdejní místo", Count: 26}},
		[]storage.ShopFacet{{Value: "-1", Name: "Nová", Count: 26}, {Value: "2", Name: "Vyřizuje se", Count: 9}},
		[]storage.ShopFacet{{Value: "CZ", Name: "CZ", Count: 26}, {Value: "SK", Name: "SK", Count: 9}})
	if got != want {
		t.Errorf("facets:\n got %s\nwant %s", got, want)
	}
}

// Each page of the inbox is read from an index in the page's order (no
// sort of the whole inbox), and its filters' counts from the covering index
// alone: at 10,000 orders both stay a few milliseconds.
func TestShopInboxPlansUseIndexes(t *testing.T) {
	db := pgtest.New(t)
	connectShop(t, db, "A1", "A2")
	if _, err := db.SQL().Exec(`VACUUM ANALYZE shop_orders`); err != nil { // the visibility map an index-only scan reads
		t.Fatal(err)
	}
	after := &storage.ShopInboxCursor{CreatedAt: shopAt, Code: "A2"}
	for name, c := range map[string]struct {
		q     storage.ShopInboxQuery
		index string
	}{
		"first":    {storage.ShopInboxQuery{}, "shop_orders_inbox_idx"},
		"later":    {storage.ShopInboxQuery{After: after}, "shop_orders_inbox_idx"},
		"day":      {storage.ShopInboxQuery{From: shopAt, To: shopAt.AddDate(0, 0, 1)}, "shop_orders_inbox_idx"},
		"shipping": {storage.ShopInboxQuery{Shipping: "ppl", After: after}, "shop_orders_inbox_shipping_idx"},
		"status":   {storage.ShopInboxQuery{Status: 2}, "shop_orders_inbox_status_idx"},
		"country":  {storage.ShopInboxQuery{Country: "SK"}, "shop_orders_inbox_country_idx"},
	} {
		stmt, args := storage.ShopInboxSQL(c.q)
		plan := planOf(t, db, stmt, args...)
		if !strings.Contains(plan, c.index) || strings.Contains(plan, "Sort") {
			t.Errorf("%s: the page is not read from %s in its order:\n%s", name, c.index, plan)
		}
	}
	if plan := planOf(t, db, storage.ShopInboxFacetsSQL); !strings.Contains(plan, "Index Only Scan using shop_orders_inbox_facets_idx") {
		t.Errorf("the filters' counts do not read the covering index alone:\n%s", plan)
	}
}

// planOf is a statement's plan with sequential scans off, so a small
// table's plan shows the index a big one would use.
func planOf(t *testing.T, db *storage.DB, stmt string, args ...any) string {
	t.Helper()
	tx, err := db.SQL().Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`SET LOCAL enable_seqscan = off`); err != nil {
		t.Fatal(err)
	}
	rows, err := tx.Query("EXPLAIN "+stmt, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	return strings.Join(plan, "\n")
}
