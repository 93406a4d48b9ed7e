package e2e

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// A customer on a phone, in Czech, asks for a link to the claim form, files
// a claim of a defect with a hand-over code at a pick-up point, follows it on
// the status page until the shop settles it; an agent watches it arrive on
// the returns desk and settles it there.
func TestClaimJourneyOnAPhone(t *testing.T) {
	t.Parallel()
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true})
	env.DeliverDemoOrders()
	ctx := context.Background()
	proof, photo := claimFilesIn(t)

	pw := env.AddUser("alena", identity.Agent)
	agent := newTab(t, env.URL)
	agent.SignIn("alena", pw)
	agent.Open("/returns")
	agent.toCzech()

	customer := newTab(t, env.URL)
	customer.phone()
	customer.Open("/claim")
	customer.toCzech()
	customer.phone()
	customer.wantText("h1", "Reklamace a vrácení zboží")
	customer.bothLanguages("ask")
	customer.Fill("#reference", "DEMO-1")
	customer.Fill("#contact", "jana@example.cz")
	customer.Submit(`[data-testid=claim-ask] button[type=submit]`)
	customer.WaitText(`[data-testid=claim-sent]`, "Pokud jsme objednávku s těmito údaji našli")
	customer.bothLanguages("sent")
	customer.wantText(`[data-testid=claim-sent]`, "Pokud jsme objednávku") // the switch kept the sentence

	// The agent finds the link's mail on the Sent mail page; the customer
	// follows it.
	sendMail(t, env)
	link := agent.mailLink("Odkaz na formulář reklamace k objednávce DEMO-1", `/claim/open/`)
	customer.Open(link)
	customer.wantText(`[data-testid=claim-purchase]`, "DEMO-1")

	// The sections of a withdrawal and of a defect show as the kind is chosen.
	customer.Click(`#kind-withdrawal`)
	customer.wantShown(map[string]bool{"#refund_account": true, "#proof": false, "#remedy-repair": false})
	customer.Click(`#kind-defect`)
	customer.wantShown(map[string]bool{"#refund_account": false, "#proof": true, "#remedy-repair": true, "#point_q": false})

	// Sent without the product, the description and the proof: each is
	// marked, what was chosen stays.
	customer.Submit(`[data-testid=claim-submit]`)
	customer.WaitText(`#model_id-error`, "Vyberte výrobek")
	customer.wantText(`#description-error`, "Popište")
	customer.wantText(`#proof-error`, "doklad o koupi")
	customer.bothLanguages("form-errors", func() {
		customer.Click(`#kind-defect`)
		customer.Submit(`[data-testid=claim-submit]`)
	})

	customer.Open(link) // the form afresh, without the marks
	customer.fillDefect(proof, photo)
	customer.wantNoSideScroll()
	customer.bothLanguages("form-defect", func() { customer.fillDefect(proof, photo) })
	customer.Submit(`[data-testid=claim-submit]`)
	status := customer.Path()
	if !strings.HasPrefix(status, "/claim/status/") {
		t.Fatalf("after sending the page is %s: %q", status, customer.Texts(".form-message, .field-error"))
	}

	// The code is coming.
	customer.WaitText(`[data-testid=claim-code-waiting]`, "připravuje dopravce")
	customer.wantNoSideScroll()
	customer.bothLanguages("status-waiting")

	// The agent finds the commission, its origin and the customer's photo.
	c, err := env.ClaimByStatus(status)
	if err != nil || c.CommissionID == nil {
		t.Fatalf("claim %+v: %v", c, err)
	}
	commission := "/returns/commissions/" + strconv.FormatInt(*c.CommissionID, 10)
	agent.Open(commission)
	agent.wantText(`[data-testid=commission-origin]`, "z reklamační stránky")
	agent.wantText(`[data-testid=commission-claim]`, "lid.png")
	agent.wantText(`[data-testid=commission-claim]`, "doklad.pdf")
	agent.Fill("#message_text", "Děkujeme, reklamaci jsme přijali. Kód k podání pošleme e-mailem.")
	agent.Click(`[data-testid=message-form] input[name=confirm]`)
	agent.do("accept the confirmation", chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`))
	agent.Submit(`[data-testid=send-message]`)
	agent.WaitText(`[data-testid=activities]`, "reklamaci jsme přijali")

	// The service exports the return parcel: the code shows and is mailed.
	env.Sandbox.Advance(10 * time.Minute)
	env.App.Jobs.Cycle(ctx)
	env.App.Jobs.Cycle(ctx)
	customer.Open(status)
	code := customer.Text(`[data-testid=claim-code]`)
	if len(code) != 6 {
		t.Fatalf("the code reads %q", code)
	}
	customer.wantText(`[data-testid=claim-state]`, "Čekáme na váš balík")
	customer.wantNoSideScroll()
	customer.bothLanguages("status-code")
	sendMail(t, env)
	agent.Open("/sandbox/mail")
	agent.wantText(`[data-testid=sent-mail]`, "Kód pro podání balíku: "+code)

	// The customer replies with a photo; the agent reads it.
	customer.Fill(`#text`, "Posílám ještě fotku zespodu.")
	customer.do("attach the photo", chromedp.SetUploadFiles(`[data-testid=claim-reply] #photos`, []string{photo}))
	customer.Submit(`[data-testid=claim-reply] button[type=submit]`)
	customer.WaitText(`[data-testid=claim-messages]`, "Posílám ještě fotku zespodu.")
	customer.wantText(`[data-testid=claim-messages] li.from-shop`, "reklamaci jsme přijali")
	customer.wantText(`[data-testid=claim-messages]`, "lid.png")
	agent.Open(commission)
	agent.wantText(`[data-testid=commission-replies]`, "Posílám ještě fotku zespodu.")
	agent.wantText(`[data-testid=commission-replies]`, "lid.png")

	// The parcel reaches the shop: the commission is being processed.
	env.Sandbox.Advance(2 * time.Hour)
	env.App.Jobs.Cycle(ctx)
	env.App.Jobs.Cycle(ctx)
	customer.Open(status)
	customer.wantText(`[data-testid=claim-handover]`, "Balík nám dorazil")
	agent.Open(commission)
	agent.WaitText(`[data-testid=commission-status]`, "v opravě")
	agent.do("to the claim", chromedp.ScrollIntoView(`[data-testid=commission-claim]`))
	agent.bothLanguages("commission-claim")

	// The agent settles it; the settlement confirmation goes by mail.
	agent.do("choose the resolution", chromedpSelect("#resolution", "repaired"))
	agent.Fill("#reason", "Vyměnili jsme prasklé víko za nové.")
	agent.Submit(`[data-testid=move-outgoing]`)
	agent.WaitText(`[data-testid=documents]`, "Potvrzení o vyřízení reklamace")
	sendMail(t, env)
	agent.Open("/sandbox/mail")
	agent.wantText(`[data-testid=sent-mail]`, "Potvrzení o vyřízení reklamace")
	agent.Click(`[data-testid=sent-mail] tbody tr:first-child a`)
	agent.WaitText(`[data-testid=mail-text]`, "Dobrý den")
	agent.wantText(`[data-testid=caught-mail]`, "potvrzeni-vyrizeni-")

	customer.Open(status)
	customer.wantText(`[data-testid=claim-state]`, "Vyřízeno")
	customer.wantText(`[data-testid=claim-resolution]`, "Vyměnili jsme prasklé víko za nové.")
	if docs := customer.Texts(`[data-testid=claim-documents] li`); len(docs) != 2 ||
		!strings.Contains(docs[0]+docs[1], "Potvrzení o přijetí reklamace") || !strings.Contains(docs[0]+docs[1], "Potvrzení o vyřízení reklamace") {
		t.Errorf("confirmations listed: %q", docs)
	}
	customer.wantNoSideScroll()
	customer.bothLanguages("status-settled")
}

