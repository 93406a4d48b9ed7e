package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/claims"
	"shipdesk/identity"
)

// claimFields are the fields the claim form reads (claims.ParseForm).
var claimFormFields = []string{"key", "kind", "remedy", "description", "model_id", "name", "street", "city", "zip", "country", "phone",
	"transport", "point_carrier", "point_code", "point_name", "point_q", "refund_amount", "refund_account"}

// hostileClaims files a claim of the setup's shipment through the public
// pages and keeps a second, unused link: the customers' routes get hostile
// values in their own tokens, files and fields.
func hostileClaims(t *testing.T, env *apptest.Env, s *hostileSetup) {
	t.Helper()
	ctx := context.Background()
	sh, err := env.App.DB.ShipmentByID(ctx, atoi(s.shipment))
	if err != nil {
		t.Fatal(err)
	}
	s.claimReference = sh.Reference
	token, err := env.App.DB.TrackToken(ctx, sh.ID)
	if err != nil {
		t.Fatal(err)
	}
	s.trackPage = "/track/" + token
	_, used := askLink(t, env, env.NewBrowser(), sh.Reference, "jana@example.cz")
	_, open := askLink(t, env, env.NewBrowser(), sh.Reference, "jana@example.cz")
	if used == "" || open == "" {
		t.Fatal("no claim links mailed")
	}
	b := env.NewBrowser()
	fields := claimFields(t, b.Get(used).Body, "kind", "defect", "remedy", "repair", "transport", "shop", "description", "Cracked.")
	resp := claimPost(t, env, b, used, fields, map[string][][2]string{"proof": {{"invoice.pdf", string(pdfBytes)}}})
	if resp.StatusCode != 303 {
		t.Fatalf("claim: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	s.claimStatus = resp.Header.Get("Location")
	s.claimLink = open
	s.claimForm = claimFields(t, b.Get(open).Body, "kind", "defect", "remedy", "repair", "transport", "shop", "description", "No proof: refused.")
	c, err := env.ClaimByStatus(s.claimStatus)
	if err != nil {
		t.Fatal(err)
	}
	s.claimID = itoa(c.ID)
	files, err := env.App.DB.ClaimUploads(ctx, c.ID)
	if err != nil || len(files) == 0 {
		t.Fatalf("claim files: %v", err)
	}
	s.claimFile = itoa(files[0].ID)
	docs, err := env.App.DB.DocumentsOf(ctx, *c.CommissionID)
	if err != nil || len(docs) == 0 {
		t.Fatalf("claim documents: %v", err)
	}
	s.claimDocument = itoa(docs[0].ID)
}

// claimHostileRoutes are the customers' routes (nobody signed in) and the
// returns desk's view of a claim.
func claimHostileRoutes(s hostileSetup) []hostileRoute {
	token := []string{"token"}
	return []hostileRoute{
		{pattern: "GET /claim", path: "/claim", fields: []string{"sent"}},
		{pattern: "POST /claim", path: "/claim", base: url.Values{"reference": {s.claimReference}, "contact": {"jana@example.cz"}},
			fields: []string{"reference", "contact"}},
		{pattern: "GET /claim/open/{token}", path: s.claimLink, params: token},
		{pattern: "POST /claim/open/{token}", path: s.claimLink, params: token, base: s.claimForm, fields: claimFormFields, multipart: true},
		{pattern: "POST /claim/open/{token}/points", path: s.claimLink + "/points", params: token, base: s.claimForm,
			fields: []string{"point_carrier", "point_q", "point_code"}, multipart: true},
		{pattern: "GET /claim/status/{token}", path: s.claimStatus, params: token},
		{pattern: "POST /claim/status/{token}/reply", path: s.claimStatus + "/reply", params: token,
			base: url.Values{"key": {"8f0e4c7a-3b1d-4e2f-9a6b-5c4d3e2f1a0b"}, "text": {"A reply."}}, fields: []string{"key", "text"}, multipart: true},
		{pattern: "GET /claim/status/{token}/files/{file}", path: s.claimStatus + "/files/" + s.claimFile, params: []string{"token", "file"}},
		{pattern: "GET /claim/status/{token}/documents/{doc}", path: s.claimStatus + "/documents/" + s.claimDocument, params: []string{"token", "doc"}},
		{pattern: "GET /claim/status/{token}/label.pdf", path: s.claimStatus + "/label.pdf", params: token},
		{pattern: "/claim/", path: s.claimStatus + "/", params: []string{"path"}},
		// The shipment's tracking page and the shop's logo.
		{pattern: "GET /track/{token}", path: s.trackPage, params: token},
		{pattern: "/track/", path: s.trackPage + "/", params: []string{"path"}},
		{pattern: "GET /shop/logo", path: "/shop/logo"},
		// The returns desk's view of the claim, by its id.
		{pattern: "GET /returns/claims/{id}", role: identity.Agent, path: "/returns/claims/" + s.claimID, params: []string{"id"}},
		{pattern: "GET /returns/claims/{id}/files/{file}", role: identity.Agent, path: "/returns/claims/" + s.claimID + "/files/" + s.claimFile,
			params: []string{"id", "file"}},
		{pattern: "GET /returns/claims/{id}/label.pdf", role: identity.Agent, path: "/returns/claims/" + s.claimID + "/label.pdf", params: []string{"id"}},
	}
}

// The claim form's name, phone, postal code and country get every hostile
// value (and the shapes people type by mistake) on a form that is otherwise
// good, with the parcel handed over with a code: a value is either a field
// error on that field, with nothing kept, or a claim whose return parcel the
// desk orders at once. No claim is kept that can never finish.
func TestHostileClaimAddressKeepsOnlyWhatTheDeskTakes(t *testing.T) {
	t.Parallel()
	env := claimEnv(t)
	env.App.Claims.Limits = claims.Limits{} // a link for every value taken: the throttles are not what is tested here
	carrier, point := codePoint(t, env)
	values := append([]struct{ name, value string }{}, hostileValues...)
	values = append(values, []struct{ name, value string }{{"OneWord", "Novák"}, {"Dashed", "777-123-456"},
		{"Letters", "ABCDE"}, {"Long", strings.Repeat("Nováková ", 20)}, {"Spaces", "   "}, {"Abroad", "DE"}}...)
	_, link := askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz")
	for _, field := range []string{"name", "phone", "zip", "country"} {
		for _, h := range values {
			resp, status := codeClaim(t, env, link, carrier, point, field, h.value)
			switch {
			case resp.StatusCode >= 500:
				t.Errorf("%s %s: %d", field, h.name, resp.StatusCode)
			case resp.StatusCode == 303:
				c, err := env.ClaimByStatus(status)
				if err != nil || c.ReturnShipmentID == nil || !c.Problem.IsZero() {
					t.Errorf("%s %s: kept, but its parcel is %v (%q, %v)", field, h.name, c.ReturnShipmentID, c.Problem, err)
				}
				if strings.Contains(env.NewBrowser().Get(status).Body, "<script>alert(1)</script>") {
					t.Errorf("%s %s: shown unescaped", field, h.name)
				}
				_, link = askLink(t, env, env.NewBrowser(), "DEMO-1", "jana@example.cz") // that link is used
			case resp.StatusCode == http.StatusRequestEntityTooLarge && len(h.value) > 64<<10:
				// Longer than a form field may be: the post is refused whole, nothing kept.
			case resp.StatusCode != 422 || fieldError(resp.Body, field) == "":
				t.Errorf("%s %s: %d, no problem on the field: %s", field, h.name, resp.StatusCode, problemsOf(resp.Body))
			}
		}
	}
	if resp := env.NewBrowser().Get("/healthz"); resp.StatusCode != 200 {
		t.Errorf("healthz after the run: %d", resp.StatusCode)
	}
}
