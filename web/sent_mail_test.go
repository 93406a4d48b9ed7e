package web_test

import (
	"context"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/mail"
	"shipdesk/mailcatch"
)

// A mail recorded through the outbox is sent to the in-process catcher by
// the pollers' worker and read on the Sent mail page: escaped, its link
// clickable, its attachment downloadable; clerks are refused, and outside
// sandbox mode the page does not exist.
func TestSentMailPage(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	ctx := context.Background()
	if env.App.Catcher == nil {
		t.Fatal("no catcher in sandbox mode")
	}
	hostile := mail.Message{EventKey: "claim-link:42", To: "jana@example.com", ToName: "Jana <b>Nováková</b>",
		Subject: `Odkaz <script>alert("s")</script>'; DROP TABLE mail_outbox; --`,
		Text:    "Dobrý den,\nodkaz: https://shop.example/claim/abc?t=1&x=2.\n<img src=x onerror=alert(1)>\njavascript:alert(1)\n", Lang: "cs",
		Attachments: []mail.Attachment{{Name: "potvrzení.pdf", ContentType: "application/pdf", Data: []byte("%PDF-1.4 proof")},
			{Name: "page.html", ContentType: "text/html", Data: []byte("<script>alert(1)</script>")}}}
	if _, err := env.App.Outbox.Enqueue(ctx, env.App.DB, hostile); err != nil {
		t.Fatal(err)
	}
	agent := env.SignedIn(identity.Agent)
	if body := agent.Get("/sandbox/mail").Body; !strings.Contains(body, "Waiting") {
		t.Errorf("a queued mail is not waiting:\n%s", body)
	}
	if st, err := env.App.Outbox.SendDue(ctx); err != nil || st.Sent != 1 {
		t.Fatalf("%+v %v", st, err)
	}
	list := agent.Get("/sandbox/mail")
	if list.StatusCode != 200 || strings.Contains(list.Body, "<script>alert") || !strings.Contains(list.Body, "&lt;script&gt;") || !strings.Contains(list.Body, "Sent") {
		t.Fatalf("list %d:\n%s", list.StatusCode, list.Body)
	}
	if !strings.Contains(agent.Get("/").Body, `href="/sandbox/mail"`) {
		t.Error("no link to the Sent mail page in the sandbox banner")
	}
	mails, _ := env.App.DB.RecentMail(ctx, 1)
	page := agent.Get("/sandbox/mail/" + itoa(mails[0].ID))
	for _, want := range []string{`<a href="https://shop.example/claim/abc?t=1&amp;x=2"`, "&lt;img src=x onerror=alert(1)&gt;", "potvrzení.pdf", "Jana &lt;b&gt;Nováková&lt;/b&gt;"} {
		if !strings.Contains(page.Body, want) {
			t.Errorf("the mail's page lacks %q", want)
		}
	}
	if strings.Contains(page.Body, "<img src=x") || strings.Contains(page.Body, `href="javascript`) {
		t.Error("the mail's text is not escaped")
	}
	pdf := agent.Get("/sandbox/mail/" + itoa(mails[0].ID) + "/files/0")
	if pdf.StatusCode != 200 || pdf.Body != "%PDF-1.4 proof" || !strings.HasPrefix(pdf.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("attachment: %d %q %v", pdf.StatusCode, pdf.Body, pdf.Header)
	}
	if html := agent.Get("/sandbox/mail/" + itoa(mails[0].ID) + "/files/1"); html.Header.Get("Content-Type") != "application/octet-stream" {
		t.Errorf("an HTML attachment is served as %q", html.Header.Get("Content-Type"))
	}
	for _, p := range []string{"/sandbox/mail/" + itoa(mails[0].ID) + "/files/2", "/sandbox/mail/999999"} {
		if r := agent.Get(p); r.StatusCode != 404 {
			t.Errorf("%s: %d", p, r.StatusCode)
		}
	}
	if r := env.SignedIn(identity.Clerk).Get("/sandbox/mail/" + itoa(mails[0].ID)); r.StatusCode != 403 {
		t.Errorf("a clerk reads customers' mail: %d", r.StatusCode)
	}
	// A failed mail stays on the page with its reason.
	env.App.Catcher.Next(mailcatch.Trouble{Code: 550})
	if _, err := env.App.Outbox.Enqueue(ctx, env.App.DB, mail.Message{EventKey: "claim-link:43", To: "petr@example.com", Subject: "Odkaz", Text: "Text"}); err != nil {
		t.Fatal(err)
	}
	if st, _ := env.App.Outbox.SendDue(ctx); st.Failed != 1 {
		t.Fatalf("%+v", st)
	}
	if body := agent.Get("/sandbox/mail").Body; !strings.Contains(body, "Not sent") || !strings.Contains(body, "550") {
		t.Errorf("the failed mail is not shown with its reason:\n%s", body)
	}
	// Outside sandbox mode real customers' mail is not shown.
	env.App.Upstream.Config.Sandbox = false
	manager := env.SignedIn(identity.Manager)
	for _, p := range []string{"/sandbox/mail", "/sandbox/mail/" + itoa(mails[0].ID), "/sandbox/mail/" + itoa(mails[0].ID) + "/files/0"} {
		if r := manager.Get(p); r.StatusCode != 404 {
			t.Errorf("outside sandbox mode %s: %d", p, r.StatusCode)
		}
	}
}
