package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// An agent creates a warranty commission with its proof of purchase, writes a
// message and a note, waits (sandbox clock) for the goods and sends them back.
func TestAgentRunsAWarrantyClaim(t *testing.T) {
	t.Parallel()
	env, tab, proof := agentTab(t, "alice")
	tab.Submit(`[data-testid=nav] a[href="/returns"]`)
	tab.Submit(`a[href="/returns/new"]`)
	tab.Fill("#customer_name", "Alena Veselá")
	tab.Fill("#customer_email", "alena@example.cz")
	tab.Fill("#customer_street", "Lipová 3")
	tab.Fill("#customer_city", "Brno")
	tab.Fill("#customer_zip", "602 00")
	tab.Click(`input[name=two_way]`)
	// The first product type and one of its models.
	tab.do("pick the product", chromedp.Evaluate[chromedp.Void](`(() => {
		const type = document.querySelector('#type_id');
		type.selectedIndex = 1;
		const group = document.querySelector('#model_id optgroup[label="' + type.options[1].text + '"]');
		document.querySelector('#model_id').value = group.querySelector('option').value;
	})()`))
	tab.Fill("#fault", "The display stays dark.")
	tab.do("attach the proof", chromedp.SetUploadFiles(`#proof`, []string{proof}))
	tab.look("new")
	tab.Submit(`[data-testid=create-commission]`)
	if !strings.HasPrefix(tab.Path(), "/returns/commissions/") {
		t.Fatalf("after creating the page is %s: %q", tab.Path(), tab.Texts(".form-message, .field-error"))
	}
	tab.WaitText(`[data-testid=commission-status]`, "waiting for the goods")
	if files := tab.Texts(`[data-testid=file]`); len(files) != 1 || files[0] != "receipt.pdf" {
		t.Errorf("files: %q", files)
	}
	// A note, then a message (confirmed); each lands in its own colour.
	tab.Fill("#note_text", "Second claim of this customer.")
	tab.Submit(`[data-testid=save-note]`)
	tab.Fill("#message_text", "We have received your claim.")
	tab.Click(`[data-testid=message-form] input[name=confirm]`)
	tab.do("accept the confirmation", chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`))
	tab.Submit(`[data-testid=send-message]`)
	tab.WaitText(`[data-testid=activities]`, "We have received your claim.")
	notes := tab.Texts(`[data-testid=activities] [data-kind=note] p`)
	messages := tab.Texts(`[data-testid=activities] [data-kind=message] p`)
	if len(notes) != 1 || notes[0] != "Second claim of this customer." || len(messages) != 1 || messages[0] != "We have received your claim." {
		t.Errorf("notes %q, messages %q", notes, messages)
	}
	tab.look("activities")
	// The carrier brings the goods; the commission moves to processing.
	env.Sandbox.Advance(45 * time.Minute)
	tab.Submit(`form[action$="/refresh"] button`)
	tab.WaitText(`[data-testid=commission-status]`, "processing")
	tab.do("choose the resolution", chromedpSelect("#resolution", "repaired"))
	tab.Submit(`[data-testid=move-outgoing]`)
	tab.WaitText(`[data-testid=commission-status]`, "on its way back")
	tab.WaitText(`[data-testid=moves]`, "to the customer")
	tab.look("outgoing")
}

// agentTab signs an agent in against a dashboard whose product models are
// read from the sandbox, and gives a proof of purchase to attach (a small
// PDF).
func agentTab(t *testing.T, username string) (env *apptest.Env, tab *Tab, proof string) {
	t.Helper()
	env = apptest.Start(t)
	if err := env.App.Bench.RefreshProducts(context.Background()); err != nil {
		t.Fatal(err)
	}
	proof = filepath.Join(t.TempDir(), "receipt.pdf")
	if err := os.WriteFile(proof, []byte("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pw := env.AddUser(username, identity.Agent)
	tab = newTab(t, env.URL)
	tab.SignIn(username, pw)
	return env, tab, proof
}
