package storage_test

import (
	"context"
	"testing"

	"shipdesk/storage"
	"shipdesk/storage/pgtest"
)

func TestShopIdentityRoundTrip(t *testing.T) {
	db := pgtest.New(t)
	ctx := context.Background()
	want := storage.ShopIdentity{Name: "Elektro Novák s.r.o.", Web: "https://elektro.example", ReplyEmail: "obchod@elektro.example", Phone: "+420777123456"}
	if err := db.SaveShopIdentity(ctx, want); err != nil {
		t.Fatal(err)
	}
	if err := db.SaveShopLogo(ctx, []byte("png"), "image/png"); err != nil {
		t.Fatal(err)
	}
	got, err := db.ShopIdentity(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want.LogoType = "image/png"
	if got != want || !got.HasLogo() {
		t.Fatalf("identity = %+v, want %+v", got, want)
	}
	if err := db.SaveShopLogo(ctx, nil, "image/png"); err != nil {
		t.Fatal(err)
	}
	if logo, typ, err := db.ShopLogo(ctx); err != nil || logo != nil || typ != "" {
		t.Fatalf("removed logo = %q %q %v", logo, typ, err)
	}
}
