package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"shipdesk/storage"
)

// The return address is chosen on the address book among the stored senders
// (or the default sender); a sender that is not there, or hostile text, is
// refused on its field and changes nothing.
func TestReturnAddressForm(t *testing.T) {
	t.Parallel()
	env, b := deskEnv(t)
	ctx := context.Background()
	dock, err := env.App.DB.SaveSender(ctx, storage.Sender{Label: "Vratky Brno", Address: storage.Address{Company: "Obchod",
		Street: "Vratková 7", City: "Brno", Zip: "602 00", Country: "CZ", Phone: "+420602000000"}})
	if err != nil {
		t.Fatal(err)
	}
	page := b.Get("/shipping/addresses").Body
	if !strings.Contains(page, `name="return_sender"`) || !strings.Contains(page, "The default sender (") || !strings.Contains(page, "Vratky Brno, Vratková 7") {
		t.Fatalf("the address book has no return address choice: %s", problemsOf(page))
	}
	returnTo := func() int64 {
		t.Helper()
		s, err := env.App.DB.ReturnSender(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s.ID
	}
	resp := b.PostForm("/shipping/settings/return-address", url.Values{"return_sender": {itoa(dock.ID)}})
	if resp.StatusCode != 303 || returnTo() != dock.ID {
		t.Fatalf("choose the dock: %d %s", resp.StatusCode, problemsOf(resp.Body))
	}
	if page := b.Get("/shipping/addresses").Body; !strings.Contains(page, "Return address saved") ||
		!strings.Contains(page, `<option value="`+itoa(dock.ID)+`" selected>`) {
		t.Errorf("the saved choice is not shown: %s", problemsOf(page))
	}
	for _, bad := range []string{"999999", "abc", "a\x00b", "\xff\xfe", strings.Repeat("9", 200), "<script>alert(1)</script>", "'; DROP TABLE senders; --"} {
		resp := b.PostForm("/shipping/settings/return-address", url.Values{"return_sender": {bad}})
		if resp.StatusCode != 422 || !strings.Contains(resp.Body, `id="return_sender-error"`) || strings.Contains(resp.Body, "<script>alert(1)") {
			t.Errorf("%.20q: %d %s", bad, resp.StatusCode, problemsOf(resp.Body))
		}
		if returnTo() != dock.ID {
			t.Errorf("a refused %.20q changed the return address", bad)
		}
	}
	// A post too large for any form is refused before it is read.
	if resp := b.PostForm("/shipping/settings/return-address", url.Values{"return_sender": {strings.Repeat("9", 100<<10)}}); resp.StatusCode != 413 || returnTo() != dock.ID {
		t.Errorf("an oversized post: %d", resp.StatusCode)
	}
	// In Czech, the choice and its problem read naturally.
	if r := b.PostForm("/language", url.Values{"lang": {"cs"}, "back": {"/shipping/addresses"}}); r.StatusCode != 303 {
		t.Fatalf("switch to Czech: %d", r.StatusCode)
	}
	resp = b.PostForm("/shipping/settings/return-address", url.Values{"return_sender": {"999999"}})
	if got := fieldError(resp.Body, "return_sender"); got != "Tento odesílatel už v adresáři není: vyberte ze seznamu." {
		t.Errorf("in Czech the problem says %q", got)
	}
	if !strings.Contains(resp.Body, "Adresa pro vratky") || !strings.Contains(resp.Body, "Výchozí odesílatel (") {
		t.Errorf("the Czech page lacks the return address: %s", problemsOf(resp.Body))
	}
	if resp := b.PostForm("/shipping/settings/return-address", url.Values{"return_sender": {""}}); resp.StatusCode != 303 || returnTo() == dock.ID {
		t.Errorf("back to the default sender: %d", resp.StatusCode)
	}
}
