package desk

import (
	"testing"

	"shipdesk/client/cart"
	"shipdesk/client/shipping"
)

// What the service filled in is what the request left out and the answer has.
func TestFilledInComparesSentWithAnswered(t *testing.T) {
	answer := cart.Draft{From: shipping.Address{Company: "Demo Shop s.r.o.", Street: "Skladová 12", Zip: "190 00", City: "Praha"},
		Packages: []cart.Package{{Weight: 1, Length: 30, Width: 20, Height: 10}}, ServiceID: 105, PickupBranch: "CZ-PRG-7"}

	got := FilledIn(cart.Request{PickupBranch: shipping.AnyBranch}, answer)
	if len(got) != 4 || got[0].Field != DraftFrom || got[0].From != "Demo Shop s.r.o., Skladová 12, 190 00 Praha" ||
		got[1].Field != DraftPackages || len(got[1].Packages) != 1 || got[2].ServiceID != 105 || got[3].Branch != "CZ-PRG-7" {
		t.Errorf("nothing sent: %+v", got)
	}

	from := answer.From
	sent := cart.Request{From: &from, Packages: answer.Packages, ServiceID: 105, PickupBranch: "CZ-PRG-7"}
	if got := FilledIn(sent, answer); len(got) != 0 {
		t.Errorf("everything sent: %+v", got)
	}

	// An answer that only lists its defaults still names them.
	got = FilledIn(cart.Request{}, cart.Draft{Defaults: []string{DraftService}})
	if len(got) != 1 || got[0].Field != DraftService || got[0].ServiceID != 0 {
		t.Errorf("defaults listed only: %+v", got)
	}
}
