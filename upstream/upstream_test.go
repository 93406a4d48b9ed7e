package upstream_test

import (
	"context"
	"testing"

	"shipdesk/sandbox/sandboxtest"
	"shipdesk/upstream"
)

func TestCheckTellsGoodKeysFromBad(t *testing.T) {
	env := sandboxtest.Start(t)
	good, err := upstream.New(upstream.Config{ShippingURL: env.URL, ShippingKey: sandboxtest.ShippingKey, ReturnsURL: env.Returns, ReturnsKey: sandboxtest.ReturnsKey, Sandbox: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range good.Check(context.Background()) {
		if !r.OK || r.Message.String() != "key accepted" || r.BaseURL == "" {
			t.Errorf("good %s: %+v", r.Interface, r)
		}
	}
	bad, _ := upstream.New(upstream.Config{ShippingURL: env.URL, ShippingKey: "production-key", ReturnsURL: env.Returns, ReturnsKey: "x"})
	for _, r := range bad.Check(context.Background()) {
		if r.OK || r.Message.IsZero() {
			t.Errorf("bad %s: %+v", r.Interface, r)
		}
	}
	down, _ := upstream.New(upstream.Config{ShippingURL: "http://127.0.0.1:1", ReturnsURL: "http://127.0.0.1:1/returns"})
	for _, r := range down.Check(context.Background()) {
		if r.OK {
			t.Errorf("unreachable %s reported OK", r.Interface)
		}
	}
	if fs := down.Metrics.Failures(""); len(fs) == 0 {
		t.Error("failures are not kept for the connection page")
	}
	if _, err := upstream.New(upstream.Config{}); err == nil {
		t.Error("no URLs accepted")
	}
}
