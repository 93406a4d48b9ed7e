package web_test

import (
	"net/url"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// A withdrawal's commission offers no repair: its goods are received (not
// "Start processing"), and once received it is closed or cancelled, never
// sent back to the customer (the server refuses that too). Only a withdrawal
// shows the withdrawal form; a warranty claim shows none and refuses one
// posted anyway, storing nothing.
func TestWithdrawalOffersNoRepairAndOnlyItTakesTheForm(t *testing.T) {
	t.Parallel()
	env, agent := benchEnv(t)
	claimForm := commissionForm(t, env)
	wdForm := commissionForm(t, env)
	wdForm["type"], wdForm["customer_name"] = "withdrawal", "Jan Novák"
	var pages [2]string
	for i, f := range []map[string]string{claimForm, wdForm} {
		resp := postMultipart(t, env, agent, f, "receipt.pdf", pdfBytes)
		if resp.StatusCode != 303 {
			t.Fatalf("create %s: %d %s", f["type"], resp.StatusCode, problemsOf(resp.Body))
		}
		pages[i] = resp.Header.Get("Location")
	}
	claim, wd := page(t, agent.Get(pages[0]).Body), page(t, agent.Get(pages[1]).Body)
	if claim.Find(`[data-testid=withdrawal]`).Length() != 0 {
		t.Error("a warranty claim shows the withdrawal form")
	}
	if wd.Find(`[data-testid=withdrawal] form`).Length() != 1 {
		t.Error("a withdrawal has no withdrawal form")
	}
	if got := claim.Find(`[data-testid=move-processing]`).Text(); got != "Start processing" {
		t.Errorf("the claim's first move reads %q", got)
	}
	if got := wd.Find(`[data-testid=move-processing]`).Text(); got != "Goods received" {
		t.Errorf("the withdrawal's first move reads %q", got)
	}
	if strings.Contains(wd.Find(`[data-testid=moves]`).Text(), "Start processing") {
		t.Error("a withdrawal offers to start a repair")
	}

	// A withdrawal posted on the claim anyway: refused, nothing stored.
	r := agent.PostForm(pages[0]+"/withdrawal", url.Values{"key": {"k-claim"}, "amount": {"1 250"}, "currency": {"CZK"},
		"account": {"19-2000145399/0800"}, "received": {"2026-11-20"}})
	if r.StatusCode == 303 {
		if !strings.Contains(agent.Get(r.Header.Get("Location")).Body, "only on a withdrawal commission") {
			t.Errorf("a withdrawal on a claim: %d, no refusal said", r.StatusCode)
		}
	} else if !strings.Contains(r.Body, "only on a withdrawal commission") {
		t.Errorf("a withdrawal on a claim: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	var n int
	if err := env.App.DB.SQL().QueryRow(`SELECT count(*) FROM withdrawals`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d withdrawals stored (%v)", n, err)
	}

	// Received, the withdrawal is closed or cancelled; sending it back is refused.
	if r := agent.PostForm(pages[1]+"/move", url.Values{"to": {"processing"}}); r.StatusCode != 303 {
		t.Fatalf("goods received: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	wd = page(t, agent.Get(pages[1]).Body)
	if wd.Find(`[data-testid=move-outgoing]`).Length() != 0 || wd.Find(`[data-testid=move-closed]`).Length() == 0 {
		t.Errorf("a received withdrawal's moves: %q", wd.Find(`[data-testid=moves]`).Text())
	}
	agent.PostForm(pages[1]+"/move", url.Values{"to": {"outgoing"}, "resolution": {"repaired"}, "reason": {"Sent back."}})
	if status := commissionStatus(t, env, pages[1]); status != "processing" {
		t.Errorf("after a refused send-back the withdrawal is %q", status)
	}
	if r := env.SignedIn(identity.Clerk).Get(pages[1]); r.StatusCode != 403 {
		t.Errorf("a clerk: %d", r.StatusCode)
	}
}

// commissionStatus is the stored status of the commission of a page's path.
func commissionStatus(t *testing.T, env *apptest.Env, path string) string {
	t.Helper()
	var status string
	if err := env.App.DB.SQL().QueryRow(`SELECT status FROM commissions WHERE id = $1`, strings.TrimPrefix(path, "/returns/commissions/")).Scan(&status); err != nil {
		t.Fatal(err)
	}
	return status
}
