package web_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/storage"
)

// codeClaim is the form of a fresh link for a claim of a defect whose
// parcel is handed over at a point with a code, with kv changed.
func codeClaim(t *testing.T, env *apptest.Env, link, carrier, point string, kv ...string) (apptest.Response, string) {
	t.Helper()
	b := env.NewBrowser()
	fields := claimFields(t, b.Get(link).Body, append([]string{"kind", "defect", "remedy", "repair", "transport", "code",
		"point_carrier", carrier, "point_code", point, "description", "The lid cracked."}, kv...)...)
	resp := claimPost(t, env, b, link, fields, map[string][][2]string{"proof": {{"invoice.pdf", string(pdfBytes)}}})
	return resp, resp.Header.Get("Location")
}

func claimCount(t *testing.T, env *apptest.Env) (n int) {
	t.Helper()
	if err := env.App.DB.SQL().QueryRowContext(context.Background(), `SELECT count(*) FROM claims`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The claim form keeps a claim only when the desk will take what it sets
// off: a name, phone, postal code or country the desk refuses is the
// customer's field to fix, with what was typed kept, and nothing is stored;
// what the desk takes orders its return parcel (a one-word name is the
// surname the desk needs; a dashed phone is written as the desk sends it).
func TestClaimFormRefusesWhatTheDeskRefuses(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	carrier, point := codePoint(t, env)
	_, link := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	before := claimCount(t, env)
	long := "Jana " + strings.Repeat("Nováková", 13) // a surname over the desk's 100 characters
	for _, c := range []struct{ field, value, says string }{
		{"name", long, "100 characters"},
		{"zip", "ABCDE", "postal code"},
		{"zip", "NaN", "postal code"},
		{"phone", "call me", "phone number"},
		{"phone", "-1", "phone number"},
		{"country", "-1", "We do not ship to -1"},
		{"country", "DE", "Czech Republic or Slovakia"}, // a code is handed over at home only
	} {
		resp, _ := codeClaim(t, env, link, carrier, point, c.field, c.value)
		if got := fieldError(resp.Body, c.field); resp.StatusCode != 422 || !strings.Contains(got, c.says) {
			t.Errorf("%s %q: %d, the field says %q", c.field, c.value, resp.StatusCode, got)
		}
		kept := page(t, resp.Body).Find(`[data-testid=claim-form] [name=` + c.field + `]`)
		if v := kept.AttrOr("value", kept.Find("option[selected]").AttrOr("value", "")); c.field != "country" && v != c.value {
			t.Errorf("%s %q: shown again as %q", c.field, c.value, v)
		}
	}
	courier := []string{"transport", "courier", "point_carrier", "", "point_code", ""}
	for _, kv := range [][]string{{"zip", "NaN"}, {"country", "-1"}} {
		resp, _ := codeClaim(t, env, link, carrier, point, append(courier, kv...)...)
		if resp.StatusCode != 422 || fieldError(resp.Body, kv[0]) == "" {
			t.Errorf("courier with %s %q: %d %s", kv[0], kv[1], resp.StatusCode, problemsOf(resp.Body))
		}
	}
	if n := claimCount(t, env); n != before {
		t.Fatalf("%d claims kept by refused forms", n-before)
	}
	for _, c := range []struct{ field, value, surname, phone string }{
		{"name", "Novák", "Novák", "+420 777 123 456"},
		{"phone", "777-123-456", "Nováková", "777123456"},
	} {
		_, fresh := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
		resp, status := codeClaim(t, env, fresh, carrier, point, c.field, c.value)
		if resp.StatusCode != 303 {
			t.Fatalf("%s %q: %d %s", c.field, c.value, resp.StatusCode, problemsOf(resp.Body))
		}
		cl, err := env.ClaimByStatus(status)
		if err != nil || cl.ReturnShipmentID == nil || !cl.Problem.IsZero() || cl.Customer.Phone != c.phone {
			t.Fatalf("%s %q: parcel %v, problem %q, phone %q, %v", c.field, c.value, cl.ReturnShipmentID, cl.Problem, cl.Customer.Phone, err)
		}
		var surname string
		if err := env.App.DB.SQL().QueryRowContext(ctx, `SELECT request->'shipments'->0->'from'->>'surname' FROM shipments WHERE id = $1`,
			*cl.ReturnShipmentID).Scan(&surname); err != nil || surname != c.surname {
			t.Errorf("%s %q: the parcel went from %q, %v", c.field, c.value, surname, err)
		}
	}
}

// A courier claim keeps the country and postal code it was given, checked:
// never "-1" or "NaN"; its country is the purchase's unless changed.
func TestCourierClaimKeepsACheckedAddress(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	_, link := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	b := env.NewBrowser()
	form := b.Get(link).Body
	if got := page(t, form).Find(`#country option[selected]`).AttrOr("value", ""); got != "CZ" {
		t.Errorf("the country offered is %q, want the purchase's", got)
	}
	fields := claimFields(t, form, "kind", "defect", "remedy", "repair", "transport", "courier", "description", "Cracked.",
		"country", "SK", "zip", "811 01", "city", "Bratislava", "street", "Hlavná 8")
	resp := claimPost(t, env, b, link, fields, map[string][][2]string{"proof": {{"invoice.pdf", string(pdfBytes)}}})
	if resp.StatusCode != 303 {
		t.Fatalf("courier claim: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	c, _ := env.ClaimByStatus(resp.Header.Get("Location"))
	if c.Customer.Country != "SK" || c.Customer.Zip != "811 01" || c.CommissionID == nil {
		t.Errorf("courier claim kept %+v, commission %v", c.Customer, c.CommissionID)
	}
}

// The desk's own form keeps the same rules: a postal code not of its
// country is refused before the service is asked, a dashed phone is taken.
func TestShipmentFormSharesTheClaimRules(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	before := countCalls(env, "rates/get")
	resp := b.PostForm("/shipping/new/compare", with(shipmentForm(t, env), "to_zip", "ABCDE", "to_phone", "777-123-456"))
	if resp.StatusCode != 422 || !strings.Contains(fieldError(resp.Body, "to_zip"), "postal code") || fieldError(resp.Body, "to_phone") != "" {
		t.Errorf("compare: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if countCalls(env, "rates/get") != before {
		t.Error("the service was asked about a postal code the desk refuses")
	}
	if resp := b.PostForm("/shipping/new/compare", with(shipmentForm(t, env), "to_phone", "777-123-456")); resp.StatusCode != 200 {
		t.Errorf("a dashed phone: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
}

// A claim whose step is refused after filing (here its point closed before
// the parcel was ordered) is in the agents' queue at once, not after the
// retries of a service away, with the reason in words; the customer's page
// says what happens next and whom to contact instead of waiting for a code.
func TestRefusedClaimStepNeedsAttentionAtOnce(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	ctx := context.Background()
	carrier, point := codePoint(t, env)
	env.Sandbox.Fault("/returns/", map[string]any{"error_rate": 1}) // the commission waits: the parcel comes after it
	status := fileClaim(t, env, "transport", "code", "point_carrier", carrier, "point_code", point)
	if _, err := env.App.DB.SQL().ExecContext(ctx, `DELETE FROM parcel_points WHERE carrier = $1 AND code = $2`, carrier, point); err != nil {
		t.Fatal(err)
	}
	env.Sandbox.Control("DELETE", "/sandbox/faults", nil)
	env.Sandbox.Advance(2 * time.Minute)
	env.App.Jobs.Cycle(ctx)
	c, _ := env.ClaimByStatus(status)
	if c.CommissionID == nil || c.ReturnShipmentID != nil || c.RefusedAt == nil || c.Tries >= 3 {
		t.Fatalf("claim: commission %v, parcel %v, refused %v, tries %d", c.CommissionID, c.ReturnShipmentID, c.RefusedAt, c.Tries)
	}
	agent := env.SignedIn(identity.Agent)
	queue := agent.Get("/attention?kind=claim_refused").Body
	for _, want := range []string{"/returns/claims/" + strconv.FormatInt(c.ID, 10), "The return parcel was not ordered", "We do not know this point"} {
		if !strings.Contains(queue, want) {
			t.Errorf("the queue lacks %q: %s", want, problemsOf(queue))
		}
	}
	if strings.Contains(queue, "form.see_fields") || strings.Contains(queue, "see the marked fields") {
		t.Error("the queue says a code or a form's words instead of the reason")
	}
	if strings.Contains(agent.Get("/attention?kind=claim_stuck").Body, status) {
		t.Error("the refused claim is also listed as stuck")
	}
	env.AddUser("clerk2", identity.Clerk)
	if r := signInWithPassword(t, env, "clerk2").Get("/attention?kind=claim_refused"); strings.Contains(r.Body, status) {
		t.Error("a clerk sees the returns desk's item")
	}
	// Whom the customer may ask is the shop (its identity), not a sender.
	shop := storage.ShopIdentity{Name: "Kávovary Říčany", ReplyEmail: "obchod@example.cz", Phone: "+420 601 000 222"}
	if err := env.App.DB.SaveShopIdentity(ctx, shop); err != nil {
		t.Fatal(err)
	}
	senders, _ := env.App.DB.Senders(ctx)
	body := env.NewBrowser().Get(status).Body
	doc := page(t, body)
	if doc.Find(`[data-testid=claim-state]`).AttrOr("data-state", "") != "held" || doc.Find(`[data-testid=claim-code-waiting]`).Length() != 0 {
		t.Errorf("the customer's page still waits for a code: %s", doc.Find(`[data-testid=claim-state]`).Text())
	}
	held := doc.Find(`[data-testid=claim-held]`).Text()
	for _, want := range []string{"jana@example.cz", shop.Name, shop.ReplyEmail, shop.Phone} {
		if !strings.Contains(held, want) {
			t.Errorf("the page's next step lacks %q: %q", want, held)
		}
	}
	if strings.Contains(held, senders[0].Address.PartyName()) {
		t.Errorf("the page's next step names the sender %q: %q", senders[0].Address.PartyName(), held)
	}
}
