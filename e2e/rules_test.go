package e2e

import (
	"slices"
	"testing"

	"shipdesk/app/apptest"
	"shipdesk/identity"
)

// A manager opens the offer rules from the shipping desk, adds two rules,
// moves the second one up, and the list shows them in that order, in English
// and in Czech, at every width.
func TestManagerOrdersOfferRules(t *testing.T) {
	t.Parallel()
	env := apptest.Start(t)
	pw := env.AddUser("boss", identity.Manager)
	tab := newTab(t, env.URL)
	tab.SignIn("boss", pw)
	tab.Open("/shipping")
	tab.Submit(`[data-testid=rules-link]`)
	tab.WaitText(`[data-testid=rules-none]`, "There are no rules yet.")
	tab.look("rules-empty")

	// The first: to Slovakia, heavy, the cheapest.
	tab.Fill(`#name`, "Slovakia heavy")
	tab.Click(`[data-testid=rule-countries] input[value=SK]`)
	tab.Fill(`#weight_min_kg`, "5,5")
	tab.Submit(`[data-testid=rule-save]`)
	tab.WaitText(`main`, "Rule Slovakia heavy saved.")

	// The second: a named service of UPS.
	tab.Fill(`#name`, "Express")
	tab.Click(`[data-testid=rule-choice] input[value=service]`)
	tab.do("choose the carrier", chromedpSelect(`#carrier`, "UPS"))
	tab.Fill(`#service`, "Express")
	tab.Submit(`[data-testid=rule-save]`)
	tab.WaitText(`main`, "Rule Express saved.")
	if got := tab.Texts(`[data-testid=rule-name]`); !slices.Equal(got, []string{"Slovakia heavy", "Express"}) {
		t.Fatalf("added %q", got)
	}

	tab.Submit(`tr[data-rule=Express] [data-testid=rule-up]`)
	tab.WaitText(`main`, "The order of the rules is changed.")
	if got := tab.Texts(`[data-testid=rule-name]`); !slices.Equal(got, []string{"Express", "Slovakia heavy"}) {
		t.Fatalf("after the move %q", got)
	}
	tab.wantText(`tr[data-rule="Slovakia heavy"]`, "To: Slovakia")
	tab.wantText(`tr[data-rule="Slovakia heavy"]`, "Weight from 5.5 kg")
	tab.wantText(`tr[data-rule=Express] [data-testid=rule-choice]`, "Service Express of UPS")
	tab.shots("rules-en")

	tab.toCzech()
	tab.wantText(`h1`, "Pravidla výběru nabídky")
	if got := tab.Texts(`[data-testid=rule-name]`); !slices.Equal(got, []string{"Express", "Slovakia heavy"}) {
		t.Fatalf("in Czech %q", got)
	}
	tab.wantText(`tr[data-rule="Slovakia heavy"]`, "Do zemí: Slovensko")
	tab.wantText(`tr[data-rule="Slovakia heavy"]`, "Hmotnost od 5,5 kg")
	tab.wantText(`tr[data-rule=Express] [data-testid=rule-choice]`, "Službu Express dopravce UPS")
	tab.shots("rules-cs")

	// A rule with a problem stays in the form with the message on its field.
	tab.Fill(`#name`, "Broken")
	tab.Fill(`#weight_max_kg`, "-2")
	tab.Submit(`[data-testid=rule-save]`)
	tab.WaitText(`#weight_max_kg-error`, "0")
	tab.look("rules-problem-cs")
}
