package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/sandbox/sandboxtest"
)

// A manager asks for the daily summary by e-mail on the Users page; the
// pollers queue one mail a day with the summary attached, however often
// they run, and send it. Wrong addresses and header tricks are refused with
// the typed value kept; only managers may ask.
func TestDailySummaryByMail(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	ctx := context.Background()
	env.AddUser("marta", identity.Manager)
	env.AddUser("clara", identity.Clerk)
	martaID, clerkID := userID(t, env, "marta"), userID(t, env, "clara")
	m := env.SignedIn(identity.Manager)
	page := "/users/" + martaID

	for _, bad := range []string{"marta@example.com\r\nBcc: all@example.com", "Marta <marta@example.com>", "a@b.cz, c@d.cz", "marta\x00@example.com",
		"not an address", "\xff@example.com", strings.Repeat("a", 200) + "@example.com", "<script>alert(1)</script>@example.com"} {
		resp := m.PostForm(page+"/mail", url.Values{"email": {bad}, "daily_summary": {"on"}})
		if resp.StatusCode != 422 || strings.Contains(resp.Body, "<script>alert") {
			t.Errorf("%q: %d", bad, resp.StatusCode)
		}
	}
	if resp := m.PostForm(page+"/mail", url.Values{"daily_summary": {"on"}}); resp.StatusCode != 422 || !strings.Contains(resp.Body, "needs an e-mail address") {
		t.Errorf("a summary without an address: %d", resp.StatusCode)
	}
	clerkPage := "/users/" + clerkID
	if resp := m.PostForm(clerkPage+"/mail", url.Values{"email": {"clara@example.com"}, "daily_summary": {"on"}}); resp.StatusCode != 422 || !strings.Contains(resp.Body, "Only managers") {
		t.Errorf("a clerk's summary: %d", resp.StatusCode)
	}
	if resp := env.SignedIn(identity.Agent).PostForm(page+"/mail", url.Values{"email": {"x@example.com"}}); resp.StatusCode != 403 {
		t.Errorf("an agent sets a manager's e-mail: %d", resp.StatusCode)
	}
	if n, _ := env.App.DB.SummaryReaders(ctx); len(n) != 0 {
		t.Fatalf("refused settings were kept: %+v", n)
	}

	if resp := m.PostForm(page+"/mail", url.Values{"email": {"marta@example.com"}, "daily_summary": {"on"}}); resp.StatusCode != 303 {
		t.Fatalf("save: %d %s", resp.StatusCode, resp.Body)
	}
	if body := m.Get(page).Body; !strings.Contains(body, `value="marta@example.com"`) || !strings.Contains(body, "checked") {
		t.Error("the saved settings are not shown")
	}
	for range 3 { // every cycle of the pollers; one mail a day
		env.App.Jobs.Cycle(ctx)
	}
	caught := env.App.Catcher.All()
	if len(caught) != 1 {
		t.Fatalf("caught %d mails", len(caught))
	}
	c := caught[0]
	if !strings.Contains(c.To, "marta@example.com") || !strings.HasPrefix(c.Subject, "Needs attention") || len(c.Attachments) != 1 ||
		!strings.HasSuffix(c.Attachments[0].Name, ".xlsx") || !strings.HasPrefix(string(c.Attachments[0].Data), "PK") {
		t.Fatalf("caught %+v", c)
	}
	mails, _ := env.App.DB.RecentMail(ctx, 10)
	want := "attention-summary:" + martaID + ":" + sandboxtest.Epoch.Format("2006-01-02")
	if len(mails) != 1 || mails[0].EventKey != want {
		t.Fatalf("outbox %+v, want one %s", mails, want)
	}
	// The next day brings the next summary.
	env.Sandbox.Advance(24 * time.Hour)
	env.App.Jobs.Cycle(ctx)
	if n := len(env.App.Catcher.All()); n != 2 {
		t.Errorf("after a day: %d mails", n)
	}
}
