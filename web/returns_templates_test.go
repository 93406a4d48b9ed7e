package web_test

import (
	"net/url"
	"strings"
	"testing"
)

// While a two-way commission waits for the customer's goods, the message
// templates do not offer "we have received the goods", nor is it filled in
// when asked for by its name.
func TestReceivedTemplateWaitsForTheGoods(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	page := newCommission(t, env, b, map[string]string{"two_way": "on"})
	doc := htmlOf(t, b.Get(page).Body)
	if got := doc.Find(`[data-testid=commission-status]`).Text(); !strings.Contains(got, "waiting for the goods") {
		t.Fatalf("status %q, want waiting for the goods", got)
	}
	if n := doc.Find(`#template option[value=received]`).Length(); n != 0 {
		t.Errorf("\"received\" is offered while the goods are on their way")
	}
	if n := doc.Find(`#template option[value=repaired]`).Length(); n != 1 {
		t.Errorf("the other templates are gone too: %d", n)
	}
	if got := htmlOf(t, b.Get(page+"?template=received&tlang=en").Body).Find(`#message_text`).Text(); got != "" {
		t.Errorf("\"received\" filled in while waiting for the goods: %q", got)
	}
}

// The commission page names the 30-day period once: "Lhůta: zbývá 30 dní",
// not "Zbývá: zbývá 30 dní".
func TestPeriodIsNamedOnce(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	page := newCommission(t, env, b, nil)
	b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {page}})
	doc := htmlOf(t, b.Get(page).Body)
	left := doc.Find(`[data-testid=days-left]`)
	if left.Length() != 1 || !strings.Contains(left.Text(), "zbývá") {
		t.Fatalf("a warranty claim shows no days left in Czech: %q", left.Text())
	}
	if label := strings.TrimSpace(left.Prev().Text()); label != "Lhůta" {
		t.Errorf("the period says %q: %q", label, left.Text())
	}
}
