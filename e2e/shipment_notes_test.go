package e2e

import (
	"strings"
	"testing"
)

// A clerk orders a shipment, notes on it that the customer called, sees the
// note on the shipment's page and on its row of the list, finds it by a word
// of the note, and sends the same again: the form comes filled with the
// recipient and the package, and ordering it makes a second shipment for the
// same recipient. In English and in Czech, at every width.
func TestShipmentNoteAndSendTheSameAgain(t *testing.T) {
	t.Parallel()
	_, tab := deskTab(t)
	tab.Open("/shipping/new")
	tab.fillRecipient()
	tab.Click(`[data-testid=compare]`)
	tab.WaitText(`[data-testid=offers]`, "you print the label")
	tab.ChooseOffer("UPS")
	tab.WaitText(`[data-testid=chosen]`, "UPS")
	tab.Submit(`[data-testid=create]`)
	first := tab.Path()
	if !strings.HasPrefix(first, "/shipping/shipments/") {
		t.Fatalf("after ordering the page is %s", first)
	}

	// The note: typed, saved in place (htmx), shown with its author.
	tab.WaitText(`[data-testid=shipment-notes]`, "No one has noted")
	tab.Type("#note_text", "Customer called: leave it with the neighbours, bell Kopřiva")
	tab.Click(`[data-testid=save-note]`)
	tab.WaitText(`[data-testid=notes]`, "bell Kopřiva")
	if got := tab.Text(`[data-testid=note] .note-author`); got != "clara" {
		t.Errorf("the note does not name its author: %q", got)
	}
	if got := tab.Attr(`#note_text`, "value"); got != "" {
		t.Errorf("the form keeps the saved note: %q", got)
	}
	// An empty note is refused beside the field, nothing else changes.
	tab.Click(`[data-testid=save-note]`)
	tab.WaitText(`[data-testid=note-error]`, "Write the note")
	tab.shots("page-en")

	// The list marks the row and shows the note; a word of it finds the shipment.
	tab.Open("/tracking")
	tab.WaitText(`[data-testid=row-note]`, "bell Kopřiva")
	tab.Fill("#q", "kopřiva")
	tab.Click(`[data-testid=filters] button.primary`)
	tab.WaitCount(`[data-testid=shipment-list] tbody tr`, 1)
	if rows := tab.Texts(`[data-testid=shipment-list] tbody tr`); len(rows) != 1 || !strings.Contains(rows[0], "Svobodová") {
		t.Errorf("searching a note's word: %q", rows)
	}
	tab.shots("list-en")

	// Send the same again: the form comes filled; ordering it is a new shipment.
	tab.Open(first)
	tab.Submit(`[data-testid=send-again]`)
	tab.WaitText(`[data-testid=form-notices]`, "Compare the offers again")
	for sel, want := range map[string]string{"#to_surname": "Svobodová", "#to_city": "Plzeň", "#pkg_weight_0": "2", "#pkg_length_0": "30", "#pkg_height_0": "10", "#reference": ""} {
		if got := tab.Attr(sel, "value"); got != want {
			t.Errorf("%s = %q, want %q", sel, got, want)
		}
	}
	tab.shots("again-en")
	tab.Click(`[data-testid=compare]`)
	tab.WaitText(`[data-testid=offers]`, "you print the label")
	tab.ChooseOffer("UPS")
	tab.WaitText(`[data-testid=chosen]`, "UPS")
	tab.Submit(`[data-testid=create]`)
	second := tab.Path()
	if !strings.HasPrefix(second, "/shipping/shipments/") || second == first {
		t.Fatalf("ordering the filled form: %s (first %s)", second, first)
	}
	tab.WaitText(`h1`, "Svobodová")

	// In Czech: the page with its note, and the filled form.
	tab.toCzech()
	tab.Open(first)
	tab.WaitText(`[data-testid=shipment-notes]`, "Poznámky")
	tab.wantText(`[data-testid=send-again]`, "Poslat znovu stejnou")
	tab.shots("page-cs")
	tab.Open("/tracking?q=kop%C5%99iva")
	tab.WaitText(`[data-testid=row-note]`, "Kopřiva")
	tab.shots("list-cs")
	tab.Open("/shipping/new?from=" + strings.TrimPrefix(first, "/shipping/shipments/"))
	tab.WaitText(`[data-testid=form-notices]`, "Porovnejte nabídky znovu")
	if got := tab.Attr("#pkg_weight_0", "value"); got != "2" {
		t.Errorf("weight in Czech: %q", got)
	}
	tab.shots("again-cs")
}
