package web_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// A clerk who chose Czech reads the form's problems in Czech: our own rules
// (an empty surname, a COD amount under the minimum, a missing account) and
// the service's refusals that we know (its maximum for the service).
func TestFormProblemsInCzech(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	if r := b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/shipping/new"}}); r.StatusCode != 303 {
		t.Fatalf("switch to Czech: %d", r.StatusCode)
	}

	// Our rules, before anything is sent.
	bad := with(shipmentForm(t, env), "to_surname", "", "to_company", "", "cod", "on", "cod_currency", "CZK", "cod_value", "29,50")
	resp := b.PostForm("/shipping/new/order", bad)
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("order with problems: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	for field, want := range map[string]string{
		"to_surname":       "Napište příjmení nebo firmu příjemce.",
		"cod_value":        "Nejnižší částka dobírky je 30 CZK.",
		"cod_bank_account": "Pro dobírku je potřeba bankovní účet.",
	} {
		if got := fieldError(resp.Body, field); got != want {
			t.Errorf("%s says %q, want %q", field, got, want)
		}
	}
	message := strings.TrimSpace(page(t, resp.Body).Find(".form-message").First().Text())
	for _, want := range []string{"Některé údaje je potřeba opravit", "Nejdřív porovnejte nabídky a jednu vyberte."} {
		if !strings.Contains(message, want) {
			t.Errorf("the form's message %q lacks %q", message, want)
		}
	}
	for _, english := range []string{"surname or company", "minimum cash on delivery", "bank account is required", "Some fields need attention", "Compare offers"} {
		if strings.Contains(resp.Body, english) {
			t.Errorf("the form still says %q in English: %s", english, problemsOf(resp.Body))
		}
	}
	if got := fieldError(b.PostForm("/shipping/new/compare", with(bad, "cod_value", "dvě stě")).Body, "cod_value"); got != "Napište částku dobírky, např. 1250." {
		t.Errorf("a COD amount that is no number: %q", got)
	}

	// The service's own rule, said in Czech: its maximum for the chosen service.
	order := with(shipmentForm(t, env), "cod", "on", "cod_currency", "CZK", "cod_value", "1 299",
		"cod_bank_account", "2000145399/0800", "cod_bank_code", "")
	offers := b.PostForm("/shipping/new/compare", order)
	chosen := b.PostForm("/shipping/new/choose", with(order, "choose", offerOf(t, offers.Body, "UPS")))
	resp = b.PostForm("/shipping/new/order", with(merge(order, hiddenFields(chosen.Body)), "cod_value", "150 000"))
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("order over the service's maximum: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if got := fieldError(resp.Body, "cod_value"); got != "Nejvyšší částka dobírky u této služby je 100000 CZK" {
		t.Errorf("the service's maximum says %q", got)
	}
	if !strings.Contains(resp.Body, "Služba požadavek odmítla: podívejte se na označená pole.") {
		t.Errorf("the service's refusal is not said in Czech: %s", problemsOf(resp.Body))
	}
}

// postIn posts a form from our own origin with the browser's language.
func postIn(b *apptest.Browser, env *apptest.Env, lang, path string, form url.Values) apptest.Response {
	req, _ := http.NewRequest(http.MethodPost, env.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", env.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Accept-Language", lang)
	return b.Do(req)
}

// A Czech browser's sign-in failures are in Czech: wrong credentials, then
// too many of them.
func TestSignInFailuresInCzech(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	env.AddUser("eva", identity.Clerk)
	b := env.NewBrowser()
	wrong := url.Values{"username": {"eva"}, "password": {"not her password"}}
	resp := postIn(b, env, "cs-CZ,cs;q=0.9", "/login", wrong)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong password: %d", resp.StatusCode)
	}
	if got := strings.TrimSpace(page(t, resp.Body).Find(".form-message").Text()); got != "Uživatelské jméno nebo heslo nesouhlasí, nebo je účet zablokovaný." {
		t.Errorf("wrong password says %q", got)
	}
	if got := fieldError(postIn(b, env, "cs", "/login", url.Values{"username": {"eva\x07"}, "password": {"x"}}).Body, "username"); got != "Obsahuje řídicí znaky: odstraňte je." {
		t.Errorf("a control character in the username says %q", got)
	}
	for range 20 {
		resp = postIn(b, env, "cs", "/login", wrong)
		if resp.StatusCode == http.StatusTooManyRequests {
			break
		}
	}
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("never throttled: %d", resp.StatusCode)
	}
	got := strings.TrimSpace(page(t, resp.Body).Find(".form-message").Text())
	if !strings.Contains(got, "neúspěšných přihlášení") || !strings.Contains(got, "Počkejte ") || !strings.Contains(got, "a zkuste to znovu.") {
		t.Errorf("throttled sign-in says %q", got)
	}
	if resp := postIn(b, env, "en", "/login", wrong); !strings.Contains(resp.Body, "Too many failed sign-ins") {
		t.Errorf("the same refusal in English: %s", problemsOf(resp.Body))
	}
}
