package web_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/sandbox/sandboxtest"
	sbshop "shipdesk/sandbox/shoptet"
	"shipdesk/storage/pgtest"
)

// postHook posts a webhook as the shop does.
func postHook(t *testing.T, env *apptest.Env, body, signature string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, env.URL+"/hooks/shoptet", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if signature != "" {
		req.Header.Set("Shoptet-Webhook-Signature", signature)
	}
	return env.NewBrowser().Do(req).StatusCode
}

// waitFor polls until ok or a few seconds pass (the shop's notifications
// are delivered in the background).
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("never: %s", what)
}

// A connected shop's webhooks are registered at the dashboard's address
// with a key kept sealed in the database: a cancellation in the shop leaves
// the inbox at once (no sync runs); a post with a bad or missing signature
// is refused with 401 and reads nothing; an oversized one is refused; a
// good one is taken and its order read from the API. A second instance on
// the same database, which never registered anything, checks the shop's
// signature with the same key.
func TestShopWebhooksAreSignedWithAKeptKey(t *testing.T) {
	t.Parallel()
	db := pgtest.New(t)
	sb := sandboxtest.StartCounting(t)
	env := apptest.StartOnOptions(t, db, sb, apptest.Options{Hooks: true})
	env.SeedDesk()
	ctx := context.Background()
	if err := env.App.SeedDemoShop(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := env.App.DB.ShopConnection(ctx)
	if err != nil || c.HooksURL != env.URL+"/hooks/shoptet" || len(c.HookKeySealed) == 0 {
		t.Fatalf("the webhooks are not registered: %q %d %v", c.HooksURL, len(c.HookKeySealed), err)
	}
	key, err := env.App.Shop.HookKey(ctx)
	if err != nil || strings.Contains(string(c.HookKeySealed), key) {
		t.Fatalf("the key is not kept sealed: %v", err)
	}
	if body := env.SignedIn(identity.Manager).Get("/connection").Body; !strings.Contains(body, "tells shipdesk of each change at once") || strings.Contains(body, key) {
		t.Error("the Connection page does not say the webhooks are set up, or shows their key")
	}
	// The newest order waiting: first in the inbox.
	var code string
	if err := env.App.DB.SQL().QueryRow(`SELECT code FROM shop_orders WHERE state = 'waiting' ORDER BY created_at DESC, code DESC LIMIT 1`).Scan(&code); err != nil {
		t.Fatal(err)
	}
	clerk := env.SignedIn(identity.Clerk)
	if !strings.Contains(clerk.Get("/shipping/orders").Body, code) {
		t.Fatalf("order %s is not in the inbox", code)
	}
	sb.Control(http.MethodPost, "/sandbox/shoptet/orders/"+code+"/cancel", nil)
	waitFor(t, "the cancelled order read through its webhook", func() bool {
		o, err := env.App.DB.ShopOrderByCode(ctx, code)
		return err == nil && o.State == "cancelled"
	})
	if strings.Contains(clerk.Get("/shipping/orders").Body, code) {
		t.Error("the cancelled order is still in the inbox")
	}
	if now, _ := env.App.DB.ShopConnection(ctx); !now.SyncFrom.Equal(c.SyncFrom) || (now.SyncedAt != nil) != (c.SyncedAt != nil) {
		t.Error("a sync ran: the webhook alone should have read the order")
	}

	// Hostile posts: nothing is read from the shop for them.
	var other string
	if err := env.App.DB.SQL().QueryRow(`SELECT code FROM shop_orders WHERE state = 'waiting' ORDER BY code DESC LIMIT 1`).Scan(&other); err != nil {
		t.Fatal(err)
	}
	body := `{"eshopId":` + strconv.FormatInt(c.ShopID, 10) + `,"event":"order:update","eventCreated":"2026-01-05T10:00:00+0100","eventInstance":"` + other + `"}`
	orderPath := "/shoptet/api/orders/" + other
	before := sb.Requests(orderPath)
	for name, sig := range map[string]string{"missing": "", "bad": strings.Repeat("0", 40), "another key's": sbshop.Sign("not-the-key", []byte(body))} {
		if got := postHook(t, env, body, sig); got != 401 {
			t.Errorf("a %s signature: %d", name, got)
		}
	}
	if got := postHook(t, env, strings.Repeat("x", 20<<10), sbshop.Sign(key, []byte(strings.Repeat("x", 20<<10)))); got != 413 {
		t.Errorf("an oversized notification: %d", got)
	}
	if n := sb.Requests(orderPath); n != before {
		t.Errorf("a refused notification read the order: %d reads", n-before)
	}
	if got := postHook(t, env, body, sbshop.Sign(key, []byte(body))); got != 204 {
		t.Fatalf("a signed notification: %d", got)
	}
	if n := sb.Requests(orderPath); n != before+1 {
		t.Errorf("a signed notification read the order %d times", n-before)
	}

	// A restart: a second instance on the same database checks with the key.
	second := apptest.StartOnOptions(t, db, sb, apptest.Options{})
	if got := postHook(t, second, body, sbshop.Sign(key, []byte(body))); got != 204 {
		t.Errorf("the second instance refuses the shop's signature: %d", got)
	}
	if got := postHook(t, second, body, strings.Repeat("0", 40)); got != 401 {
		t.Errorf("the second instance takes a bad signature: %d", got)
	}
	if n := sb.Requests(orderPath); n != before+2 {
		t.Errorf("the second instance's notification read the order %d times", n-before-1)
	}
}

// Starting again registers nothing anew when the webhooks are registered at
// the same address: the key the shop signs with stays.
func TestShopWebhooksRegisteredOnce(t *testing.T) {
	t.Parallel()
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true, Hooks: true})
	env.SeedDesk()
	ctx := context.Background()
	if err := env.App.SeedDemoShop(ctx); err != nil {
		t.Fatal(err)
	}
	key, err := env.App.Shop.HookKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	env.App.ListenShop(ctx)
	if again, err := env.App.Shop.HookKey(ctx); err != nil || again != key {
		t.Errorf("the key changed at a start with the webhooks registered: %v", err)
	}
	// Forgotten (say registering failed before): the next start registers.
	if _, err := env.App.DB.SQL().Exec(`UPDATE shop_connections SET hooks_url = ''`); err != nil {
		t.Fatal(err)
	}
	env.App.ListenShop(ctx)
	c, _ := env.App.DB.ShopConnection(ctx)
	if again, _ := env.App.Shop.HookKey(ctx); c.HooksURL == "" || again == key {
		t.Errorf("not registered again: %q", c.HooksURL)
	}
}
