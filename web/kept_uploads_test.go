package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// keepProof sends a form whose fault is missing, so its good file is kept,
// and returns the kept file's id.
func keepProof(t *testing.T, env *apptest.Env, b *apptest.Browser) string {
	t.Helper()
	form := commissionForm(t, env)
	form["fault"] = ""
	resp := postMultipart(t, env, b, form, "receipt.pdf", pdfBytes)
	kept := keptUpload(resp.Body)
	if resp.StatusCode != http.StatusUnprocessableEntity || kept == "" {
		t.Fatalf("keep a proof: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	return kept
}

// signIn signs a new user of role in under its own name.
func signIn(t *testing.T, env *apptest.Env, name string, role identity.Role) *apptest.Browser {
	t.Helper()
	pw := env.AddUser(name, role)
	b := env.NewBrowser()
	if resp := b.PostForm("/login", url.Values{"username": {name}, "password": {pw}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("sign in %s: %d", name, resp.StatusCode)
	}
	return b
}

// A kept proof of purchase is its uploader's: another agent can neither attach
// it to a commission of theirs by its id, nor see it in their form, nor open it.
func TestAgentCannotUseAnotherAgentsKeptProof(t *testing.T) {
	t.Parallel()
	env, alice := benchEnv(t)
	bob := signIn(t, env, "bob", identity.Agent)
	kept := keepProof(t, env, alice)

	form := commissionForm(t, env)
	form["upload_id"] = kept
	resp := postMultipart(t, env, bob, form, "", nil)
	if resp.StatusCode == http.StatusSeeOther {
		t.Fatalf("bob created a commission with alice's kept file %s", kept)
	}
	doc := htmlOf(t, resp.Body)
	if resp.StatusCode != http.StatusUnprocessableEntity || doc.Find(`#proof-error`).Length() != 1 {
		t.Fatalf("bob's form: %d %s, want the proof asked for again", resp.StatusCode, problemsOf(resp.Body))
	}
	if has(doc, "kept-file") || keptUpload(resp.Body) != "" || strings.Contains(resp.Body, "receipt.pdf") {
		t.Error("bob's form shows alice's kept file")
	}
	if r := bob.Get("/returns/files/" + kept); r.StatusCode != http.StatusNotFound {
		t.Errorf("bob opens alice's kept file: %d, want 404", r.StatusCode)
	}
	if r := alice.Get("/returns/files/" + kept); r.StatusCode != http.StatusOK {
		t.Errorf("alice opens her kept file: %d", r.StatusCode)
	}
	var attached *int64
	if err := env.App.DB.SQL().QueryRow(`SELECT commission_id FROM uploads WHERE id = $1`, kept).Scan(&attached); err != nil || attached != nil {
		t.Fatalf("alice's file after bob's try: commission %v, %v", attached, err)
	}

	// Alice still finishes her form with it.
	form = commissionForm(t, env)
	form["upload_id"] = kept
	if resp := postMultipart(t, env, alice, form, "", nil); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("alice with her kept file: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
}

// The returns desk's upkeep deletes kept files older than a day that no
// commission took; files of commissions stay, however old.
func TestUpkeepPrunesAbandonedKeptProofs(t *testing.T) {
	t.Parallel()
	env, b := benchEnv(t)
	abandoned, fresh := keepProof(t, env, b), keepProof(t, env, b)
	resp := postMultipart(t, env, b, commissionForm(t, env), "receipt.pdf", pdfBytes)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("create: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	db := env.App.DB.SQL()
	if _, err := db.Exec(`UPDATE uploads SET created_at = now() - interval '25 hours' WHERE id <> $1`, fresh); err != nil {
		t.Fatal(err)
	}
	env.App.Bench.MaintainOnce(context.Background())

	exists := func(where string, args ...any) bool {
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM uploads WHERE `+where, args...).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
	if exists("id = $1", abandoned) {
		t.Error("a kept file abandoned for over a day is still there")
	}
	if !exists("id = $1", fresh) {
		t.Error("a kept file of today was deleted")
	}
	if !exists("commission_id IS NOT NULL") {
		t.Error("the file of a commission was deleted")
	}
}
