package shop_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"shipdesk/apperr"
	sbshop "shipdesk/sandbox/shoptet"
	"shipdesk/shop"
	"shipdesk/storage"
)

// The shop is connected with its private token, checked with the shop; the
// token is kept sealed, never shown again nor printed or logged; a token the
// shop refuses, or no token, is said on its field and keeps nothing.
func TestConnectSealsTheToken(t *testing.T) {
	e := start(t)
	bad := shop.ConnectForm{Platform: "shoptet", BaseURL: e.sb.URL + "/shoptet", Token: shop.NewToken("not-the-token")}
	_, err := e.svc.Connect(e.ctx, 0, bad)
	if apperr.ProblemsOf(err)["token"].Key != "shop.err.token_refused" {
		t.Fatalf("a refused token: %v %v", err, apperr.ProblemsOf(err))
	}
	for _, f := range []shop.ConnectForm{{Platform: "shoptet", BaseURL: e.sb.URL + "/shoptet"},
		{Platform: "shoptet", BaseURL: e.sb.URL + "/shoptet", Token: shop.NewToken("a b\x00")}} {
		if _, err := e.svc.Connect(e.ctx, 0, f); apperr.ProblemsOf(err)["token"].IsZero() {
			t.Errorf("no token or none of a token's shape: %v", err)
		}
	}
	if _, err := e.svc.Connect(e.ctx, 0, shop.ConnectForm{Platform: "woo", BaseURL: "ftp://x", Token: shop.NewToken("t")}); len(apperr.ProblemsOf(err)) != 2 {
		t.Errorf("an unknown platform and address: %v", apperr.ProblemsOf(err))
	}
	if _, err := e.app.App.DB.ShopConnection(e.ctx); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("kept after a failure: %v", err)
	}
	token := shop.NewToken(sbshop.Token)
	c, err := e.svc.Connect(e.ctx, 0, shop.ConnectForm{Platform: "shoptet", BaseURL: e.sb.URL + "/shoptet/", Token: token})
	if err != nil {
		t.Fatal(err)
	}
	if c.Shop.ID != sbshop.EshopID || c.Shop.Name == "" || len(c.Statuses) != len(sbshop.Statuses) ||
		len(c.Shipping) != len(sbshop.ShippingMethods) || len(c.Payment) != len(sbshop.PaymentMethods) {
		t.Fatalf("the shop as connected: %+v", c)
	}
	if len(c.ShipStatuses) == 0 || c.BaseURL != e.sb.URL+"/shoptet" {
		t.Errorf("its open statuses are shipped until a manager says; the address without its slash: %+v %q", c.ShipStatuses, c.BaseURL)
	}
	var cod []string
	for _, m := range c.Payment {
		if m.COD {
			cod = append(cod, m.Name)
		}
	}
	if fmt.Sprint(cod) != "[Dobírka]" {
		t.Errorf("cash on delivery as the shop says: %v", cod)
	}
	kept, err := e.app.App.DB.ShopConnection(e.ctx)
	if err != nil || bytes.Contains(kept.TokenSealed, []byte(sbshop.Token)) || len(kept.TokenSealed) < len(sbshop.Token)+16 {
		t.Fatalf("the token at rest: %q %v", kept.TokenSealed, err)
	}
	if opened, err := sealer(t).Open(kept.TokenSealed); err != nil || opened.Reveal() != sbshop.Token {
		t.Fatalf("the sealed token opens with the dashboard's key: %v", err)
	}
	var log bytes.Buffer
	slog.New(slog.NewTextHandler(&log, nil)).Info("connected", "token", token, "form", shop.ConnectForm{Token: token})
	doc, _ := json.Marshal(map[string]any{"token": token})
	for what, s := range map[string]string{"%v": fmt.Sprintf("%v", token), "%+v of the form": fmt.Sprintf("%+v", shop.ConnectForm{Token: token}),
		"%#v": fmt.Sprintf("%#v", token), "%s": fmt.Sprintf("%s", token), "log": log.String(), "JSON": string(doc), "connection": fmt.Sprintf("%+v", c)} {
		if strings.Contains(s, sbshop.Token) {
			t.Errorf("the token in %s: %s", what, s)
		}
	}
}

// The demo seeding connects the demo shop and maps each shipping method to
// its carrier's service that delivers as it says; a personal pickup is not
// shipped by us, the method without a carrier stays for a manager; the
// orders arrive with it.
func TestSeedDemoConnectsAndMaps(t *testing.T) {
	e := start(t)
	e.connect()
	c, err := e.svc.Connection(e.ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range c.Shipping {
		want := sbshop.ShippingMethods[i]
		switch {
		case want.PersonalPickup && m.Mapping != storage.MapNotOurs,
			want.Carrier == "" && !want.PersonalPickup && m.Mapping != storage.MapUnmapped,
			want.Carrier != "" && (m.Mapping != storage.MapService || !strings.EqualFold(m.Carrier, want.Carrier) || m.ToPoint != want.ToPoint || m.ServiceID == 0):
			t.Errorf("%s mapped as %+v", want.Name, m)
		}
	}
	if c.Handover == nil || *c.Handover != sbshop.StatusSent {
		t.Errorf("the hand-over's status: %v", c.Handover)
	}
	if in := e.inbox(shop.InboxQuery{}); len(in) < 50 {
		t.Errorf("the demo's orders in the inbox: %d", len(in))
	}
	if err := e.svc.SeedDemo(e.ctx, e.demo()); err != nil {
		t.Fatal("seeding again changes nothing: ", err)
	}
}
