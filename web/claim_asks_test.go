package web_test

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"shipdesk/app/apptest"
	"shipdesk/claims"
	"shipdesk/throttle"
)

// askFrom posts an ask for a link from the client at addr (the dashboard
// trusts X-Forwarded-For), without answering it.
func askFrom(t *testing.T, env *apptest.Env, addr, reference, contact string) apptest.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, env.URL+"/claim", strings.NewReader(url.Values{"reference": {reference}, "contact": {contact}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", env.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("X-Forwarded-For", addr)
	return env.NewBrowser().Do(req)
}

func claimEnvWith(t *testing.T, l claims.Limits) *apptest.Env {
	t.Helper()
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true, TrustProxy: true, ClaimLimits: &l})
	env.DeliverDemoOrders()
	return env
}

func rows(t *testing.T, env *apptest.Env, query string, args ...any) (n int) {
	t.Helper()
	if err := env.App.DB.SQL().QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The answer to an ask does not wait for the purchase to be looked up: with
// every table the lookup and its mail would read or write held by another
// transaction, a right pair and two wrong ones are answered at once, alike in
// status, headers and body; the lookup comes after, and only the right pair
// gets a mail. A recipient's name longer than a mail's line changes nothing.
func TestClaimAskAnswersBeforeTheLookup(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	long := strings.Repeat("Nováková ", 40)
	if _, err := env.App.DB.SQL().ExecContext(ctx, `UPDATE shipments SET request = jsonb_set(request, '{shipments,0,to,surname}', to_jsonb($1::text))
WHERE reference = 'DEMO-1'`, long); err != nil {
		t.Fatal(err)
	}
	hold, err := env.App.DB.SQL().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Rollback() //nolint:errcheck
	if _, err := hold.ExecContext(ctx, `LOCK TABLE shipments, claim_links, mail_outbox IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		status int
		header http.Header
		body   string
	}
	var answers []answer
	for _, pair := range [][2]string{{"DEMO-1", "jana@example.cz"}, {"DEMO-404", "jana@example.cz"}, {"DEMO-1", "petr@example.cz"}} {
		b := env.NewBrowser()
		b.Timeout = 10 * time.Second
		req, _ := http.NewRequest(http.MethodPost, env.URL+"/claim", strings.NewReader(url.Values{"reference": {pair[0]}, "contact": {pair[1]}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", env.URL)
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		resp, err := b.Client.Do(req)
		if err != nil {
			t.Fatalf("%v: no answer while the purchases are held: %v", pair, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		resp.Header.Del("Date")
		resp.Header.Del("X-Request-Id") // every answer's own
		answers = append(answers, answer{resp.StatusCode, resp.Header, string(body)})
	}
	for i, a := range answers {
		if a.status != http.StatusSeeOther || a.header.Get("Location") != "/claim?sent=1" {
			t.Errorf("answer %d: %d %q", i, a.status, a.header.Get("Location"))
		}
		if a.body != answers[0].body || len(a.header) != len(answers[0].header) {
			t.Errorf("answer %d differs from the right pair's:\n%v %q\n%v %q", i, a.header, a.body, answers[0].header, answers[0].body)
		}
		for k, v := range answers[0].header {
			if strings.Join(a.header[k], ",") != strings.Join(v, ",") {
				t.Errorf("answer %d says %s: %q, the right pair's %q", i, k, a.header[k], v)
			}
		}
	}
	var mails, links, asks int
	if err := hold.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM mail_outbox WHERE event_key LIKE 'claim-%'), (SELECT count(*) FROM claim_links),
(SELECT count(*) FROM claim_link_asks)`).Scan(&mails, &links, &asks); err != nil || mails+links != 0 || asks != 3 {
		t.Fatalf("before the lookup: %d mails, %d links, %d asks (%v)", mails, links, asks, err)
	}
	if err := hold.Rollback(); err != nil {
		t.Fatal(err)
	}
	answerAsks(t, env)
	sent := claimMails(t, env, "claim-link")
	if len(sent) != 1 || sent[0].To != "jana@example.cz" {
		t.Fatalf("mails after the lookup: %+v", sent)
	}
	if n := utf8.RuneCountInString(sent[0].ToName); n != 200 || !strings.HasPrefix(sent[0].ToName, "Jana Nováková") {
		t.Errorf("the long name as the mail carries it (%d characters): %q", n, sent[0].ToName)
	}
	if n := rows(t, env, `SELECT count(*) FROM claim_link_asks`); n != 0 {
		t.Errorf("%d asks left after they were answered", n)
	}
}

// A person is counted once: the purchase however it is named (reference or
// tracking number) and its mailbox however the contact is typed (e-mail or
// phone), from any client. Eight asks in an hour get the five links the
// limit allows, not one set per spelling.
func TestClaimLinksCountAPersonOnce(t *testing.T) {
	t.Parallel()
	env := claimEnvWith(t, claims.DefaultLimits)
	sh, err := env.App.DB.ShipmentByReference(context.Background(), "DEMO-1")
	if err != nil || sh.Tracking() == "" {
		t.Fatalf("DEMO-1: %v", err)
	}
	names := []string{"DEMO-1", sh.Tracking(), "demo-1", " " + strings.ToLower(sh.Tracking())}
	contacts := []string{"jana@example.cz", "+420 777 123 456", "JANA@example.cz", "777-123-456"}
	for i := range 8 {
		if r := askFrom(t, env, "198.51.100."+strconv.Itoa(i+1), names[i%4], contacts[(i/2)%4]); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("ask %d: %d", i+1, r.StatusCode)
		}
		answerAsks(t, env)
	}
	if n := len(claimMails(t, env, "claim-link")); n != 5 {
		t.Errorf("%d link mails for one person in an hour; the limit is 5", n)
	}
}

