package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

func htmlLang(t *testing.T, body string) string {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	lang, _ := doc.Find("html").Attr("lang")
	return lang
}

func TestTheBrowsersLanguageBeforeSignIn(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	for _, c := range []struct{ accept, lang, heading string }{
		{"cs-CZ,cs;q=0.9,en;q=0.8", "cs", "Přihlášení do shipdesku"},
		{"en-GB", "en", "Sign in to shipdesk"},
		{"de-DE", "en", "Sign in to shipdesk"}, // none of ours: the installation's language
	} {
		t.Run(c.accept, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, env.URL+"/login", nil)
			req.Header.Set("Accept-Language", c.accept)
			resp := env.NewBrowser().Do(req)
			if got := htmlLang(t, resp.Body); got != c.lang || !strings.Contains(resp.Body, c.heading) {
				t.Errorf("<html lang=%q>, heading %q missing", got, c.heading)
			}
		})
	}
}

func TestStaffChooseTheirLanguageAndItIsSaved(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("eva", identity.Clerk)
	signIn := func() *apptest.Browser {
		b := env.NewBrowser()
		if r := b.PostForm("/login", url.Values{"username": {"eva"}, "password": {pw}}); r.StatusCode != http.StatusSeeOther {
			t.Fatalf("sign in: %d", r.StatusCode)
		}
		return b
	}
	b := signIn()
	if home := b.Get("/").Body; htmlLang(t, home) != "en" || !strings.Contains(home, "Shipping") {
		t.Fatal("the installation's language is not the first")
	}
	if r := b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/shipping"}}); r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/shipping" {
		t.Fatalf("switch: %d %s", r.StatusCode, r.Header.Get("Location"))
	}
	if home := b.Get("/").Body; htmlLang(t, home) != "cs" || !strings.Contains(home, "Expedice") {
		t.Error("the switch did not take")
	}
	// Saved with the account: another browser signed in as eva reads Czech too.
	if home := signIn().Get("/").Body; htmlLang(t, home) != "cs" {
		t.Error("the choice is not saved with the account")
	}
	for _, bad := range []string{"de", "", "\x00", "cs\u202e", strings.Repeat("c", 10000)} {
		if r := b.PostForm("/language", url.Values{"lang": {bad}, "back": {"/"}}); r.StatusCode >= 500 {
			t.Errorf("language %q: %d", bad, r.StatusCode)
		}
	}
	if r := b.PostForm("/language", url.Values{"lang": {"en"}, "back": {"//evil.example"}}); r.Header.Get("Location") != "/" {
		t.Errorf("back to %q", r.Header.Get("Location"))
	}
}

// A staff member who never chose a language reads the installation's after
// sign-in, whatever the browser's language; the browser's decides only the
// sign-in page.
func TestTheInstallationsLanguageAfterSignIn(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t) // the installation's language: English
	pw := env.AddUser("jana", identity.Clerk)
	b := env.NewBrowser()
	get := func(path string) apptest.Response {
		req, _ := http.NewRequest(http.MethodGet, env.URL+path, nil)
		req.Header.Set("Accept-Language", "cs-CZ,cs;q=0.9")
		return b.Do(req)
	}
	if got := htmlLang(t, get("/login").Body); got != "cs" {
		t.Fatalf("the sign-in page is in %q, want the browser's cs", got)
	}
	if r := b.PostForm("/login", url.Values{"username": {"jana"}, "password": {pw}}); r.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign in: %d", r.StatusCode)
	}
	if home := get("/"); htmlLang(t, home.Body) != "en" || !strings.Contains(home.Body, "Shipping") {
		t.Errorf("after sign-in the page is in %q, want the installation's en", htmlLang(t, home.Body))
	}
}