// claimFilesIn writes a proof of purchase (PDF) and a photo (PNG) to attach.
func claimFilesIn(t *testing.T) (proof, photo string) {
	t.Helper()
	dir := t.TempDir()
	proof, photo = filepath.Join(dir, "doklad.pdf"), filepath.Join(dir, "lid.png")
	img := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for x := range 40 {
		img.Set(x, 15, color.RGBA{200, 30, 30, 255})
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(proof, []byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(photo, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return proof, photo
}

// sendMail answers the asks for links, as the pollers do, and sends what
// the outbox holds to the catcher.
func sendMail(t *testing.T, env *apptest.Env) {
	t.Helper()
	if _, err := env.App.Claims.AnswerAsks(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := env.App.Outbox.SendDue(context.Background()); err != nil {
		t.Fatal(err)
	}
}

var dashboardURL = regexp.MustCompile(`https?://[^/\s]+(/\S+)`)

// mailLink opens the newest sent mail whose subject has subject and returns
// the path of its link that starts with prefix.
func (b *Tab) mailLink(subject, prefix string) string {
	b.t.Helper()
	b.Open("/sandbox/mail")
	b.WaitText(`[data-testid=sent-mail]`, subject)
	b.do("open the mail", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('[data-testid=sent-mail] tbody tr')]
		.find(r => r.textContent.includes(`+strconv.Quote(subject)+`)).querySelector('a').click()`))
	b.WaitText(`[data-testid=mail-text]`, prefix)
	for _, m := range dashboardURL.FindAllStringSubmatch(b.Text(`[data-testid=mail-text]`), -1) {
		if strings.HasPrefix(m[1], prefix) {
			return m[1]
		}
	}
	b.t.Fatalf("no %s link in the mail", prefix)
	return ""
}

// phone makes the tab as wide as a phone.
func (b *Tab) phone() {
	b.t.Helper()
	b.do("phone width", chromedp.EmulateViewport(390, 844))
}

// bothLanguages takes the page's screenshots in Czech, then in English, and
// goes back to Czech (at a phone's width when it was there). The switch draws
// the page again from its address: redo (if any) brings back what was done
// on it after each switch.
func (b *Tab) bothLanguages(name string, redo ...func()) {
	b.t.Helper()
	phone := b.width() < 500
	again := func() {
		if phone {
			b.phone()
		}
		for _, f := range redo {
			f()
		}
	}
	b.shots(name + "-cs")
	b.Submit(`[data-testid=language] button`)
	again()
	b.shots(name + "-en")
	b.Submit(`[data-testid=language] button`)
	b.wantCzech()
	again()
}

// width is the page's viewport width.
func (b *Tab) width() int {
	b.t.Helper()
	w, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`window.innerWidth`))
	if err != nil {
		b.t.Fatalf("width: %v", err)
	}
	return w
}

// wantNoSideScroll fails when the page is wider than the window.
func (b *Tab) wantNoSideScroll() {
	b.t.Helper()
	got, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, window.innerWidth]`))
	if err != nil || len(got) != 2 {
		b.t.Fatalf("widths: %v", err)
	}
	if got[0] > got[1] {
		b.t.Errorf("%s is %d px wide in a window of %d", b.Path(), got[0], got[1])
	}
}

// wantShown checks which fields a person can see.
func (b *Tab) wantShown(want map[string]bool) {
	b.t.Helper()
	for sel, shown := range want {
		got, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](`(() => { const e = document.querySelector(`+strconv.Quote(sel)+`); return !!e && e.checkVisibility(); })()`))
		if err != nil {
			b.t.Fatalf("visibility of %s: %v", sel, err)
		}
		if got != shown {
			b.t.Errorf("%s shown %v, want %v", sel, got, shown)
		}
	}
}

// fillDefect fills the claim form of a defect, sent with a hand-over code
// from the first point found in Brno.
func (b *Tab) fillDefect(proof, photo string) {
	b.t.Helper()
	b.Click(`#kind-defect`)
	b.do("pick the product", chromedp.Evaluate[chromedp.Void](`(() => {
		const s = document.querySelector('#model_id');
		s.value = s.querySelector('optgroup option').value;
	})()`))
	// Typed keys lose some Czech letters (č) in the headless browser: the
	// text is set as pasted.
	b.do("describe the defect", chromedp.SetValue("#description", "Víko je od začátku prasklé a konvice u něj teče."))
	b.Click(`#remedy-repair`)
	b.do("attach the files", chromedp.SetUploadFiles(`#proof`, []string{proof}), chromedp.SetUploadFiles(`#photos`, []string{photo}))
	b.Click(`#transport-code`)
	before := b.Text(`[data-testid=point-points-status]`)
	b.Type(`#point_q`, "Brno")
	js := `document.querySelector('[data-testid=point-points-status]').textContent.trim() !== ` + strconv.Quote(before)
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		b.t.Fatalf("the points found for Brno: %v", err)
	}
	b.Click(`[data-testid=point-points] label.point input[type=radio]`)
}
