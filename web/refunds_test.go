package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/identity"
)

// The refunds' routes: nobody signed out, no clerk; agents record a
// withdrawal on a commission but neither list nor pay refunds; managers do all.
func TestRefundRoutesRefuseAnonymousAndWrongRoles(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	anon := env.NewBrowser()
	reads := []string{"/returns/refunds", "/returns/refunds?show=paid", "/returns/refunds.csv", "/returns/refunds/1/paid"}
	posts := []string{"/returns/refunds/1/paid", "/returns/commissions/1/withdrawal"}
	for _, p := range reads {
		if r := anon.Get(p); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous GET %s: %d %s", p, r.StatusCode, r.Header.Get("Location"))
		}
	}
	for _, p := range posts {
		if r := anon.PostForm(p, url.Values{"confirm": {"yes"}}); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous POST %s: %d %s", p, r.StatusCode, r.Header.Get("Location"))
		}
	}
	clerk, agent := env.SignedIn(identity.Clerk), env.SignedIn(identity.Agent)
	for _, p := range reads {
		for role, b := range map[identity.Role]*apptest.Browser{identity.Clerk: clerk, identity.Agent: agent} {
			if r := b.Get(p); r.StatusCode != 403 {
				t.Errorf("%s GET %s: %d, want 403", role, p, r.StatusCode)
			}
		}
	}
	for _, p := range posts {
		if r := clerk.PostForm(p, url.Values{"confirm": {"yes"}}); r.StatusCode != 403 {
			t.Errorf("clerk POST %s: %d, want 403", p, r.StatusCode)
		}
	}
	if r := agent.PostForm("/returns/refunds/1/paid", url.Values{"confirm": {"yes"}}); r.StatusCode != 403 {
		t.Errorf("agent marks a refund paid: %d, want 403", r.StatusCode)
	}
	manager := env.SignedIn(identity.Manager)
	for _, p := range reads[:3] {
		if r := manager.Get(p); r.StatusCode != 200 {
			t.Errorf("manager GET %s: %d", p, r.StatusCode)
		}
	}
}

