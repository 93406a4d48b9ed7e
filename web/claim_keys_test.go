package web_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// lockedBuffer is a log the dashboard writes from many requests at once.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// tokenOf is the key at the end of a claim page's path.
func tokenOf(path string) string { return path[strings.LastIndexByte(path, '/')+1:] }

// No customer's key is written in the log: not a one-time link's, not a
// status page's, on any of their pages, under them, with a slash after them,
// spelled in another case or with doubled slashes, refused as cross-origin
// before any route, or named in a query of a staff page. The request log
// writes each such path with the key replaced.
func TestNoCustomerKeyInTheLog(t *testing.T) {
	t.Parallel()
	logs := &lockedBuffer{}
	env := apptest.StartOptions(t, apptest.Options{CachedPoints: true, Log: logs})
	env.DeliverDemoOrders()
	_, spare := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	status := fileClaim(t, env)
	keys := []string{tokenOf(spare), tokenOf(status)}
	b := env.NewBrowser()
	for _, p := range []string{spare, spare + "/", spare + "/points", status, status + "/", status + "/files/1", status + "/documents/1",
		status + "/label.pdf", status + "/nothing/here", "/CLAIM/Status/" + keys[1], "/claim//status/" + keys[1], "/claim/status/" + keys[1] + "/..",
		"/nowhere?next=" + url.QueryEscape(status)} {
		b.Get(p)
	}
	b.PostForm(status+"/reply", url.Values{"text": {"Hello"}})
	req, _ := http.NewRequest(http.MethodPost, env.URL+spare, strings.NewReader("kind=defect"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	if r := env.NewBrowser().Do(req); r.StatusCode != 403 {
		t.Errorf("a cross-site post: %d", r.StatusCode)
	}
	env.SignedIn(identity.Agent).Get("/nowhere?next=" + url.QueryEscape(status))
	out := logs.String()
	for _, k := range keys {
		if strings.Contains(out, k) || strings.Contains(out, k[:16]) {
			t.Errorf("the log holds the key %s:\n%s", k, out)
		}
	}
	for _, want := range []string{"path=/claim/open/:token ", "path=/claim/status/:token ", "path=/claim/status/:token/files/1 ",
		"path=/claim/status/:token/ ", "path=/CLAIM/Status/:token "} {
		if !strings.Contains(out, want) {
			t.Errorf("the log has no line with %q", want)
		}
	}
}

// A status link changed a little (a slash after it, a segment more, a key
// cut short or lengthened, the wrong method) answers as a wrong key does:
// the customers' "not known" page, never a redirect to the sign-in page with
// the key in its address. A path in another case, which no customer's page
// has, goes to sign-in without the page to come back to.
func TestClaimLinkVariationsNeverGoToSignIn(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	status := fileClaim(t, env)
	key := tokenOf(status)
	b := env.NewBrowser()
	wrong := b.Get("/claim/status/" + strings.Repeat("x", 43))
	if wrong.StatusCode != 404 || wrong.Header.Get("Location") != "" {
		t.Fatalf("a wrong key: %d %s", wrong.StatusCode, wrong.Header.Get("Location"))
	}
	wrongLink := b.Get("/claim/open/" + strings.Repeat("x", 43))
	if wrongLink.StatusCode != 404 {
		t.Fatalf("a wrong link: %d", wrongLink.StatusCode)
	}
	for want, paths := range map[*apptest.Response][]string{
		&wrong: {status + "/", status + "/x", status + "/files/", status[:len(status)-1], status + "a", status + "/label.pdf/",
			"/claim/status/"},
		&wrongLink: {"/claim/open/" + key + "/", "/claim/open/" + key + "/points/x", "/claim/" + key},
	} {
		message := page(t, want.Body).Find("main").Text()
		for _, p := range paths {
			r := b.Get(p)
			if r.StatusCode != 404 || page(t, r.Body).Find("main").Text() != message {
				t.Errorf("GET %s: %d %s, want a wrong key's 404", p, r.StatusCode, r.Header.Get("Location"))
			}
		}
	}
	if r := b.PostForm(status, url.Values{"text": {"Hi"}}); r.StatusCode != 404 || strings.Contains(r.Header.Get("Location"), key) {
		t.Errorf("POST to the status page: %d %s", r.StatusCode, r.Header.Get("Location"))
	}
	for _, p := range []string{"/Claim/status/" + key, "/CLAIM/STATUS/" + key + "/", "/nowhere?next=" + url.QueryEscape(status),
		"/nowhere?back=" + url.QueryEscape("https://shop.example"+status)} {
		r := b.Get(p)
		if loc := r.Header.Get("Location"); r.StatusCode != 303 || loc != "/login" {
			t.Errorf("GET %s: %d to %q, want sign-in without the page", p, r.StatusCode, loc)
		}
	}
	if r := b.Get("/shipping"); r.Header.Get("Location") != "/login?next=%2Fshipping" {
		t.Errorf("a staff page no longer comes back after sign-in: %s", r.Header.Get("Location"))
	}
}

// Every customer's page says no-referrer, and its HTML says no weaker
// policy: the form, the status page, its files, a refusal, the page that asks
// for a link, an unknown link.
func TestClaimPagesSendNoReferrer(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	_, spare := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	status := fileClaim(t, env)
	b := env.NewBrowser()
	answers := map[string]apptest.Response{"POST /claim": b.PostForm("/claim", url.Values{"reference": {""}})}
	for _, p := range []string{"/claim", "/claim?sent=1", spare, status, status + "/", "/claim/open/" + strings.Repeat("x", 43),
		"/claim/status/" + strings.Repeat("x", 43) + "/files/1"} {
		answers["GET "+p] = b.Get(p)
	}
	for what, r := range answers {
		if got := r.Header.Values("Referrer-Policy"); len(got) != 1 || got[0] != "no-referrer" {
			t.Errorf("%s: Referrer-Policy %q", what, got)
		}
		if page(t, r.Body).Find(`meta[name=referrer], meta[name=Referrer]`).Length() > 0 || strings.Contains(strings.ToLower(r.Body), `name="referrer"`) {
			t.Errorf("%s: the page sets its own referrer policy", what)
		}
	}
}
