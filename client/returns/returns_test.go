package returns_test

import (
	"context"
	"testing"
	"time"

	"shipdesk/client/returns"
	"shipdesk/client/transport"
	"shipdesk/clock"
	"shipdesk/sandbox/sandboxtest"
)

var ctx = context.Background()

func newClient(t *testing.T, env *sandboxtest.Env, key string) (*returns.Client, *transport.Metrics) {
	m := transport.NewMetrics(clock.Real())
	c, err := returns.New(transport.Config{BaseURL: env.Returns, APIKey: key, Metrics: m, Retry: transport.Retry{Base: time.Millisecond, Max: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}

func request(typ string, twoWay bool, token string) returns.CreateRequest {
	return returns.CreateRequest{Type: typ, ShipmentFromCustomer: twoWay, InvoiceFileToken: token,
		Customer: returns.Customer{Name: "Marie Dvořáková", Email: "marie@example.com", Street: "Polní 7", City: "Kolín", Zip: "280 02", Country: "CZ"},
		Product:  returns.Product{TypeID: 1, ModelID: 1, Fault: "Does not spin"}}
}

func TestWarrantyFlowEndToEnd(t *testing.T) {
	env := sandboxtest.Start(t)
	c, _ := newClient(t, env, sandboxtest.ReturnsKey)
	types, err := c.ProductTypes(ctx)
	if err != nil || len(types) == 0 {
		t.Fatalf("types %v", err)
	}
	models, err := c.ProductModels(ctx, types[0].ID)
	if err != nil || len(models) == 0 || models[0].TypeID != types[0].ID {
		t.Fatalf("models %v", err)
	}
	if _, err := c.Create(ctx, request("warranty", true, "")); !transport.HasFieldErrors(err) || transport.FieldErrors(err)[0].Field != "invoice_file_token" {
		t.Errorf("warranty without proof: %v", err)
	}
	f, err := c.Upload(ctx, "proof.pdf", "application/pdf", []byte("%PDF-1.4\n%%EOF\n"))
	if err != nil || f.Token == "" {
		t.Fatalf("upload: %v", err)
	}
	if _, err := c.Upload(ctx, "proof.png", "image/png", []byte("%PDF-1.4\n")); !transport.HasFieldErrors(err) {
		t.Errorf("PDF named .png: %v", err)
	}
	cm, err := c.Create(ctx, request("warranty", true, f.Token))
	if err != nil || cm.Status != "waiting_for_goods" || len(cm.Files) != 1 {
		t.Fatalf("create: %+v %v", cm, err)
	}
	if _, err := c.AddActivity(ctx, cm.ID, true, "We received your claim."); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddActivity(ctx, cm.ID, false, "Check the drum bearing."); err != nil {
		t.Fatal(err)
	}
	env.Advance(31 * time.Minute)
	got, err := c.Get(ctx, cm.ID)
	if err != nil || got.Status != "processing" || len(got.Activities) != 2 || got.Activities[1].Public {
		t.Fatalf("after delivery: %+v %v", got, err)
	}
	yes := true
	out, err := c.Edit(ctx, returns.EditRequest{ID: cm.ID, Status: "outgoing", ShipmentToCustomer: &yes})
	if err != nil || out.Status != "outgoing" || len(out.Shipments) != 2 {
		t.Fatalf("outgoing: %+v %v", out, err)
	}
	if _, err := c.Edit(ctx, returns.EditRequest{ID: cm.ID, Status: "processing"}); !transport.IsInvalid(err) {
		t.Errorf("move back: %v", err)
	}
	page, err := c.List(ctx, returns.ListQuery{Type: "warranty", PerPage: 10})
	if err != nil || page.Total != 1 {
		t.Errorf("list: %+v %v", page, err)
	}
}

func TestRefusalsAndRetries(t *testing.T) {
	env := sandboxtest.Start(t)
	bad, _ := newClient(t, env, "nope")
	if _, err := bad.ProductTypes(ctx); !transport.IsUnauthorized(err) {
		t.Errorf("wrong key: %v", err)
	}
	c, m := newClient(t, env, sandboxtest.ReturnsKey)
	if _, err := c.Get(ctx, 4242); !transport.IsNotFound(err) {
		t.Errorf("unknown commission: %v", err)
	}
	env.Fault("/returns/api/v1/product-type", map[string]any{"error_rate": 1, "count": 2})
	if _, err := c.ProductTypes(ctx); err != nil {
		t.Errorf("read after two 503s: %v", err)
	}
	env.Fault("/returns/api/v1/commissions/create", map[string]any{"error_rate": 1, "count": 1})
	if _, err := c.Create(ctx, request("paid_repair", false, "")); !transport.IsTemporary(err) {
		t.Errorf("503 create: %v", err)
	}
	for _, x := range m.Counters() {
		if x.Op == "commissions/create" && x.Calls != 1 {
			t.Errorf("create was repeated: %d", x.Calls)
		}
	}
}