// An agent records a withdrawal that came late; its refund shows on the
// managers' list and on the home page; a manager marks it paid once, after
// confirming, and who and when are shown.
func TestWithdrawalRecordedAndRefundPaid(t *testing.T) {
	t.Parallel()
	env, agent := benchEnv(t)
	form := commissionForm(t, env)
	form["type"] = "withdrawal" // only a withdrawal's commission takes one
	resp := postMultipart(t, env, agent, form, "receipt.pdf", pdfBytes)
	if resp.StatusCode != 303 {
		t.Fatalf("create: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	page := resp.Header.Get("Location")
	now := env.App.Upstream.Clock().Now().In(i18n.Prague)
	day := func(daysAgo int) string { return now.AddDate(0, 0, -daysAgo).Format("2006-01-02") }
	good := url.Values{"key": {formKey(t, agent.Get(page).Body, "withdrawal-form")}, "amount": {"1 250 Kč"}, "currency": {"CZK"},
		"account": {"19-2000145399/0800"}, "received": {day(12)}, "delivered": {day(30)}, "note": {"By phone."}}

	// Bad input first: a clear problem on its field, nothing stored.
	for _, c := range []struct{ field, value, want string }{
		{"amount", "1\x0050", "control characters"},
		{"amount", "NaN", "Type a number"},
		{"amount", "0", "more than 0"},
		{"account", "\xff\xfe/0800", "cannot be read"},
		{"account", "19-2000145398/0800", "modulo 11"},
		{"account", "CZ6608000000192000145399", "IBAN is not valid"},
		{"account", "<script>alert(1)</script>", "four digits"},
		{"account", "1'; DROP TABLE withdrawals;--/0800", "Czech account number"},
		{"received", day(-1), "future"},
		{"note", strings.Repeat("x", 5000), "At most 1000"},
	} {
		r := agent.PostForm(page+"/withdrawal", with(good, c.field, c.value))
		if r.StatusCode != 422 || !strings.Contains(r.Body, c.want) || strings.Contains(r.Body, "<script>alert(1)</script>") {
			t.Errorf("%s %q: %d %s", c.field, clip(c.value), r.StatusCode, problemsOf(r.Body))
		}
	}
	if r := agent.PostForm(page+"/withdrawal", with(good, "note", strings.Repeat("x", 2<<20))); r.StatusCode != 413 && r.StatusCode != 422 {
		t.Errorf("an oversized post: %d", r.StatusCode)
	}
	if _, err := env.App.DB.WithdrawalOfCommission(context.Background(), idOf(page)); apperr.CodeOf(err) != apperr.NotFound {
		t.Fatalf("bad input stored a withdrawal: %v", err)
	}

	if r := agent.PostForm(page+"/withdrawal", good); r.StatusCode != 303 {
		t.Fatalf("record: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	agent.PostForm(page+"/withdrawal", good) // a second post of the same form records nothing more
	doc := htmlOf(t, agent.Get(page).Body)
	if got := textOf(doc, "wd-late"); got != "late (18 days after delivery)" {
		t.Errorf("late mark: %q", got)
	}
	if got := textOf(doc, "wd-due"); !strings.Contains(got, "2 days left") {
		t.Errorf("due: %q", got)
	}
	if got := textOf(doc, "wd-paid"); got != "not paid yet" {
		t.Errorf("paid state: %q", got)
	}

	manager := env.SignedIn(identity.Manager)
	list := htmlOf(t, manager.Get("/returns/refunds").Body)
	if n := list.Find(`[data-testid=refund]`).Length(); n != 1 {
		t.Fatalf("%d refunds listed", n)
	}
	if got := textOf(list, "amount"); got != "CZK 1,250.00" {
		t.Errorf("amount: %q", got)
	}
	if got := textOf(list, "account"); got != "19-2000145399/0800" {
		t.Errorf("account: %q", got)
	}
	if home := manager.Get("/").Body; !strings.Contains(home, "1 refund near or past its due date") {
		t.Errorf("the home page does not count the refund due")
	}
	if q := manager.Get("/attention?kind=refund_due").Body; !strings.Contains(q, "1,250.00 by") {
		t.Errorf("the queue does not list the refund due")
	}
	if home := agent.Get("/").Body; strings.Contains(home, "refund near") {
		t.Errorf("an agent's home counts refunds")
	}

	wd, err := env.App.DB.WithdrawalOfCommission(context.Background(), idOf(page))
	if err != nil {
		t.Fatal(err)
	}
	paidPath := "/returns/refunds/" + itoa(wd.ID) + "/paid"
	if r := manager.PostForm(paidPath, url.Values{}); r.StatusCode != 303 || r.Header.Get("Location") != paidPath {
		t.Errorf("unconfirmed: %d %s", r.StatusCode, r.Header.Get("Location"))
	}
	if r := manager.Get(paidPath); r.StatusCode != 200 || !strings.Contains(r.Body, "cannot be undone") {
		t.Errorf("confirm step: %d", r.StatusCode)
	}
	if r := manager.PostForm(paidPath, url.Values{"confirm": {"yes"}}); r.StatusCode != 303 {
		t.Fatalf("mark paid: %d", r.StatusCode)
	}
	paid, _ := env.App.DB.WithdrawalByID(context.Background(), wd.ID)
	if paid.PaidAt == nil || paid.PaidByName == nil || *paid.PaidByName != "manager1" || paid.PaidAt.Sub(env.App.Upstream.Clock().Now()).Abs() > time.Minute {
		t.Fatalf("paid: %v by %v", paid.PaidAt, paid.PaidByName)
	}
	doc = htmlOf(t, manager.Get("/returns/refunds?show=paid").Body)
	if got := textOf(doc, "paid"); !strings.HasPrefix(got, "paid ") || !strings.HasSuffix(got, " by manager1") {
		t.Errorf("paid list: %q", got)
	}
	manager.PostForm(paidPath, url.Values{"confirm": {"yes"}})
	if body := manager.Get("/returns/refunds").Body; !strings.Contains(body, "already paid by manager1") {
		t.Errorf("a second mark is not refused: %s", problemsOf(body))
	}
	again, _ := env.App.DB.WithdrawalByID(context.Background(), wd.ID)
	if !again.PaidAt.Equal(*paid.PaidAt) {
		t.Errorf("the second mark moved the time")
	}
	if home := manager.Get("/").Body; strings.Contains(home, "refund near") {
		t.Errorf("a paid refund is still counted")
	}
	if got := textOf(htmlOf(t, agent.Get(page).Body), "wd-paid"); !strings.Contains(got, "by manager1") {
		t.Errorf("the commission page's paid state: %q", got)
	}
	csv := manager.Get("/returns/refunds.csv?show=paid")
	if csv.StatusCode != 200 || !strings.Contains(csv.Body, "Alena Veselá") || !strings.Contains(csv.Header.Get("Content-Type"), "text/csv") {
		t.Errorf("CSV: %d %s", csv.StatusCode, csv.Body)
	}
}
