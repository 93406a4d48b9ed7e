package workbench_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/returns"
	"shipdesk/client/transport"
	"shipdesk/clock"
	"shipdesk/i18n"
	"shipdesk/requestkey"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage"
	"shipdesk/storage/pgtest"
	"shipdesk/workbench"
)

type confirmEnv struct {
	t     *testing.T
	ctx   context.Context
	db    *storage.DB
	sb    *sandboxtest.Env
	clock *clock.Clock
	w     *workbench.Workbench
	agent int64
}

func startConfirm(t *testing.T) *confirmEnv {
	sb, db := sandboxtest.Start(t), pgtest.New(t)
	api, err := returns.New(transport.Config{BaseURL: sb.Returns, APIKey: sandboxtest.ReturnsKey,
		Retry: transport.Retry{Attempts: 2, Base: time.Millisecond, Max: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	clk := clock.Frozen(sandboxtest.Epoch)
	ctx := i18n.WithLang(context.Background(), i18n.English)
	if _, err := db.SaveSender(ctx, storage.Sender{Label: "Shop", Address: storage.Address{Company: "Kávovary Říčany s.r.o.",
		Street: "Masarykova 1", City: "Říčany", Zip: "251 01", Country: "CZ", Phone: "+420601000000", Email: "shop@example.cz"}}); err != nil {
		t.Fatal(err)
	}
	return &confirmEnv{t: t, ctx: ctx, db: db, sb: sb, clock: clk, w: workbench.New(db, api, clk, nil)}
}

// claim creates a warranty claim through the desk, as the new-commission form does.
func (e *confirmEnv) claim(fault string) storage.Commission {
	e.t.Helper()
	return e.claimWith(fault, nil)
}

// claimWith is claim with the form changed by edit first (nil: as it is).
func (e *confirmEnv) claimWith(fault string, edit func(*workbench.Form)) storage.Commission {
	e.t.Helper()
	products, err := e.w.Products(e.ctx)
	if err != nil || len(products) == 0 || len(products[0].Models) == 0 {
		e.t.Fatalf("products: %v", err)
	}
	f := workbench.Form{Key: requestkey.New(), Type: "warranty", TypeID: products[0].ID, ModelID: products[0].Models[0].ID,
		Fault: fault, Purchase: "2026-05-14", Remedy: "replacement", Language: "cs",
		Customer: workbench.Customer{Name: "Jiří Žďárský", Email: "jiri@example.cz", Country: "CZ"},
		File:     &workbench.File{Name: "receipt.pdf", Data: []byte("%PDF-1.4 receipt")}}
	if edit != nil {
		edit(&f)
	}
	res, err := e.w.Create(e.ctx, f, 0)
	if err != nil {
		e.t.Fatalf("create: %v", err)
	}
	return res.Commission
}

// A claim created gets its intake confirmation once; asking again returns it.
func TestIntakeConfirmationIssuedOnceAtCreation(t *testing.T) {
	e := startConfirm(t)
	c := e.claim("Nehřeje.")
	docs, err := e.db.DocumentsOf(e.ctx, c.ID)
	if err != nil || len(docs) != 1 || docs[0].Kind != storage.DocIntake || docs[0].Version != 1 {
		t.Fatalf("after creating: %+v, %v", docs, err)
	}
	if !docs[0].CreatedAt.Equal(e.clock.Now()) {
		t.Errorf("issued at %v, want the clock's %v", docs[0].CreatedAt, e.clock.Now())
	}
	name, pdf, err := e.w.Confirmation(e.ctx, c.ID, docs[0].ID)
	if err != nil || !bytes.HasPrefix(pdf, []byte("%PDF-")) || name != "potvrzeni-prijeti-"+c.Number+".pdf" {
		t.Fatalf("%q %d bytes %v", name, len(pdf), err)
	}
	again, err := e.w.IssueIntake(e.ctx, c.ID, 0)
	if err != nil || again.ID != docs[0].ID {
		t.Errorf("issued again: %+v %v", again, err)
	}
	if _, _, err := e.w.Confirmation(e.ctx, c.ID+1, docs[0].ID); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("another commission's path finds it: %v", err)
	}
	if _, err := e.w.IssueSettlement(e.ctx, c.ID, 0); apperr.CodeOf(err) != apperr.Conflict {
		t.Errorf("a settlement confirmation before settling: %v", err)
	}
}

// An agreed extension moves the deadline, survives a sync, and issues
// version 2; version 1 keeps its bytes.
func TestExtensionIssuesANewVersion(t *testing.T) {
	e := startConfirm(t)
	c := e.claim("Nehřeje.")
	first, err := e.db.LatestDocument(e.ctx, c.ID, storage.DocIntake)
	if err != nil || c.DeadlineAt == nil {
		t.Fatalf("%v %v", err, c.DeadlineAt)
	}
	today := e.clock.Now().In(i18n.Prague).Format("2006-01-02")
	later := c.DeadlineAt.In(i18n.Prague).AddDate(0, 0, 14).Format("2006-01-02")
	tomorrow := e.clock.Now().In(i18n.Prague).AddDate(0, 0, 1).Format("2006-01-02")
	for _, bad := range []struct {
		ext   workbench.Extension
		field string
	}{
		{workbench.Extension{To: c.DeadlineAt.In(i18n.Prague).Format("2006-01-02"), AgreedOn: today}, "extended_to"},
		{workbench.Extension{To: later, AgreedOn: tomorrow}, "agreed_on"},
		{workbench.Extension{To: "a\x00b", AgreedOn: today}, "extended_to"},
		{workbench.Extension{To: later, AgreedOn: "\xff\xfe"}, "agreed_on"},
		{workbench.Extension{To: "31. 2. 2027", AgreedOn: today}, "extended_to"},
		{workbench.Extension{To: later, AgreedOn: "9999-12-31"}, "agreed_on"},
	} {
		if _, err := e.w.ExtendDeadline(e.ctx, c.ID, bad.ext, 0); apperr.ProblemsOf(err)[bad.field].IsZero() {
			t.Errorf("%+v: %v", bad.ext, err)
		}
	}
	doc, err := e.w.ExtendDeadline(e.ctx, c.ID, workbench.Extension{To: later, AgreedOn: today}, 0)
	if err != nil || doc.Version != 2 {
		t.Fatalf("extend: %+v %v", doc, err)
	}
	after, _ := e.db.CommissionByID(e.ctx, c.ID)
	if after.DeadlineAt == nil || after.DeadlineAt.In(i18n.Prague).Format("2006-01-02") != later {
		t.Errorf("deadline %v, want %s", after.DeadlineAt, later)
	}
	if _, err := e.w.Refresh(e.ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	synced, _ := e.db.CommissionByID(e.ctx, c.ID)
	if synced.DeadlineAt == nil || !synced.DeadlineAt.Equal(*after.DeadlineAt) {
		t.Errorf("a sync undid the extension: %v, want %v", synced.DeadlineAt, after.DeadlineAt)
	}
	kept, err := e.db.DocumentByID(e.ctx, c.ID, first.ID)
	if err != nil || !bytes.Equal(kept.PDF, first.PDF) {
		t.Errorf("version 1 changed: %v", err)
	}
	docs, _ := e.db.DocumentsOf(e.ctx, c.ID)
	if len(docs) != 2 {
		t.Errorf("%d documents, want 2", len(docs))
	}
}

// Settling the claim issues its settlement confirmation once; the intake
// confirmation issued earlier keeps its bytes.
func TestSettlementConfirmationIssuedWhenSettled(t *testing.T) {
	e := startConfirm(t)
	c := e.claim("Nehřeje.")
	intake, _ := e.db.LatestDocument(e.ctx, c.ID, storage.DocIntake)
	if _, err := e.w.Move(e.ctx, c.ID, "processing", workbench.Resolution{}, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := e.w.Move(e.ctx, c.ID, "closed", workbench.Resolution{Code: "rejected", Reason: "Pád: prasklý kryt."}, 0); err != nil {
		t.Fatal(err)
	}
	docs, _ := e.db.DocumentsOf(e.ctx, c.ID)
	if len(docs) != 2 || docs[1].Kind != storage.DocSettlement {
		t.Fatalf("%+v", docs)
	}
	name, pdf, err := e.w.LatestConfirmation(e.ctx, c.ID, storage.DocSettlement)
	if err != nil || name != "potvrzeni-vyrizeni-"+c.Number+".pdf" || !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Errorf("for a mail: %q %d bytes %v", name, len(pdf), err)
	}
	again, err := e.w.IssueSettlement(e.ctx, c.ID, 0)
	if err != nil || again.ID != docs[1].ID {
		t.Errorf("issued again: %+v %v", again, err)
	}
	kept, _ := e.db.DocumentByID(e.ctx, c.ID, intake.ID)
	if !bytes.Equal(kept.PDF, intake.PDF) {
		t.Error("the intake confirmation changed")
	}
}
