package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// choose picks an option of a select and tells the page, as a person's
// choice does (htmx and the page's script listen for the change).
func (b *Tab) choose(sel, value string) {
	b.t.Helper()
	js := `((sel, value) => {
		const s = document.querySelector(sel);
		s.value = value;
		s.dispatchEvent(new Event("change", {bubbles: true}));
		return s.value === value;
	})(` + quote(sel) + `, ` + quote(value) + `)`
	ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](js))
	if err != nil || !ok {
		b.t.Fatalf("choose %s in %s: %v", value, sel, err)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// idOf is the record id at the end of a page's path.
func idOf(page string) int64 {
	n, _ := strconv.ParseInt(page[strings.LastIndex(page, "/")+1:], 10, 64)
	return n
}

func quote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

// A returns agent's day: a two-way claim is created with a model of the
// chosen type only; the inbound parcel arrives and is scanned, which opens
// its commission with the scan box ready for the next; an answer is sent from
// a template; the claim is settled as repaired and sent back. The list and
// the commission are looked at in English and Czech at three widths.
func TestAgentsDayAtTheDesk(t *testing.T) {
	t.Parallel()
	env, tab, proof := agentTab(t, "alena")
	ctx := context.Background()
	types, models, err := env.App.DB.Products(ctx)
	if err != nil || len(types) < 2 {
		t.Fatalf("products: %v", err)
	}
	tab.do("desktop width", chromedp.EmulateViewport(1280, 900))

	// The model picker offers the chosen type's models only.
	tab.Open("/returns/new")
	chosen := types[1]
	tab.choose("#type_id", itoa(chosen.ID))
	tab.WaitCount(`#model_id optgroup`, 1)
	if got := tab.Attr(`#model_id optgroup`, "label"); got != chosen.Name {
		t.Errorf("models of %q offered for %q", got, chosen.Name)
	}
	var model string
	for _, m := range models {
		if m.TypeID == chosen.ID {
			model = itoa(m.ID)
			break
		}
	}
	tab.choose("#model_id", model)
	tab.Fill("#customer_name", "Alena Veselá")
	tab.Fill("#customer_email", "alena@example.cz")
	tab.Fill("#customer_street", "Lipová 3")
	tab.Fill("#customer_city", "Brno")
	tab.Fill("#customer_zip", "602 00")
	tab.Click(`input[name=two_way]`)
	tab.Fill("#fault", "The display stays dark.")
	tab.do("attach the proof", chromedp.SetUploadFiles(`#proof`, []string{proof}))
	tab.look("new")
	tab.Submit(`[data-testid=create-commission]`)
	page := tab.Path()
	if !strings.HasPrefix(page, "/returns/commissions/") {
		t.Fatalf("after creating the page is %s: %q", page, tab.Texts(".form-message, .field-error"))
	}
	c, err := env.App.DB.CommissionByID(ctx, idOf(page))
	if err != nil {
		t.Fatal(err)
	}
	full, err := env.App.Upstream.Returns.Get(ctx, *c.RemoteID)
	if err != nil || len(full.Shipments) == 0 {
		t.Fatalf("inbound transport: %v", err)
	}
	inbound := full.Shipments[0].TrackingNumber

	// The parcel arrives: the box waits focused on the list; a number nobody
	// has is said, and the box stays focused for the next scan.
	env.Sandbox.Advance(45 * time.Minute)
	tab.Open("/returns")
	tab.waitFocus("#ret-scan")
	tab.Type("#ret-scan", "RT99999999IN")
	tab.Enter("#ret-scan")
	tab.wantText(`[data-testid=scan-none]`, "RT99999999IN")
	tab.waitFocus("#ret-scan") // the box keeps it for the next scan
	tab.look("scan-none")
	tab.Type("#ret-scan", strings.ToLower(inbound))
	tab.Enter("#ret-scan")
	if got := tab.Path(); got != page {
		t.Fatalf("the scan of %s opened %s, want %s", inbound, got, page)
	}
	tab.waitFocus("#ret-scan") // on the commission the scan box has it too
	tab.Submit(`form[action$="/refresh"] button`)
	tab.WaitText(`[data-testid=commission-status]`, "processing")

	// An answer from a template, with the customer's name and the number:
	// the Insert button asks the server (as without script), choosing one
	// fills the box at once.
	tab.do("pick a template", chromedpSelect("#template", "waiting_parts"))
	tab.Submit(`[data-testid=use-template]`)
	if !strings.Contains(tab.Path(), "template=waiting_parts") {
		t.Errorf("the Insert button opened %s", tab.Path())
	}
	text, err := chromedp.Run(tab.ctx, chromedp.Evaluate[string](`document.querySelector('#message_text').value`))
	if err != nil || !strings.Contains(text, "spare parts") || !strings.Contains(text, c.Number) {
		t.Errorf("the server filled %q (%v)", text, err)
	}
	tab.choose("#template", "received")
	text, err = chromedp.Run(tab.ctx, chromedp.Evaluate[string](`document.querySelector('#message_text').value`))
	if err != nil || !strings.Contains(text, "Hello Alena Veselá") || !strings.Contains(text, c.Number) {
		t.Fatalf("the template filled %q (%v)", text, err)
	}
	tab.choose("#tlang", "cs")
	text, _ = chromedp.Run(tab.ctx, chromedp.Evaluate[string](`document.querySelector('#message_text').value`))
	if !strings.Contains(text, "na jméno Alena Veselá") || !strings.Contains(text, c.Number) {
		t.Errorf("in Czech the template filled %q", text)
	}
	tab.Click(`[data-testid=message-form] input[name=confirm]`)
	tab.do("accept the confirmation", chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`))
	tab.Submit(`[data-testid=send-message]`)
	tab.WaitText(`[data-testid=activities]`, "na jméno Alena Veselá")

	// Repaired and sent back: settled, no countdown.
	tab.choose("#resolution", "repaired")
	tab.Submit(`[data-testid=move-outgoing]`)
	tab.WaitText(`[data-testid=commission-status]`, "on its way back")
	tab.wantText(`[data-testid=commission-resolution]`, "repaired")
	tab.wantText(`[data-testid=settled]`, "settled the same day")
	tab.wantText(`[data-testid=history-resolution]`, "repaired")
	if n := len(tab.Texts(`[data-testid=days-left]`)); n != 0 {
		t.Errorf("a settled claim counts down")
	}

	if stored, err := env.App.DB.CommissionByID(ctx, idOf(page)); err != nil || stored.Resolution != "repaired" {
		t.Fatalf("stored resolution %q (%v)", stored.Resolution, err)
	}
	tab.Open("/returns")
	tab.wantText(`[data-testid=commission] [data-testid=resolution]`, "repaired")
	tab.shots("returns-list-en")
	tab.Open(page)
	tab.shots("commission-en")
	tab.toCzech()
	tab.wantText(`[data-testid=settled]`, "vyřízeno týž den")
	tab.wantText(`[data-testid=commission-resolution]`, "opraveno")
	tab.shots("commission-cs")
	tab.Open("/returns")
	tab.wantText(`[data-testid=commission] [data-testid=resolution]`, "opraveno")
	tab.shots("returns-list-cs")
}
