package sandboxctl_test

import (
	"context"
	"testing"
	"time"

	"shipdesk/client/sandboxctl"
	"shipdesk/client/transport"
	"shipdesk/sandbox/sandboxtest"
)

func TestClockMovesForward(t *testing.T) {
	env := sandboxtest.Start(t)
	c, err := sandboxctl.New(transport.Config{BaseURL: env.URL})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	before, err := c.Now(ctx)
	if err != nil {
		t.Fatal(err)
	}
	after, err := c.Advance(ctx, 90)
	if err != nil {
		t.Fatal(err)
	}
	if d := after.Now.Sub(before.Now); d < 90*time.Minute || d > 91*time.Minute {
		t.Errorf("advanced by %s, want 90m", d)
	}
	if after.OffsetMinutes-before.OffsetMinutes != 90 {
		t.Errorf("offset %d → %d", before.OffsetMinutes, after.OffsetMinutes)
	}
}

func TestRefusedAdvanceNamesTheField(t *testing.T) {
	env := sandboxtest.Start(t)
	c, _ := sandboxctl.New(transport.Config{BaseURL: env.URL})
	_, err := c.Advance(context.Background(), 0)
	fe := transport.FieldErrors(err)
	if len(fe) != 1 || fe[0].Field != "minutes" {
		t.Fatalf("err %v, fields %+v", err, fe)
	}
}

func TestPayUnknownOrderIsNotFound(t *testing.T) {
	env := sandboxtest.Start(t)
	c, _ := sandboxctl.New(transport.Config{BaseURL: env.URL})
	if err := c.Pay(context.Background(), 999999); !transport.IsNotFound(err) {
		t.Fatalf("err %v", err)
	}
}

// The stored bank details of the key's account; a wrong key is refused.
func TestAccountHasStoredBankDetails(t *testing.T) {
	env := sandboxtest.Start(t)
	c, _ := sandboxctl.New(transport.Config{BaseURL: env.URL})
	b, err := c.Account(context.Background(), sandboxtest.ShippingKey)
	if err != nil || b.Account == "" || b.Code == "" || b.Currency == "" {
		t.Fatalf("account: %+v %v", b, err)
	}
	if _, err := c.Account(context.Background(), "not-a-key"); !transport.IsUnauthorized(err) {
		t.Errorf("a wrong key: %v", err)
	}
}
