package e2e

import (
	"fmt"
	"strings"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
	"shipdesk/storage"
)

// A withdrawal's commission page offers receiving the goods, never a repair,
// and has the withdrawal form; a warranty claim's page has neither the
// withdrawal form nor anything of it. Both looked at in English and Czech at
// 1280, 768 and 390 px.
func TestWithdrawalPageOffersNoRepairAndClaimNoWithdrawal(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	wd := withdrawalCommission(t, env)
	claims, _, err := env.App.DB.ListCommissions(t.Context(), storage.CommissionFilter{Type: "warranty", Limit: 1})
	if err != nil || len(claims) == 0 {
		t.Fatalf("no warranty claim in the demo: %v", err)
	}
	claim := fmt.Sprintf("/returns/commissions/%d", claims[0].ID)
	tab := newTab(t, env.URL)
	tab.SignIn("alice", env.AddUser("alice", identity.Agent))
	for _, lang := range []string{"en", "cs"} {
		if lang == "cs" {
			tab.toCzech()
		}
		tab.Open(wd)
		moves := tab.Text(`[data-testid=moves]`)
		words := map[string][2]string{"en": {"Goods received", "Start processing"}, "cs": {"Zboží převzato", "Začít opravu"}}[lang]
		want, never := words[0], words[1]
		if !strings.Contains(moves, want) || strings.Contains(moves, never) {
			t.Errorf("%s: the withdrawal's moves: %q", lang, moves)
		}
		if n := len(tab.Texts(`[data-testid=withdrawal] form`)); n != 1 {
			t.Errorf("%s: the withdrawal has %d withdrawal forms", lang, n)
		}
		tab.shots("withdrawal-" + lang)
		tab.Open(claim)
		if n := len(tab.Texts(`[data-testid=withdrawal]`)); n != 0 {
			t.Errorf("%s: the warranty claim shows the withdrawal form", lang)
		}
		tab.shots("claim-" + lang)
	}
}
