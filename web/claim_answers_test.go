package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/workbench"
)

// namedShop gives the shop its customers' name, which every customer mail
// signs with.
func namedShop(t *testing.T, env *apptest.Env) string {
	t.Helper()
	const name = "Keramika Nováková"
	if err := env.App.DB.SaveShopIdentity(context.Background(), storage.ShopIdentity{Name: name}); err != nil {
		t.Fatal(err)
	}
	return name
}

// An agent's message to the customer of a claim from the page reaches them
// by mail once (the outbox, sent over SMTP to the catcher), in the shop's
// name, with a link that opens the claim's page and the message on it; an
// internal note mails nothing, and the same form posted again mails nothing
// more.
func TestAgentsMessageReachesTheCustomerByMail(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	shop := namedShop(t, env)
	status := fileClaim(t, env)
	c, _ := env.ClaimByStatus(status)
	if c.CommissionID == nil {
		t.Fatal("no commission")
	}
	agent := env.SignedIn(identity.Agent)
	commission := "/returns/commissions/" + itoa(*c.CommissionID)
	if r := agent.PostForm(commission+"/notes", with(nil, "key", requestkey.New(), "note_text", "Internal: ask the supplier")); r.StatusCode != 303 {
		t.Fatalf("note: %d", r.StatusCode)
	}
	key := requestkey.New()
	for range 2 { // the same form twice
		if r := agent.PostForm(commission+"/messages", with(nil, "key", key, "message_text", "Please send a photo of the label.", "confirm", "yes")); r.StatusCode != 303 {
			t.Fatalf("message: %d", r.StatusCode)
		}
	}
	env.App.Jobs.Cycle(ctx)
	env.App.Jobs.Cycle(ctx)
	mails := claimMails(t, env, "claim-message")
	if len(mails) != 1 {
		t.Fatalf("%d message mails for one message and one note", len(mails))
	}
	m := mails[0]
	if m.To != "jana@example.cz" || !strings.Contains(m.Text, "Please send a photo of the label.") ||
		strings.Contains(m.Text, "Internal") || !strings.Contains(m.Subject, shop) || !strings.HasSuffix(strings.TrimSpace(m.Text), shop) {
		t.Errorf("the mail to %s: %q\n%s", m.To, m.Subject, m.Text)
	}
	if n := strings.Count(m.Text, "Kind regards") + strings.Count(m.Text, "S pozdravem"); n != 1 {
		t.Errorf("the mail is signed %d times, not once:\n%s", n, m.Text)
	}
	var caught bool
	for _, cm := range env.App.Catcher.All() {
		caught = caught || cm.Subject == m.Subject && strings.Contains(cm.To, "jana@example.cz")
	}
	if !caught {
		t.Error("the message's mail did not reach the mail server")
	}
	link := claimPathIn.FindString(m.Text)
	if mc, err := env.ClaimByStatus(link); err != nil || mc.ID != c.ID {
		t.Fatalf("the mailed link %q opens claim %d (%v), want %d", link, mc.ID, err, c.ID)
	}
	if body := env.NewBrowser().Get(link).Body; !strings.Contains(body, "Please send a photo of the label.") || strings.Contains(body, "Internal") {
		t.Error("the mailed link's page does not show the message")
	}
	// A message whose answer is lost is mailed when the commission read
	// back shows it sent, once.
	env.Sandbox.Fault("/returns/api/v1/activity/create", map[string]any{"drop_after_rate": 1, "count": 1})
	agent.PostForm(commission+"/messages", with(nil, "key", requestkey.New(), "message_text", "Thank you for the photo.", "confirm", "yes"))
	env.App.Jobs.Cycle(ctx)
	env.App.Jobs.Cycle(ctx)
	var lost int
	for _, m := range claimMails(t, env, "claim-message") {
		if strings.Contains(m.Text, "Thank you for the photo.") {
			lost++
		}
	}
	if lost != 1 {
		t.Errorf("%d mails of the message whose answer was lost", lost)
	}
}

