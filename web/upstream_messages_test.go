package web_test

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/identity"
	"shipdesk/workbench"
)

// rawTransportText is what a failed link says in the log; a person never reads it.
var rawTransportText = []string{"EOF", "connection reset", "context deadline", "no answer from the service", "no answer within", "broken pipe"}

// english is a catalog text as the test app (which runs in English) shows it.
func english(key string, args ...any) string { return apperr.Msg(key, args...).String() }

func showsOnlyThePersonFacingText(t *testing.T, what, body, want string) {
	t.Helper()
	text := html.UnescapeString(body)
	if !strings.Contains(text, want) {
		t.Errorf("%s: %q not shown: %s", what, want, problemsOf(body))
	}
	for _, raw := range rawTransportText {
		if strings.Contains(text, raw) {
			t.Errorf("%s shows %q: %s", what, raw, problemsOf(body))
		}
	}
}

func TestDroppedAnswersShowAFixedMessage(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)

	// Compare offers: every attempt of rates/get loses its connection after
	// it was sent, so the answer was lost.
	env.Sandbox.Fault("/api/v1/rates/get", map[string]any{"drop_rate": 1, "count": 10})
	resp := b.PostForm("/shipping/new/compare", shipmentForm(t, env))
	showsOnlyThePersonFacingText(t, "compare offers", resp.Body, english(desk.AnswerLost))
	if resp.StatusCode != 503 {
		t.Errorf("compare offers with no answer: %d, want 503", resp.StatusCode)
	}

	// An order whose answer was lost and could not be checked yet.
	env.Sandbox.Control("DELETE", "/sandbox/faults", nil)
	_, full := order(t, b, shipmentForm(t, env), "UPS")
	env.Sandbox.Fault("/api/v1/shipments/create", map[string]any{"drop_after_rate": 1, "count": 1})
	env.Sandbox.Fault("/api/v1/shipments/list", map[string]any{"drop_rate": 1, "count": 10})
	resp = b.PostForm("/shipping/new/order", full)
	if resp.StatusCode != 303 {
		t.Fatalf("create with a dropped answer: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	showsOnlyThePersonFacingText(t, "shipment of unknown outcome", b.Get(resp.Header.Get("Location")).Body, english(desk.NotConfirmed))

	// Refresh a commission: commissions/get loses its connection.
	env.Sandbox.Control("DELETE", "/sandbox/faults", nil)
	agent := signIn(t, env, "agent7", identity.Agent)
	if err := env.App.Bench.RefreshProducts(t.Context()); err != nil {
		t.Fatal(err)
	}
	resp = postMultipart(t, env, agent, commissionForm(t, env), "receipt.pdf", pdfBytes)
	page := resp.Header.Get("Location")
	if resp.StatusCode != 303 {
		t.Fatalf("create commission: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	env.Sandbox.Fault("/returns/api/v1/commissions", map[string]any{"drop_rate": 1, "count": 10})
	if resp := agent.PostForm(page+"/refresh", url.Values{}); resp.StatusCode != 303 {
		t.Fatalf("refresh: %d", resp.StatusCode)
	}
	showsOnlyThePersonFacingText(t, "commission refresh", agent.Get(page).Body, english(workbench.AnswerLost))
}
