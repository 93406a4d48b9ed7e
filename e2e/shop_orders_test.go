package e2e

import (
	"context"
	"strings"
	"testing"
)

// The clerk opens the orders from the demo shop from the shipping desk: the
// orders waiting to ship are listed with what the customer chose, an order
// to a parcel point with cash on delivery shows its point and amount, and
// the page reads Czech after the language switch; screenshots in both
// languages at 1280, 768 and 390 px.
func TestClerkSeesTheShopsOrders(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	ctx := context.Background()
	if err := env.App.SeedDemoShop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := env.App.Shop.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	tab.Open("/shipping")
	tab.Submit(`[data-testid=orders-link]`)
	rows := tab.Texts(`[data-testid=order-row]`)
	if len(rows) == 0 {
		t.Fatal("no orders from the shop in the inbox")
	}
	atPoint := 0
	for i, point := range tab.Texts(`[data-testid=order-row] [data-testid=order-point]`) {
		if strings.TrimSpace(point) != "" && i < len(rows) {
			atPoint++
		}
	}
	if atPoint == 0 {
		t.Errorf("no order shows the parcel point chosen at checkout: %q", rows)
	}
	cod := 0
	for _, c := range tab.Texts(`[data-testid=order-row] [data-testid=order-cod]`) {
		if strings.ContainsAny(c, "0123456789") {
			cod++
		}
	}
	if cod == 0 {
		t.Errorf("no order shows its cash on delivery amount: %q", rows)
	}
	tab.shots("shop-orders-en")
	tab.toCzech()
	tab.wantText(`main h1`, "Objednávky z e-shopu")
	tab.shots("shop-orders-cs")
}
