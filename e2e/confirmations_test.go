package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"shipdesk/sandbox/sandboxtest"
)

// An agent takes a claim, finds its intake confirmation kept with it and
// downloads it, records an extension agreed with the customer (version 2),
// rejects the claim with a reason and finds the settlement confirmation.
func TestAgentKeepsWrittenConfirmations(t *testing.T) {
	t.Parallel()
	env, tab, proof := agentTab(t, "alice")
	tab.Open("/returns/new")
	tab.Fill("#customer_name", "Jiří Žďárský")
	tab.Fill("#customer_email", "jiri@example.cz")
	tab.do("pick the product", chromedp.Evaluate[chromedp.Void](`(() => {
		const type = document.querySelector('#type_id');
		type.selectedIndex = 1;
		const group = document.querySelector('#model_id optgroup[label="' + type.options[1].text + '"]');
		document.querySelector('#model_id').value = group.querySelector('option').value;
	})()`))
	tab.do("choose the remedy", chromedpSelect("#remedy", "replacement"))
	tab.Fill("#fault", "Kávovar nehřeje a z trysky kape voda.")
	tab.do("attach the proof", chromedp.SetUploadFiles(`#proof`, []string{proof}))
	tab.Submit(`[data-testid=create-commission]`)
	path := tab.Path()
	if !strings.HasPrefix(path, "/returns/commissions/") {
		t.Fatalf("after creating the page is %s: %q", path, tab.Texts(".form-message, .field-error"))
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(path, "/returns/commissions/"), 10, 64)
	c, err := env.App.DB.CommissionByID(context.Background(), id)
	if err != nil || c.Remedy != "replacement" || c.Language != "cs" {
		t.Fatalf("stored remedy %q, language %q: %v", c.Remedy, c.Language, err)
	}
	tab.WaitText(`[data-testid=documents]`, "Confirmation of the claim received")

	// The listed confirmation is the PDF of this commission.
	href := tab.Attr(`[data-testid=document] a`, "href")
	js := fmt.Sprintf(`fetch(%q).then(async r => [r.headers.get("content-type"), await r.text()])`, href)
	got, err := chromedp.Run(tab.ctx, chromedp.Evaluate[[]string](js, chromedp.EvalAwaitPromise))
	if err != nil || len(got) != 2 {
		t.Fatalf("fetch %s: %v", href, err)
	}
	if got[0] != "application/pdf" || !strings.HasPrefix(got[1], "%PDF-") || !strings.Contains(got[1], "("+c.Number+")") {
		t.Errorf("%s: %s, %d bytes, number %s in it: %v", href, got[0], len(got[1]), c.Number, strings.Contains(got[1], c.Number))
	}

	// An extension agreed today, to 60 days from the claim.
	tab.Fill("#extended_to", sandboxtest.Day(60))
	tab.Fill("#agreed_on", sandboxtest.Epoch.Format("2006-01-02"))
	tab.Submit(`[data-testid=save-extension]`)
	tab.WaitText(`[data-testid=documents]`, "version 2")
	if n := len(tab.Texts(`[data-testid=document]`)); n != 2 {
		t.Errorf("%d confirmations listed, want 2", n)
	}

	// A second extension that is no later is refused on its field.
	tab.Fill("#extended_to", sandboxtest.Day(20))
	tab.Fill("#agreed_on", sandboxtest.Epoch.Format("2006-01-02"))
	tab.Submit(`[data-testid=save-extension]`)
	tab.WaitText(`#extended_to-error`, "later than the current one")
	tab.shots("open-en")
	tab.Open(path)
	tab.toCzech()
	tab.shots("open-cs")
	tab.Submit(`[data-testid=language] button`) // back to English

	// The goods handed over at the counter are assessed; the claim is
	// rejected with a reason.
	tab.Submit(`[data-testid=move-processing]`)
	tab.WaitText(`[data-testid=commission-status]`, "processing")
	tab.do("choose the resolution", chromedpSelect("#resolution", "rejected"))
	tab.Fill("#reason", "Vada vznikla pádem: kryt je prasklý.")
	tab.Submit(`[data-testid=move-outgoing]`)
	tab.WaitText(`[data-testid=documents]`, "Confirmation of the claim settled")
	if n := len(tab.Texts(`[data-testid=document]`)); n != 3 {
		t.Errorf("%d confirmations listed, want 3", n)
	}
	tab.do("to the section", chromedp.ScrollIntoView(`[data-testid=confirmations]`))
	tab.shots("confirmations-en")
	tab.toCzech()
	tab.wantText(`[data-testid=confirmations] h2`, "Písemná potvrzení")
	tab.wantText(`[data-testid=documents]`, "Potvrzení o vyřízení reklamace")
	tab.shots("confirmations-cs")

	// The customer got each confirmation by mail, in Czech, the PDF attached.
	if st, err := env.App.Outbox.SendDue(context.Background()); err != nil || st.Sent != 3 {
		t.Fatalf("sent %+v, %v; want the three confirmations", st, err)
	}
	tab.Open("/sandbox/mail")
	tab.WaitText(`h1`, "Odeslaná pošta")
	tab.wantText(`[data-testid=sent-mail]`, "Potvrzení o vyřízení reklamace, zakázka č. "+c.Number)
	tab.wantText(`[data-testid=sent-mail]`, "Nové potvrzení o přijetí reklamace")
	tab.shots("confirmation-mails-cs")
	tab.Click(`[data-testid=sent-mail] tbody tr:first-child a`)
	tab.WaitText(`[data-testid=mail-text]`, "museli zamítnout")
	tab.wantText(`[data-testid=mail-text]`, "Důvod zamítnutí: Vada vznikla pádem: kryt je prasklý.")
	tab.wantText(`[data-testid=caught-mail]`, "potvrzeni-vyrizeni-"+c.Number+".pdf")
	tab.shots("confirmation-mail-cs")
}
