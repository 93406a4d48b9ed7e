package web_test

import (
	"context"
	"net/url"
	"testing"

	"shipdesk/app/apptest"
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
		// The returns desk's view of the claim, by its id.
		{pattern: "GET /returns/claims/{id}", role: identity.Agent, path: "/returns/claims/" + s.claimID, params: []string{"id"}},
		{pattern: "GET /returns/claims/{id}/files/{file}", role: identity.Agent, path: "/returns/claims/" + s.claimID + "/files/" + s.claimFile,
			params: []string{"id", "file"}},
		{pattern: "GET /returns/claims/{id}/label.pdf", role: identity.Agent, path: "/returns/claims/" + s.claimID + "/label.pdf", params: []string{"id"}},
	}
}
