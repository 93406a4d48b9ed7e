package e2e

import (
	"context"
	"testing"
	"time"

	"shipdesk/i18n"
	"shipdesk/sandbox/sandboxtest"
	"shipdesk/views"
)

// A clerk orders two parcels whose courier brings the label; the page says
// so in words. The carrier picks them up while the desk still holds them as
// new: the storno the page still offers is refused, and the page it comes
// back to says why in words, shows the state that is true now, in the same
// words as the timeline's badge and the list's row, and offers no storno.
// In English and then in Czech, with screenshots at 1280, 768 and 390 px.
func TestRefusedStornoShowsTheStateNowInTheBrowser(t *testing.T) {
	t.Parallel()
	env, tab := deskTab(t)
	var pages []string
	for range 2 {
		tab.Open("/shipping/new")
		tab.fillRecipient()
		tab.Click(`[data-testid=compare]`)
		tab.WaitText(`[data-testid=offers]`, "PPL")
		tab.ChooseOffer("PPL")
		tab.WaitText(`[data-testid=chosen]`, "PPL")
		orderChosen(t, tab)
		pages = append(pages, tab.Path())
	}
	codes := env.Sandbox.Codes()
	en := i18n.WithLang(context.Background(), i18n.English)
	cs := i18n.WithLang(context.Background(), i18n.Czech)
	tab.Open(pages[0])
	tab.wantText(`[data-testid=shipment-state]`, views.LabelState(en, "NOT_APPLICABLE", false))
	tab.WaitCount(`[data-testid=storno-start]`, 1)
	tab.shots("state-words-new-en")

	env.Sandbox.Advance(20 * time.Minute) // the courier has both by now
	for i, lang := range []struct {
		name string
		ctx  context.Context
	}{{"en", en}, {"cs", cs}} {
		if lang.name == "cs" {
			tab.toCzech()
		}
		tab.Open(pages[i])
		tab.WaitCount(`[data-testid=storno-start]`, 1) // the desk does not know yet
		tab.Submit(`[data-testid=storno-start]`)
		tab.Submit(`[data-testid=confirm-yes]`)
		if tab.Path() != pages[i] {
			t.Fatalf("%s: after the refused storno the page is %s", lang.name, tab.Path())
		}
		now := views.ParcelState(lang.ctx, "INTRANSIT")
		tab.wantText(`.flash-error`, now)
		if got := tab.words(`[data-testid=shipment-state] [data-testid=state-words] > span`); got != now {
			t.Errorf("%s: the state line says %q after the refusal, want %q", lang.name, got, now)
		}
		if got := tab.words(`.package-timeline h3 .badge`); got != now {
			t.Errorf("%s: the timeline's badge says %q, the state line %q", lang.name, got, now)
		}
		tab.WaitCount(`[data-testid=storno-start]`, 0)
		if codes := sandboxtest.CodesIn(tab.Text(`main`), codes); len(codes) > 0 {
			t.Errorf("%s: the shipment page shows the service's codes %v", lang.name, codes)
		}
		tab.shots("state-words-refused-" + lang.name)
		tab.Open("/tracking")
		row := `[data-testid=shipment-list] tr:has(a[href="` + pages[i] + `"]) [data-testid=state-words] > span`
		if got := tab.words(row); got != now {
			t.Errorf("%s: the list's row says %q, the page %q", lang.name, got, now)
		}
		if codes := sandboxtest.CodesIn(tab.Text(`main`), codes); len(codes) > 0 {
			t.Errorf("%s: the list shows the service's codes %v", lang.name, codes)
		}
		tab.shots("state-words-list-" + lang.name)
	}
}
