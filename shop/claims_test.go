package shop_test

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"shipdesk/claims"
	"shipdesk/i18n"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/upload"
)

// A claim on a parcel from the shop offers the order's items and its day,
// and the commission it becomes carries them: the item claimed and the day
// it was bought, not the day of the claim.
func TestClaimKnowsWhatWasBought(t *testing.T) {
	e := start(t)
	e.quiet()
	e.connect()
	code, sh := e.shipOne()
	cl := e.app.App.Claims
	cl.Purchases = e.svc
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token := base64.RawURLEncoding.EncodeToString(b)
	hash := sha256.Sum256([]byte(token))
	now := e.sb.Clock.Now()
	if _, err := e.app.App.DB.CreateClaimLink(e.ctx, storage.ClaimLink{ShipmentID: sh.ID, Email: "jana@example.cz", Language: "cs",
		CreatedAt: now, ExpiresAt: now.Add(72 * time.Hour)}, hash[:]); err != nil {
		t.Fatal(err)
	}
	st, err := cl.Open(e.ctx, token, "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	bought := e.kept(code).CreatedAt
	if len(st.Items) != 1 || st.Items[0].Code != "KV-17-TEF" || st.Bought == nil || !st.Bought.Equal(bought) {
		t.Fatalf("what the claim page offers: %+v %v", st.Items, st.Bought)
	}
	e.sb.Advance(48 * time.Hour) // the claim comes days after the purchase
	proof, err := upload.Spool(t.TempDir(), strings.NewReader("%PDF-1.4 doklad"), "doklad.pdf", claims.MaxFileBytes)
	if err != nil {
		t.Fatal(err)
	}
	f := claims.Form{Key: requestkey.New(), Kind: claims.KindDefect, Remedy: "repair", Description: "Nehřeje.", Item: "KV-17-TEF",
		Transport: "shop", Proof: &proof}
	f.Customer.Name = "Jana Nováková"
	if _, err := cl.File(e.ctx, token, "127.0.0.1", f); err != nil {
		t.Fatal(err)
	}
	var request, day string
	if err := e.app.App.DB.SQL().QueryRow(`SELECT request::text, request->'product'->>'purchase_date' FROM commissions ORDER BY id DESC LIMIT 1`).Scan(&request, &day); err != nil {
		t.Fatal(err)
	}
	if day != bought.In(i18n.Prague).Format("2006-01-02") || !strings.Contains(request, "KV-17-TEF") || !strings.Contains(request, code) {
		t.Errorf("the commission: bought %s, %s", day, request)
	}
}
