package e2e

import (
	"context"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/mailcatch"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/workbench"
)

// A customer on a phone, in Czech, watches the claim's page answer by
// itself: the hand-over code appears without a reload once the service has
// it, an agent's message appears on the page and arrives by mail with the
// link to it; a withdrawal filed on the page is acknowledged by mail with
// its refund and day, and its page speaks of a withdrawal.
func TestClaimPageAnswersTheCustomerOnAPhone(t *testing.T) {
	t.Parallel()
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true})
	env.DeliverDemoOrders()
	ctx := context.Background()
	const shop = "Keramika Nováková"
	if err := env.App.DB.SaveShopIdentity(ctx, storage.ShopIdentity{Name: shop}); err != nil {
		t.Fatal(err)
	}
	proof, photo := claimFilesIn(t)

	customer := newTab(t, env.URL)
	customer.phone()
	customer.Open("/claim")
	customer.toCzech()
	customer.phone()
	customer.Open(claimLinkOf(t, env))
	customer.fillDefect(proof, photo)
	customer.Submit(`[data-testid=claim-submit]`)
	status := customer.Path()
	if !strings.HasPrefix(status, "/claim/status/") {
		t.Fatalf("after sending the page is %s: %q", status, customer.Texts(".form-message, .field-error"))
	}
	customer.WaitText(`[data-testid=claim-code-waiting]`, "připravuje dopravce")

	// The service exports the return parcel: the open page shows the code
	// by itself, and keeps it.
	env.Sandbox.Advance(10 * time.Minute)
	env.App.Jobs.Cycle(ctx)
	customer.WaitText(`[data-testid=claim-state]`, "Čekáme na váš balík")
	code := customer.Text(`[data-testid=claim-code]`)
	if len(code) != 6 || customer.Path() != status {
		t.Fatalf("the code reads %q on %s", code, customer.Path())
	}
	customer.wantNoSideScroll()
	customer.bothLanguages("code-live")

	// An agent writes to the customer: the page shows it by itself, and a
	// mail in the shop's name brings it with the link to the page.
	c, err := env.ClaimByStatus(status)
	if err != nil || c.CommissionID == nil {
		t.Fatalf("claim %+v: %v", c, err)
	}
	agent := env.SignedIn(identity.Agent)
	if r := agent.PostForm("/returns/commissions/"+itoaOf(*c.CommissionID)+"/messages", url.Values{"key": {requestkey.New()},
		"message_text": {"Děkujeme, balík čekáme do dvou týdnů."}, "confirm": {"yes"}}); r.StatusCode != 303 {
		t.Fatalf("message: %d", r.StatusCode)
	}
	customer.WaitText(`[data-testid=claim-messages] li.from-shop`, "balík čekáme do dvou týdnů")
	customer.wantText(`[data-testid=claim-code]`, code)
	sendMail(t, env)
	m := caughtMail(t, env, "Nová zpráva od obchodu "+shop)
	if !strings.Contains(m.Text, "Děkujeme, balík čekáme do dvou týdnů.") || !strings.Contains(m.Text, "k vaší reklamaci") {
		t.Errorf("the message's mail:\n%s", m.Text)
	}
	mailed := statusPathIn.FindString(m.Text)
	customer.Open(mailed)
	customer.wantText(`[data-testid=claim-messages] li.from-shop`, "balík čekáme do dvou týdnů")
	customer.wantText(`[data-testid=claim-code]`, code)
	customer.bothLanguages("message-mailed")

	// A withdrawal: acknowledged at once by mail, its page a withdrawal's.
	customer.Open(claimLinkOf(t, env))
	customer.Click(`#kind-withdrawal`)
	customer.pickProduct()
	customer.Fill(`#refund_account`, "19-2000145399/0800")
	customer.Click(`#transport-shop`)
	customer.Submit(`[data-testid=claim-submit]`)
	wdStatus := customer.Path()
	if !strings.HasPrefix(wdStatus, "/claim/status/") {
		t.Fatalf("after the withdrawal the page is %s: %q", wdStatus, customer.Texts(".form-message, .field-error"))
	}
	customer.wantText("h1", "Vaše odstoupení od smlouvy")
	if steps := customer.Text(".claim-steps"); strings.Contains(steps, "Posouzení") || !strings.Contains(steps, "Peníze vráceny") {
		t.Errorf("the withdrawal's steps: %q", steps)
	}
	wd, err := env.ClaimByStatus(wdStatus)
	if err != nil {
		t.Fatal(err)
	}
	cs := i18n.WithLang(ctx, i18n.Czech)
	money, due := i18n.Money(cs, 1250, "CZK"), i18n.Date(cs, workbench.RefundDue(wd.CreatedAt))
	customer.wantText(`[data-testid=claim-refund]`, money)
	customer.wantText(`[data-testid=claim-refund]`, due)
	customer.wantNoSideScroll()
	customer.bothLanguages("withdrawal")
	sendMail(t, env)
	ack := caughtMail(t, env, "Potvrzení odstoupení od smlouvy, objednávka DEMO-1")
	for _, want := range []string{money, "nejpozději " + due, wd.Product, shop} {
		if !strings.Contains(ack.Text, want) {
			t.Errorf("the acknowledgement lacks %q:\n%s", want, ack.Text)
		}
	}
}

var statusPathIn = regexp.MustCompile(`/claim/status/[A-Za-z0-9_-]{43}`)

// claimLinkOf asks for a link to DEMO-1's claim form as a customer does and
// returns the path its mail carries.
func claimLinkOf(t *testing.T, env *apptest.Env) string {
	t.Helper()
	env.NewBrowser().PostForm("/claim", url.Values{"reference": {"DEMO-1"}, "contact": {"jana@example.cz"}})
	if _, err := env.App.Claims.AnswerAsks(context.Background()); err != nil {
		t.Fatal(err)
	}
	mails, err := env.App.DB.RecentMail(context.Background(), 50)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mails {
		if strings.HasPrefix(m.EventKey, "claim-link:") {
			if link := regexp.MustCompile(`/claim/open/[A-Za-z0-9_-]{43}`).FindString(m.Text); link != "" {
				return link
			}
		}
	}
	t.Fatal("no link mailed")
	return ""
}

// caughtMail is the newest mail the catcher caught with this subject.
func caughtMail(t *testing.T, env *apptest.Env, subject string) mailcatch.Caught {
	t.Helper()
	for _, m := range env.App.Catcher.All() {
		if m.Subject == subject {
			return m
		}
	}
	t.Fatalf("no mail %q caught", subject)
	return mailcatch.Caught{}
}

// pickProduct chooses the first product of the claim form's list.
func (b *Tab) pickProduct() {
	b.t.Helper()
	b.do("pick the product", chromedp.Evaluate[chromedp.Void](`(() => {
		const s = document.querySelector('#model_id');
		s.value = s.querySelector('optgroup option').value;
	})()`))
}

func itoaOf(n int64) string { return strconv.FormatInt(n, 10) }