// A withdrawal filed on the page is acknowledged at once by mail: what was
// withdrawn, the refund's amount and the day it is due (14 days after it
// came), with the status page's link. The page speaks of a withdrawal (not
// of a claim, no assessment) with its refund's state, and stops asking for
// itself once the refund is paid.
func TestWithdrawalIsAcknowledgedAndItsPageSpeaksOfIt(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	shop := namedShop(t, env)
	env.Sandbox.Advance(3 * 24 * time.Hour)
	_, link := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	b := env.NewBrowser()
	fields := claimFields(t, b.Get(link).Body, "kind", "withdrawal", "transport", "shop", "refund_account", "19-2000145399/0800")
	r := claimPost(t, env, b, link, fields, nil)
	if r.StatusCode != 303 {
		t.Fatalf("withdrawal: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	status := r.Header.Get("Location")
	c, _ := env.ClaimByStatus(status)
	en := i18n.WithLang(ctx, i18n.English)
	due := i18n.Date(en, workbench.RefundDue(c.CreatedAt))
	if due != i18n.Date(en, c.CreatedAt.AddDate(0, 0, 14)) {
		t.Fatalf("the refund is due %s", due)
	}
	mails := claimMails(t, env, "claim-withdrawal")
	if len(mails) != 1 {
		t.Fatalf("%d acknowledgements of one withdrawal", len(mails))
	}
	m := mails[0]
	money := i18n.Money(en, 1250, "CZK")
	for _, want := range []string{"DEMO-1", c.Product, money, "19-2000145399/0800", "by " + due, i18n.Date(en, c.CreatedAt), shop} {
		if want == "" || !strings.Contains(m.Text, want) {
			t.Errorf("the acknowledgement lacks %q:\n%s", want, m.Text)
		}
	}
	if mc, err := env.ClaimByStatus(claimPathIn.FindString(m.Text)); err != nil || mc.ID != c.ID || m.To != "jana@example.cz" {
		t.Errorf("the acknowledgement's link opens claim %d (%v); to %s", mc.ID, err, m.To)
	}
	// Posted again: the same claim, no second acknowledgement.
	claimPost(t, env, b, link, fields, nil)
	if n := len(claimMails(t, env, "claim-withdrawal")); n != 1 {
		t.Errorf("%d acknowledgements after the form was posted twice", n)
	}

	customer := env.NewBrowser()
	doc := page(t, customer.Get(status).Body)
	if h := doc.Find("h1").Text(); !strings.Contains(h, "Your withdrawal from the purchase") || strings.Contains(h, "Your claim") {
		t.Errorf("heading %q", h)
	}
	if steps := doc.Find(".claim-steps").Text(); strings.Contains(steps, "Assessment") || !strings.Contains(steps, "Money refunded") {
		t.Errorf("steps %q", steps)
	}
	if got := doc.Find("[data-testid=claim-refund]").Text(); !strings.Contains(got, money) || !strings.Contains(got, due) {
		t.Errorf("refund %q, want due %s", got, due)
	}
	if live, _ := doc.Find("#claim-live").Attr("data-live"); live != "true" {
		t.Error("the page of an unpaid refund does not ask for itself")
	}
	// The manager pays: the page says so and stops asking.
	wd, err := env.App.DB.WithdrawalOfCommission(ctx, *c.CommissionID)
	if err != nil {
		t.Fatal(err)
	}
	if r := env.SignedIn(identity.Manager).PostForm("/returns/refunds/"+itoa(wd.ID)+"/paid", with(nil, "confirm", "yes")); r.StatusCode != 303 {
		t.Fatalf("mark paid: %d", r.StatusCode)
	}
	doc = page(t, customer.Get(status).Body)
	if got := doc.Find("[data-testid=claim-state]").Text(); got != "We have refunded your money." {
		t.Errorf("state after the refund: %q", got)
	}
	if _, paid := doc.Find("[data-testid=claim-refund]").Attr("data-paid"); !paid {
		t.Error("the refund is not shown paid")
	}
	if live, _ := doc.Find("#claim-live").Attr("data-live"); live != "false" || doc.Find("[hx-get]").Length() != 0 {
		t.Error("the page of a paid refund still asks for itself")
	}
}

// The status page asks for its live part while something may change: the
// hand-over code the service exports shows in that answer without a reload
// of the page, and stays until the carrier has the parcel; then the page
// says the parcel is on its way, then that it arrived.
func TestClaimStatusShowsTheCodeWithoutAReload(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	carrier, point := codePoint(t, env)
	status := fileClaim(t, env, "transport", "code", "point_carrier", carrier, "point_code", point)
	customer := env.NewBrowser()
	doc := page(t, customer.Get(status).Body)
	live := doc.Find("#claim-live")
	if get, _ := live.Attr("hx-get"); get != status || live.AttrOr("hx-trigger", "") == "" || live.AttrOr("hx-select", "") != "#claim-live" {
		t.Fatalf("the live part asks %q on %q", get, live.AttrOr("hx-trigger", ""))
	}
	if doc.Find("[data-testid=claim-code-waiting]").Length() != 1 {
		t.Fatal("the page does not say the code is coming")
	}
	env.Sandbox.Advance(10 * time.Minute)
	env.App.Jobs.Cycle(ctx)
	req, _ := http.NewRequest(http.MethodGet, env.URL+status, nil)
	req.Header.Set("HX-Request", "true")
	part := customer.Do(req)
	if part.StatusCode != 200 || strings.Contains(part.Body, "<html") || !strings.Contains(part.Header.Get("Vary"), "HX-Request") ||
		part.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("the live part: %d, vary %q", part.StatusCode, part.Header.Get("Vary"))
	}
	pd := page(t, part.Body)
	code := pd.Find("[data-testid=claim-code]").Text()
	if len(code) != 6 || pd.Find("[data-testid=claim-reply]").Length() != 0 {
		t.Fatalf("the live part's code %q (the reply form in it: %d)", code, pd.Find("[data-testid=claim-reply]").Length())
	}
	if s := pd.Find("[data-testid=claim-state]").AttrOr("data-state", ""); s != "hand_over" {
		t.Errorf("state with the code: %q", s)
	}
	// The carrier takes the parcel: the page says so in the staff page's
	// words, and the code is needed no more.
	env.Sandbox.Advance(30 * time.Minute)
	env.App.Jobs.Cycle(ctx)
	env.App.Jobs.Cycle(ctx)
	pd = page(t, customer.Do(req.Clone(ctx)).Body)
	if s := pd.Find("[data-testid=claim-state]").AttrOr("data-state", ""); s != "handed_in" || pd.Find("[data-testid=claim-code]").Length() != 0 ||
		!strings.Contains(pd.Find("[data-testid=claim-handed-in]").Text(), "in transit") {
		t.Errorf("handed in: state %q, %q", s, pd.Find("[data-testid=claim-handover]").Text())
	}
	env.Sandbox.Advance(2 * time.Hour)
	env.App.Jobs.Cycle(ctx)
	env.App.Jobs.Cycle(ctx)
	if pd = page(t, customer.Do(req.Clone(ctx)).Body); !strings.Contains(pd.Find("[data-testid=claim-handover]").Text(), "reached us") {
		t.Errorf("after the parcel arrived: %q", pd.Find("[data-testid=claim-handover]").Text())
	}
}

// The claim's purchase date is the purchase's (here its delivery's day, a
// parcel of no shop order), not the day the claim was filed, on the
// commission and on the status page.
func TestClaimsPurchaseDayIsTheDeliveryDay(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	env.Sandbox.Advance(5 * 24 * time.Hour)
	status := fileClaim(t, env)
	c, _ := env.ClaimByStatus(status)
	sh, _ := env.App.DB.ShipmentByID(ctx, c.ShipmentID)
	if c.CommissionID == nil || sh.DeliveredAt == nil {
		t.Fatal("no commission or no delivery")
	}
	com, _ := env.App.DB.CommissionByID(ctx, *c.CommissionID)
	delivered := sh.DeliveredAt.In(i18n.Prague).Format("2006-01-02")
	if got := workbench.DetailOf(com).Purchase; got != delivered || got == c.CreatedAt.In(i18n.Prague).Format("2006-01-02") {
		t.Errorf("the commission's purchase date %s, want the delivery's %s", got, delivered)
	}
	en := i18n.WithLang(ctx, i18n.English)
	if got := page(t, env.NewBrowser().Get(status).Body).Find("[data-testid=claim-purchased]").Text(); got != i18n.Day(en, delivered) {
		t.Errorf("the page's purchase day %q, want %q", got, i18n.Day(en, delivered))
	}
}
