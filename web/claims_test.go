package web_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/storage"
)

// claimEnv is a dashboard whose demo shipments have been delivered: DEMO-1
// went to jana@example.cz (+420 777 123 456) with 1 250 Kč on delivery.
func claimEnv(t *testing.T) *apptest.Env {
	t.Helper()
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true})
	env.DeliverDemoOrders()
	return env
}

// claimMails are the mails recorded for an event kind ("claim-link"), newest first.
func claimMails(t testing.TB, env *apptest.Env, kind string) []storage.OutMail {
	t.Helper()
	all, err := env.App.DB.RecentMail(context.Background(), 200)
	if err != nil {
		t.Fatal(err)
	}
	var out []storage.OutMail
	for _, m := range all {
		if strings.HasPrefix(m.EventKey, kind+":") {
			out = append(out, m)
		}
	}
	return out
}

// answerAsks runs the pollers' answer to the asks for links.
func answerAsks(t testing.TB, env *apptest.Env) {
	t.Helper()
	if _, err := env.App.Claims.AnswerAsks(context.Background()); err != nil {
		t.Fatal(err)
	}
}

var claimPathIn = regexp.MustCompile(`/claim/(open|status)/[A-Za-z0-9_-]{43}`)

// askLink asks for the link as a customer does, lets the pollers answer the
// ask, and returns the path the mail carries ("" when no mail was recorded).
func askLink(t *testing.T, env *apptest.Env, b *apptest.Browser, reference, contact string) (apptest.Response, string) {
	t.Helper()
	before := len(claimMails(t, env, "claim-link"))
	resp := b.PostForm("/claim", url.Values{"reference": {reference}, "contact": {contact}})
	answerAsks(t, env)
	mails := claimMails(t, env, "claim-link")
	if len(mails) == before {
		return resp, ""
	}
	return resp, claimPathIn.FindString(mails[0].Text)
}

// The page answers a right pair of reference and contact exactly as a wrong
// one: the same status, the same page; only the right one records a mail,
// to the purchase's e-mail, with a link that opens its form.
func TestClaimLinkAnswersTheSameWhetherOrNotThePurchaseExists(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	b := env.NewBrowser()
	if r := b.Get("/claim"); r.StatusCode != 200 || !strings.Contains(r.Body, `name="reference"`) {
		t.Fatalf("/claim: %d", r.StatusCode)
	}
	type answer struct {
		status   int
		location string
		body     string
	}
	answerOf := func(ref, contact string) (answer, string) {
		resp, link := askLink(t, env, env.NewBrowser(), ref, contact)
		follow := env.NewBrowser().Get(resp.Header.Get("Location"))
		return answer{resp.StatusCode, resp.Header.Get("Location"), follow.Body}, link
	}
	right, link := answerOf("DEMO-1", "jana@example.cz")
	if link == "" || right.status != 303 {
		t.Fatalf("the right pair: %+v, link %q", right.status, link)
	}
	for _, wrong := range [][2]string{{"DEMO-1", "petr@example.cz"}, {"DEMO-404", "jana@example.cz"}, {"DEMO-2", "jana@example.cz"},
		{"demo-1", "+420 777 123 455"}} {
		got, l := answerOf(wrong[0], wrong[1])
		if l != "" {
			t.Errorf("%v recorded a mail", wrong)
		}
		if got != right {
			t.Errorf("%v answers differently from the right pair:\n%+v\n%+v", wrong, got, right)
		}
	}
	// The phone the parcel went to, in any spelling, and the reference in any case.
	if _, l := askLink(t, env, env.NewBrowser(), " demo-1 ", "777123456"); l == "" {
		t.Error("the phone and a lower-case reference found nothing")
	}
	m := claimMails(t, env, "claim-link")[0]
	if m.To != "jana@example.cz" || !strings.Contains(m.Subject, "DEMO-1") {
		t.Errorf("mail to %q: %q", m.To, m.Subject)
	}
	form := b.Get(link)
	if form.StatusCode != 200 || !strings.Contains(form.Body, "DEMO-1") || !strings.Contains(form.Body, "Masarykova 5") {
		t.Fatalf("the link's form: %d", form.StatusCode)
	}
	if form.Header.Get("Cache-Control") != "no-store" || form.Header.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("the form may be kept or referred: %v", form.Header)
	}
	if !strings.Contains(form.Header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Error("no CSP on the public form")
	}
	// Unreadable input is a clear problem, not a mail.
	for _, bad := range [][2]string{{"", "jana@example.cz"}, {"DEMO-1", ""}, {"DEMO\x00-1", "jana@example.cz"}, {"DEMO-1", "jana@@example"}} {
		resp, l := askLink(t, env, env.NewBrowser(), bad[0], bad[1])
		if resp.StatusCode != 422 || l != "" {
			t.Errorf("%q: %d, mail %v", bad, resp.StatusCode, l != "")
		}
	}
}