// Asks with someone's e-mail and made-up orders count against the client
// that makes them, never against that person: after ten of them the owner
// still gets a link. The client itself is refused after its limit, told
// when to come back, and its refused ask stores nothing.
func TestMadeUpAsksLockNobodyOut(t *testing.T) {
	t.Parallel()
	l := claims.DefaultLimits
	l.Client = throttle.Limit{Hits: 10, Window: time.Hour}
	env := claimEnvWith(t, l)
	const stranger = "203.0.113.9"
	for i := range 10 {
		if r := askFrom(t, env, stranger, "DEMO-40"+strconv.Itoa(i), "jana@example.cz"); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("made-up ask %d: %d", i+1, r.StatusCode)
		}
	}
	answerAsks(t, env)
	if n := len(claimMails(t, env, "claim-link")); n != 0 {
		t.Fatalf("%d mails for made-up orders", n)
	}
	hits := rows(t, env, `SELECT count(*) FROM throttle_hits`)
	r := askFrom(t, env, stranger, "DEMO-1", "jana@example.cz")
	wait, _ := strconv.Atoi(r.Header.Get("Retry-After"))
	if r.StatusCode != http.StatusTooManyRequests || wait < 3500 || wait > 3600 || !strings.Contains(r.Body, "Too many attempts") {
		t.Errorf("the stranger's eleventh ask: %d, Retry-After %q", r.StatusCode, r.Header.Get("Retry-After"))
	}
	if n := rows(t, env, `SELECT count(*) FROM throttle_hits`); n != hits {
		t.Errorf("the refused ask stored %d hits", n-hits)
	}
	if r := askFrom(t, env, "198.51.100.7", "DEMO-1", "jana@example.cz"); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("Jana's ask: %d", r.StatusCode)
	}
	answerAsks(t, env)
	if m := claimMails(t, env, "claim-link"); len(m) != 1 || m[0].To != "jana@example.cz" {
		t.Errorf("Jana's link after a stranger's asks with her e-mail: %+v", m)
	}
}

