package e2e

import (
	"context"
	"fmt"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/workbench"
)

// An agent records a withdrawal received 18 days after the purchase was
// delivered (days on the test clock): it is marked late and its refund is
// due in 2 days. A manager finds it on the home card and in the list of
// refunds, marks it paid after confirming, and reads who paid it and when.
func TestWithdrawalLateAndRefundPaid(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	page := withdrawalCommission(t, env) // only a withdrawal's commission takes one
	now := env.App.Upstream.Clock().Now().In(i18n.Prague)
	received, delivered := now.AddDate(0, 0, -12), now.AddDate(0, 0, -30)

	agent := newTab(t, env.URL)
	agent.SignIn("alice", env.AddUser("alice", identity.Agent))
	agent.Open(page)
	agent.toCzech()
	agent.shots("withdrawal-form-cs")
	agent.Fill("#amount", "1 250")
	agent.Fill("#account", "19-2000145399/0800")
	agent.Fill("#received", received.Format("2. 1. 2006"))
	agent.Fill("#delivered", delivered.Format("2. 1. 2006"))
	agent.Submit(`[data-testid=record-withdrawal]`)
	agent.WaitText(`[data-testid=wd-late]`, "podáno pozdě (18 dní po doručení)")
	agent.wantText(`[data-testid=wd-due]`, "zbývají 2 dny")
	agent.wantText(`[data-testid=wd-paid]`, "zatím nevyplaceno")
	agent.wantText(`[data-testid=wd-amount]`, "1\u00a0250\u00a0Kč")
	agent.shots("commission-cs")
	agent.Submit(`[data-testid=language] button`)
	agent.WaitText(`[data-testid=wd-late]`, "late (18 days after delivery)")
	agent.shots("commission-en")

	manager := newTab(t, env.URL)
	manager.SignIn("maria", env.AddUser("maria", identity.Manager))
	manager.Open("/")
	manager.WaitText(`[data-testid=attention] a[data-kind=refund_due]`, "1 refund near or past its due date")
	manager.Submit(`[data-testid=attention] a[data-kind=refund_due]`)
	manager.WaitText(`body`, "1,250.00 by")
	manager.Open("/returns/refunds")
	manager.wantText(`[data-testid=refund] [data-testid=days-left]`, "2 days left")
	manager.wantText(`[data-testid=refund] [data-testid=late]`, "late (18 days after delivery)")
	manager.wantText(`[data-testid=refund] [data-testid=account]`, "19-2000145399/0800")
	manager.shots("refunds-en")
	manager.toCzech()
	manager.wantText(`[data-testid=refund] [data-testid=amount]`, "1\u00a0250\u00a0Kč")
	manager.shots("refunds-cs")

	manager.Submit(`[data-testid=mark-paid]`)
	manager.wantText(`[data-testid=confirm]`, "Označení už nelze vzít zpět")
	manager.look("confirm-cs")
	manager.Submit(`[data-testid=confirm-yes]`)
	manager.WaitText(`[data-testid=refund] [data-testid=paid]`, "maria")
	manager.wantText(`[data-testid=refund] [data-testid=paid]`, "vyplaceno "+now.Format("2. 1. 2006"))
	manager.shots("refunds-paid-cs")
	manager.Open(page)
	manager.wantText(`[data-testid=wd-paid]`, "maria")
	manager.Open("/")
	if got := manager.Texts(`[data-testid=attention] a[data-kind=refund_due]`); len(got) != 0 {
		t.Errorf("the home card still counts the paid refund: %q", got)
	}
}

// withdrawalCommission creates a customer's withdrawal on the workbench (the
// demo has a claim and a repair) and returns its page.
func withdrawalCommission(t *testing.T, env *apptest.Env) string {
	t.Helper()
	ctx := context.Background()
	if err := env.App.Bench.SeedDemo(ctx); err != nil {
		t.Fatal(err)
	}
	_, models, err := env.App.DB.Products(ctx)
	if err != nil || len(models) == 0 {
		t.Fatalf("products: %v", err)
	}
	res, err := env.App.Bench.Create(ctx, workbench.Form{Key: requestkey.New(), Type: workbench.Withdrawal, TypeID: models[0].TypeID,
		ModelID: models[0].ID, Fault: "Nevyhovuje.", Purchase: "2026-10-20", Customer: workbench.Customer{Name: "Jan Novák",
			Email: "jan@example.cz", Phone: "+420 777 000 222", Street: "Lipová 3", City: "Brno", Zip: "602 00", Country: "CZ"}}, 0)
	if err != nil {
		t.Fatalf("a withdrawal: %v", err)
	}
	return fmt.Sprintf("/returns/commissions/%d", res.Commission.ID)
}
