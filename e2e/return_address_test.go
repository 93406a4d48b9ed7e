package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"shipdesk/storage"
)

// The clerk chooses where customers' return parcels go on the address book;
// a sender removed meanwhile is said on the field, in either language.
func TestReturnAddressChosenOnTheAddressBook(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	ctx := context.Background()
	dock, err := env.App.DB.SaveSender(ctx, storage.Sender{Label: "Vratky Brno", Address: storage.Address{Company: "Obchod s.r.o.",
		Street: "Vratková 7", City: "Brno", Zip: "602 00", Country: "CZ", Phone: "+420602000000"}})
	if err != nil {
		t.Fatal(err)
	}
	dockID := strconv.FormatInt(dock.ID, 10)
	tab.Open("/shipping/addresses")
	tab.wantText(`#return-address h2`, "Return address")
	if got := tab.Texts(`#return_sender option[value=""]`); len(got) != 1 || !strings.HasPrefix(got[0], "The default sender (") {
		t.Errorf("the default sender's choice reads %q", got)
	}
	tab.do("choose the dock", chromedpSelect(`#return_sender`, dockID))
	tab.Submit(`#return-address button[type=submit]`)
	tab.wantText(`body`, "Return address saved.")
	if got := tab.Attr(`#return_sender option:checked`, "value"); got != dockID {
		t.Errorf("the saved choice reads %q, want %s", got, dockID)
	}
	tab.shots("saved")

	// Removed in another window before this one is sent.
	other, err := env.App.DB.SaveSender(ctx, storage.Sender{Label: "Sklad Ostrava", Address: storage.Address{Company: "Obchod s.r.o.",
		Street: "Důlní 2", City: "Ostrava", Zip: "702 00", Country: "CZ", Phone: "+420603000000"}})
	if err != nil {
		t.Fatal(err)
	}
	tab.Open("/shipping/addresses")
	tab.do("choose Ostrava", chromedpSelect(`#return_sender`, strconv.FormatInt(other.ID, 10)))
	if err := env.App.DB.DeleteSender(ctx, other.ID); err != nil {
		t.Fatal(err)
	}
	tab.Submit(`#return-address button[type=submit]`)
	tab.wantText(`#return_sender-error`, "no longer in the address book")
	if got := tab.Attr(`#return_sender option:checked`, "value"); got != dockID {
		t.Errorf("after the refusal the choice reads %q, want the stored %s", got, dockID)
	}
	tab.shots("removed")
	tab.toCzech()
	tab.Open("/shipping/addresses")
	tab.wantText(`#return-address h2`, "Adresa pro vratky")
	if got := tab.Texts(`#return_sender option:checked`); len(got) != 1 || !strings.HasPrefix(got[0], "Vratky Brno") {
		t.Errorf("the Czech page's choice reads %q", got)
	}
	if got := tab.Texts(`#return_sender option[value=""]`); len(got) != 1 || !strings.HasPrefix(got[0], "Výchozí odesílatel (") {
		t.Errorf("the default sender's choice in Czech reads %q", got)
	}
	tab.shots("saved-cs")
}