// The throttles' windows slide on the dashboard's clock: a hit counts for an
// hour from when it was made, not until a fixed window ends, so a new hour
// admits only as many as have aged out, and Retry-After and the message say
// when the next is admitted. A refused request stores nothing. An unknown
// status page's refusal says Retry-After too.
func TestClaimThrottleWindowSlides(t *testing.T) {
	t.Parallel()
	l := claims.DefaultLimits
	l.Client = throttle.Limit{Hits: 3, Window: time.Hour}
	l.Unknown = throttle.Limit{Hits: 2, Window: time.Hour}
	env := claimEnvWith(t, l)
	const client = "203.0.113.20"
	ask := func() apptest.Response { return askFrom(t, env, client, "DEMO-404", "eva@example.cz") }
	if r := ask(); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("first ask: %d", r.StatusCode)
	}
	env.Sandbox.Advance(30 * time.Minute)
	for i := range 2 {
		if r := ask(); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("ask %d: %d", i+2, r.StatusCode)
		}
	}
	second := time.Now() // the clock runs on in real time between the steps
	env.Sandbox.Advance(29 * time.Minute)
	r := ask()
	wait, _ := strconv.Atoi(r.Header.Get("Retry-After"))
	if r.StatusCode != http.StatusTooManyRequests || wait > 60 || wait < 60-int(time.Since(second).Seconds())-1 ||
		!strings.Contains(r.Body, "try again in 1 minute.") {
		t.Fatalf("the fourth ask within the hour: %d, Retry-After %q", r.StatusCode, r.Header.Get("Retry-After"))
	}
	if hits, asks := rows(t, env, `SELECT count(*) FROM throttle_hits`), rows(t, env, `SELECT count(*) FROM claim_link_asks`); hits != 3 || asks != 3 {
		t.Errorf("after a refusal: %d hits, %d asks stored; want 3 and 3", hits, asks)
	}
	// Past the hour of the first ask: one place is free, not three.
	env.Sandbox.Advance(time.Minute)
	if r := ask(); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("an hour after the first ask: %d", r.StatusCode)
	}
	r = ask()
	wait, _ = strconv.Atoi(r.Header.Get("Retry-After"))
	if r.StatusCode != http.StatusTooManyRequests || wait < 29*60 || wait > 30*60 || !strings.Contains(r.Body, "try again in 30 minutes.") {
		t.Errorf("the second ask of the new hour: %d, Retry-After %q", r.StatusCode, r.Header.Get("Retry-After"))
	}
	for range 2 {
		env.NewBrowser().Get("/claim/status/" + strings.Repeat("x", 43))
	}
	g := env.NewBrowser().Get("/claim/status/" + strings.Repeat("x", 43))
	if wait, _ := strconv.Atoi(g.Header.Get("Retry-After")); g.StatusCode != http.StatusTooManyRequests || wait < 3500 || wait > 3600 {
		t.Errorf("the third unknown status page: %d, Retry-After %q", g.StatusCode, g.Header.Get("Retry-After"))
	}
}

// A purchase that has only a phone gets no link, and the page after the ask
// says so, the same for every ask: an order without an e-mail gets no link,
// and here is how to reach the shop. Nothing tells a stranger which case
// the ask was.
func TestPhoneOnlyPurchaseIsToldTheTruth(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	shop, err := env.App.DB.ShopIdentity(context.Background()) // the shop speaks, not a sender of the address book
	if err != nil || shop.ReplyEmail == "" {
		t.Fatalf("the shop's identity: %+v %v", shop, err)
	}
	phoneOnly, link := askLink(t, env, env.NewBrowser(), "DEMO-2", "+420 731 222 333")
	if link != "" {
		t.Fatal("a purchase without an e-mail recorded a mail")
	}
	madeUp, _ := askLink(t, env, env.NewBrowser(), "DEMO-404", "+420 731 222 333")
	if phoneOnly.StatusCode != http.StatusSeeOther || phoneOnly.Header.Get("Location") != madeUp.Header.Get("Location") {
		t.Fatalf("phone only %d %q, made up %d %q", phoneOnly.StatusCode, phoneOnly.Header.Get("Location"), madeUp.StatusCode, madeUp.Header.Get("Location"))
	}
	sent := env.NewBrowser().Get(phoneOnly.Header.Get("Location"))
	doc := page(t, sent.Body)
	if got := doc.Find(`[data-testid=claim-sent]`).Text(); !strings.Contains(got, "and it has an e-mail") {
		t.Errorf("the sentence after an ask: %q", got)
	}
	noEmail := doc.Find(`[data-testid=claim-no-email]`).Text()
	if !strings.Contains(noEmail, "without an e-mail") || !strings.Contains(noEmail, shop.ReplyEmail) {
		t.Errorf("what an order without an e-mail is told: %q (the shop's e-mail %s)", noEmail, shop.ReplyEmail)
	}
	if got := doc.Find(`[data-testid=claim-sent-limit]`).Text(); !strings.Contains(got, "at most 5 links an hour") {
		t.Errorf("the limit: %q", got)
	}
	cs := env.NewBrowser()
	req, _ := http.NewRequest(http.MethodGet, env.URL+"/claim?sent=1", nil)
	req.Header.Set("Accept-Language", "cs")
	if got := page(t, cs.Do(req).Body).Find(`[data-testid=claim-no-email]`).Text(); !strings.Contains(got, "bez e-mailu") {
		t.Errorf("in Czech: %q", got)
	}
}
