package web_test

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/storage"
)

// claimOn creates a warranty claim through the new-commission form and
// returns its id.
func claimOn(t *testing.T, env *apptest.Env, b *apptest.Browser, extra map[string]string) int64 {
	t.Helper()
	form := commissionForm(t, env)
	for k, v := range extra {
		form[k] = v
	}
	resp := postMultipart(t, env, b, form, "receipt.pdf", pdfBytes)
	if resp.StatusCode != 303 {
		t.Fatalf("create: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	return atoi(strings.TrimPrefix(resp.Header.Get("Location"), "/returns/commissions/"))
}

// The written confirmations of a claim: listed on its page, served as the
// PDF issued, only to the returns roles, and only under their own commission.
func TestClaimConfirmations(t *testing.T) {
	t.Parallel()
	env, agent := benchEnv(t)
	ctx := context.Background()
	id := claimOn(t, env, agent, map[string]string{"remedy": "repair", "language": "en"})
	other := claimOn(t, env, agent, nil)
	c, err := env.App.DB.CommissionByID(ctx, id)
	if err != nil || c.Language != "en" || c.Remedy != "repair" {
		t.Fatalf("language %q, remedy %q: %v", c.Language, c.Remedy, err)
	}
	page := agent.Get(commissionPathOf(id))
	doc := htmlOf(t, page.Body)
	link := doc.Find(`[data-testid="document"] a`)
	if link.Length() != 1 {
		t.Fatalf("%d documents listed: %s", link.Length(), textOf(doc, "confirmations"))
	}
	href, _ := link.Attr("href")
	pdf := agent.Get(href)
	if pdf.StatusCode != 200 || pdf.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(pdf.Body, "%PDF-") {
		t.Fatalf("%s: %d %s", href, pdf.StatusCode, pdf.Header.Get("Content-Type"))
	}
	if cd := pdf.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, `inline; filename="potvrzeni-prijeti-`+c.Number+`.pdf"`) {
		t.Errorf("Content-Disposition %q", cd)
	}
	docID := strings.TrimSuffix(href[strings.LastIndex(href, "/")+1:], ".pdf")
	for _, p := range []string{commissionPathOf(other) + "/documents/" + docID + ".pdf", commissionPathOf(id) + "/documents/" + docID,
		commissionPathOf(id) + "/documents/x.pdf", commissionPathOf(id) + "/documents/999999.pdf"} {
		if r := agent.Get(p); r.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", p, r.StatusCode)
		}
	}
	clerk, anon := env.SignedIn(identity.Clerk), env.NewBrowser()
	posts := []string{commissionPathOf(id) + "/print-intake", commissionPathOf(id) + "/extension"}
	if r := clerk.Get(href); r.StatusCode != 403 {
		t.Errorf("clerk GET %s: %d", href, r.StatusCode)
	}
	if r := anon.Get(href); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
		t.Errorf("anonymous GET %s: %d", href, r.StatusCode)
	}
	for _, p := range posts {
		if r := clerk.PostForm(p, url.Values{}); r.StatusCode != 403 {
			t.Errorf("clerk POST %s: %d", p, r.StatusCode)
		}
		if r := anon.PostForm(p, url.Values{}); r.StatusCode != 303 || !strings.HasPrefix(r.Header.Get("Location"), "/login") {
			t.Errorf("anonymous POST %s: %d", p, r.StatusCode)
		}
	}
	// Printing opens the kept confirmation; it issues nothing new.
	if r := agent.PostForm(posts[0], url.Values{}); r.StatusCode != 303 || r.Header.Get("Location") != href {
		t.Errorf("print: %d %q, want %s", r.StatusCode, r.Header.Get("Location"), href)
	}
	manager := env.SignedIn(identity.Manager)
	if r := manager.Get(href); r.StatusCode != 200 {
		t.Errorf("manager: %d", r.StatusCode)
	}
}

