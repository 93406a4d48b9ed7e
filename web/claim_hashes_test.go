package web_test

import (
	"context"
	"crypto/sha256"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// keysInDatabase names the tables whose rows, as text, hold any of keys.
func keysInDatabase(t *testing.T, env *apptest.Env, keys []string) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := env.App.DB.SQL().QueryContext(ctx,
		`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	var found []string
	for _, table := range tables {
		for _, k := range keys {
			var n int
			q := `SELECT count(*) FROM "` + table + `" t WHERE strpos(t::text, $1) > 0`
			if err := env.App.DB.SQL().QueryRowContext(ctx, q, k).Scan(&n); err != nil {
				t.Fatalf("%s: %v", table, err)
			}
			if n > 0 {
				found = append(found, table)
			}
		}
	}
	return found
}

// A claim's keys (its one-time link's, its status page's) are kept as their
// SHA-256 only: each mail with the status page's link carries a key of its
// own, every one opens the page. The mails that carried them are kept whole
// a day (the one-time link's life) once sent, then only as records, on the
// test clock; after that no key is anywhere in the database, and the links
// still open the page.
func TestClaimKeysAreKeptAsHashesAndTheirMailsForgotten(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	carrier, point := codePoint(t, env)
	env.Sandbox.Control("POST", "/sandbox/carriers/"+strings.ToLower(carrier)+"/behaviour", map[string]any{"refuse_label_less": true})
	status := fileClaim(t, env, "transport", "code", "point_carrier", carrier, "point_code", point)
	env.Sandbox.Advance(10 * time.Minute)
	env.App.Jobs.Cycle(ctx)
	env.App.Jobs.Cycle(ctx)

	mailed := map[string]bool{}
	keys := []string{tokenOf(status)}
	for _, kind := range []string{"claim-link", "claim-handover", "confirmation"} {
		mails := claimMails(t, env, kind)
		if len(mails) == 0 {
			t.Fatalf("no %s mail", kind)
		}
		for _, m := range mails {
			if m.State != "sent" || m.KeepUntil == nil {
				t.Errorf("%s: %s, kept until %v", m.EventKey, m.State, m.KeepUntil)
			}
			for _, p := range claimPathIn.FindAllString(m.Text, -1) {
				mailed[p] = true
				keys = append(keys, tokenOf(p))
			}
		}
	}
	customer := env.NewBrowser()
	statusKeys := 0
	for p := range mailed {
		if !strings.HasPrefix(p, "/claim/status/") {
			continue
		}
		statusKeys++
		if p == status {
			t.Errorf("a mail carries the redirect's key: each link has its own")
		}
		if r := customer.Get(p); r.StatusCode != 200 || !strings.Contains(r.Body, `data-testid="claim-label"`) {
			t.Errorf("the mailed %s: %d", p, r.StatusCode)
		}
	}
	if statusKeys != 2 {
		t.Errorf("%d status links mailed, want the hand-over's and the confirmation's", statusKeys)
	}
	c, err := env.ClaimByStatus(status)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	sum := sha256.Sum256([]byte(tokenOf(status)))
	if err := env.App.DB.SQL().QueryRowContext(ctx, `SELECT count(*) FROM claim_status_keys WHERE claim_id = $1 AND key_hash = $2`, c.ID, sum[:]).Scan(&n); err != nil || n != 1 {
		t.Errorf("the redirect's key is kept as its hash: %d %v", n, err)
	}
	if found := keysInDatabase(t, env, keys); strings.Join(found, ",") != "mail_outbox,mail_outbox,mail_outbox" {
		t.Errorf("before the mails are done with, keys only in the outbox's mails: %v", found)
	}

	// A day on the test clock: the link's life. Just before, all is kept.
	env.Sandbox.Advance(23 * time.Hour)
	env.App.Jobs.Cycle(ctx)
	if found := keysInDatabase(t, env, keys); len(found) != 3 {
		t.Errorf("the mails went before their time: %v", found)
	}
	env.Sandbox.Advance(2 * time.Hour)
	env.App.Jobs.Cycle(ctx)
	if found := keysInDatabase(t, env, keys); len(found) > 0 {
		t.Errorf("keys in the database after their mails were forgotten: %v", found)
	}
	for _, kind := range []string{"claim-link", "claim-handover", "confirmation"} {
		for _, m := range claimMails(t, env, kind) {
			full, err := env.App.DB.MailByID(ctx, m.ID)
			if err != nil || full.Text != "" || len(full.Attachments) != 0 || full.State != "sent" || full.To != "jana@example.cz" {
				t.Errorf("%s after its day: text %q, %d attachments, %s to %s, %v", m.EventKey, full.Text, len(full.Attachments), full.State, full.To, err)
			}
		}
	}
	if r := customer.Get(status); r.StatusCode != 200 {
		t.Errorf("the status page after the mails were forgotten: %d", r.StatusCode)
	}
}

// The returns desk sees a claim from the page by its id: the commission
// page links the desk's view, never the customer's page; the view shows
// the claim, its files and its label through the desk's own routes, with no
// reply form and no key in it.
func TestReturnsDeskSeesAClaimWithoutTheCustomersKey(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	carrier, point := codePoint(t, env)
	env.Sandbox.Control("POST", "/sandbox/carriers/"+strings.ToLower(carrier)+"/behaviour", map[string]any{"refuse_label_less": true})
	status := fileClaim(t, env, "transport", "code", "point_carrier", carrier, "point_code", point)
	env.Sandbox.Advance(10 * time.Minute)
	env.App.Jobs.Cycle(ctx)
	c, err := env.ClaimByStatus(status)
	if err != nil || c.CommissionID == nil {
		t.Fatalf("claim %+v %v", c, err)
	}
	agent := env.SignedIn(identity.Agent)
	com := agent.Get("/returns/commissions/" + itoa(*c.CommissionID)).Body
	view := "/returns/claims/" + itoa(c.ID)
	if strings.Contains(com, tokenOf(status)) || strings.Contains(com, "/claim/status/") || !strings.Contains(com, `href="`+view+`"`) {
		t.Errorf("the commission page links %q: %s", view, problemsOf(com))
	}
	r := agent.Get(view)
	doc := page(t, r.Body)
	if r.StatusCode != 200 || doc.Find(`[data-testid=claim-as-staff]`).Length() != 1 || doc.Find(`[data-testid=claim-reply]`).Length() != 0 ||
		strings.Contains(r.Body, "/claim/status/") {
		t.Fatalf("the desk's view: %d %s", r.StatusCode, problemsOf(r.Body))
	}
	hrefs := map[string]bool{}
	doc.Find("main a[href]").Each(func(_ int, a *goquery.Selection) { hrefs[a.AttrOr("href", "")] = true })
	label, file, document := false, false, false
	for h := range hrefs {
		switch {
		case h == view+"/label.pdf":
			label = true
		case strings.HasPrefix(h, view+"/files/"):
			file = true
			if f := agent.Get(h); f.StatusCode != 200 || f.Body == "" {
				t.Errorf("the claim's file %s: %d", h, f.StatusCode)
			}
		case strings.HasPrefix(h, "/returns/commissions/"+itoa(*c.CommissionID)+"/documents/"):
			document = true
			if d := agent.Get(h); d.StatusCode != 200 || !strings.HasPrefix(d.Body, "%PDF") {
				t.Errorf("the confirmation %s: %d", h, d.StatusCode)
			}
		}
	}
	if !label || !file || !document {
		t.Errorf("the desk's view links label %v, files %v, confirmation %v: %v", label, file, document, hrefs)
	}
	if l := agent.Get(view + "/label.pdf"); l.StatusCode != 200 || !strings.HasPrefix(l.Body, "%PDF") {
		t.Errorf("label: %d", l.StatusCode)
	}
	if r := env.SignedIn(identity.Clerk).Get(view); r.StatusCode != 403 {
		t.Errorf("a clerk: %d", r.StatusCode)
	}
	if r := agent.Get("/returns/claims/999999"); r.StatusCode != 404 {
		t.Errorf("an unknown claim: %d", r.StatusCode)
	}
}