// Asking for links is throttled per purchase and per its mailbox, whichever
// client asks: the sixth ask within the hour answers as every ask does (a
// 429 would tell a stranger the purchase exists) and sends nothing.
// (It used to answer 429, counted by the typed pair.)
func TestClaimLinksAreThrottled(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	for i := 0; i < 5; i++ {
		if r, l := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz"); r.StatusCode != 303 || l == "" {
			t.Fatalf("ask %d: %d, mail %v", i+1, r.StatusCode, l != "")
		}
	}
	if n := len(claimMails(t, env, "claim-link")); n != 5 {
		t.Errorf("%d mails for 5 asks", n)
	}
	r, l := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	if r.StatusCode != 303 || r.Header.Get("Location") != "/claim?sent=1" || l != "" {
		t.Errorf("the sixth ask: %d %q, mail %v", r.StatusCode, r.Header.Get("Location"), l != "")
	}
}

// claimPost posts the claim form (multipart) with its files.
func claimPost(t *testing.T, env *apptest.Env, b *apptest.Browser, path string, fields url.Values, files map[string][][2]string) apptest.Response {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, vs := range fields {
		for _, v := range vs {
			_ = mw.WriteField(k, v)
		}
	}
	for field, list := range files {
		for _, f := range list {
			fw, _ := mw.CreateFormFile(field, f[0])
			_, _ = fw.Write([]byte(f[1]))
		}
	}
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, env.URL+path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", env.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	return b.Do(req)
}

// claimFields is the form a link opened, as drawn, with choices made.
func claimFields(t *testing.T, body string, kv ...string) url.Values {
	t.Helper()
	doc := page(t, body)
	v := url.Values{}
	doc.Find(`[data-testid=claim-form] input[type=hidden], [data-testid=claim-form] input[type=text], [data-testid=claim-form] input[type=tel]`).Each(func(_ int, s *goquery.Selection) {
		v.Set(s.AttrOr("name", ""), s.AttrOr("value", ""))
	})
	doc.Find(`[data-testid=claim-form] input[type=radio][checked]`).Each(func(_ int, s *goquery.Selection) {
		v.Set(s.AttrOr("name", ""), s.AttrOr("value", "")) // chosen already, as a browser sends it
	})
	v.Set("model_id", doc.Find(`#model_id optgroup option`).First().AttrOr("value", ""))
	return with(v, kv...)
}

// A flood of the public pages from one client is turned away in memory
// after its burst: refused requests store nothing and send no mail, and the
// staff's pages answer beside it.
func TestClaimPagesTurnAwayAFlood(t *testing.T) {
	t.Parallel()
	env := apptest.StartOptions(t, apptest.Options{PublicBurst: 20, PublicEvery: time.Hour, CachedPoints: true})
	env.DeliverDemoOrders()
	ctx := context.Background()
	staff := env.SignedIn(identity.Manager)
	count := func(table string) (n int) {
		_ = env.App.DB.SQL().QueryRowContext(ctx, "SELECT count(*) FROM "+table).Scan(&n)
		return n
	}
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := env.NewBrowser()
			for j := 0; j < 10; j++ {
				r := b.PostForm("/claim", url.Values{"reference": {"DEMO-1"}, "contact": {"jana@example.cz"}})
				g := b.Get("/claim/status/" + strings.Repeat("x", 43))
				mu.Lock()
				codes[r.StatusCode]++
				codes[g.StatusCode]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if codes[429] < 300 || codes[500] > 0 {
		t.Errorf("answers to 320 requests with a burst of 20: %v", codes)
	}
	// What the database holds is what the admitted requests stored: a hit
	// each, and an ask per answered post; the refused stored nothing.
	if admitted := 320 - codes[429]; count("throttle_hits") > admitted || count("claim_link_asks") > codes[303] {
		t.Errorf("%d throttle hits and %d asks stored for %d admitted requests (%d answered asks)",
			count("throttle_hits"), count("claim_link_asks"), admitted, codes[303])
	}
	answerAsks(t, env)
	if n := len(claimMails(t, env, "claim-link")); n > 5 {
		t.Errorf("%d link mails for one address; its limit is 5 an hour", n)
	}
	if r := staff.Get("/shipping"); r.StatusCode != 200 {
		t.Errorf("the staff's list beside the flood: %d", r.StatusCode)
	}
	if r := env.NewBrowser().Get("/claim"); r.StatusCode != 429 || !strings.Contains(r.Body, "Too many attempts") || r.Header.Get("Retry-After") == "" {
		t.Errorf("the flooding client's next page: %d", r.StatusCode)
	}
}