// The extension form refuses what is no date, or a wrong one, with a message
// on its field; nothing is issued until it is right.
func TestExtensionFormRefusesBadInput(t *testing.T) {
	t.Parallel()
	env, agent := benchEnv(t)
	ctx := context.Background()
	id := claimOn(t, env, agent, nil)
	path := commissionPathOf(id) + "/extension"
	today := sandboxtest.Epoch.Format("2006-01-02")
	later := sandboxtest.Day(60)
	for _, c := range []struct {
		name, to, agreed, field string
	}{
		{"NUL", "2027\x00-01-01", today, "extended_to"},
		{"invalid UTF-8", later, "\xff\xfe", "agreed_on"},
		{"control characters", "a\x1b[2J", today, "extended_to"},
		{"oversized", strings.Repeat("1", 30<<10), today, "extended_to"},
		{"script", "<script>alert(1)</script>", today, "extended_to"},
		{"SQL", later, "'; DROP TABLE commissions; --", "agreed_on"},
		{"no such day", "31. 2. 2027", today, "extended_to"},
		{"empty", "", today, "extended_to"},
		{"not later than the deadline", sandboxtest.Day(10), today, "extended_to"},
		{"agreed in the future", later, sandboxtest.Day(2), "agreed_on"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := agent.PostForm(path, url.Values{"extended_to": {c.to}, "agreed_on": {c.agreed}})
			doc := htmlOf(t, r.Body)
			if r.StatusCode != 422 || doc.Find("#"+c.field+"-error").Length() != 1 {
				t.Errorf("%d: %s", r.StatusCode, problemsOf(r.Body))
			}
			if strings.Contains(r.Body, "<script>alert(1)</script>") {
				t.Error("shown unescaped")
			}
		})
	}
	if r := agent.PostForm(path, url.Values{"extended_to": {strings.Repeat("1", 100<<10)}, "agreed_on": {today}}); r.StatusCode != 413 {
		t.Errorf("a form over the limit: %d", r.StatusCode)
	}
	docs, _ := env.App.DB.DocumentsOf(ctx, id)
	if len(docs) != 1 {
		t.Fatalf("%d documents after refused extensions", len(docs))
	}
	r := agent.PostForm(path, url.Values{"extended_to": {later}, "agreed_on": {today}})
	if r.StatusCode != 303 {
		t.Fatalf("extend: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	docs, _ = env.App.DB.DocumentsOf(ctx, id)
	if len(docs) != 2 || docs[1].Kind != storage.DocIntake || docs[1].Version != 2 {
		t.Fatalf("after the extension: %+v", docs)
	}
	page := htmlOf(t, agent.Get(commissionPathOf(id)).Body)
	if n := page.Find(`[data-testid="document"]`).Length(); n != 2 {
		t.Errorf("%d documents listed", n)
	}
}

func commissionPathOf(id int64) string { return "/returns/commissions/" + itoa(id) }

// A claim's confirmations go to the customer by mail with the PDF as kept:
// the intake when the claim is taken (printing it again sends nothing), the
// settlement when the agent settles it.
func TestConfirmationsReachTheCustomerByMail(t *testing.T) {
	t.Parallel()
	env, agent := benchEnv(t)
	ctx := context.Background()
	id := claimOn(t, env, agent, map[string]string{"language": "en"})
	page := commissionPathOf(id)
	if r := agent.PostForm(page+"/print-intake", url.Values{}); r.StatusCode != 303 {
		t.Fatalf("print: %d", r.StatusCode)
	}
	moveTo(agent, page, "processing")
	if r := moveTo(agent, page, "closed", "resolution", "replaced"); r.StatusCode != 303 {
		t.Fatalf("settle: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	env.App.Jobs.Cycle(ctx)
	caught := env.App.Catcher.All()
	if len(caught) != 2 {
		t.Fatalf("caught %d mails, want the intake and the settlement", len(caught))
	}
	c, _ := env.App.DB.CommissionByID(ctx, id)
	settlement, err := env.App.DB.LatestDocument(ctx, id, storage.DocSettlement)
	if err != nil {
		t.Fatal(err)
	}
	m := caught[0] // the outbox sends the two in no set order
	if strings.Contains(m.Subject, "received") {
		m = caught[1]
	}
	if !strings.Contains(m.To, "alena@example.cz") || m.Subject != "Your claim has been settled – service order "+c.Number ||
		!strings.Contains(m.Text, "by replacing the product with a new one") {
		t.Errorf("caught %q to %q:\n%s", m.Subject, m.To, m.Text)
	}
	if len(m.Attachments) != 1 || m.Attachments[0].Name != settlement.Filename || !bytes.Equal(m.Attachments[0].Data, settlement.PDF) {
		t.Errorf("caught %d attachments, want %s as kept", len(m.Attachments), settlement.Filename)
	}
	if body := agent.Get("/sandbox/mail").Body; !strings.Contains(body, "Your claim has been settled") {
		t.Error("the Sent mail page does not list the settlement's mail")
	}
}
