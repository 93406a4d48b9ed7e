package printout

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"shipdesk/i18n"
)

func intakeFixture() Intake {
	claimed := time.Date(2026, 11, 2, 9, 30, 0, 0, time.UTC) // 10:30 in Prague
	return Intake{
		Claim: Claim{
			Seller:   Party{Name: "Šťastný obchod s.r.o.", Lines: []string{"Václavské náměstí 1", "110 00 Praha"}},
			Consumer: Party{Name: "Jiří Žďárský", Lines: []string{"Údolní 12, 602 00 Brno", "jiri@example.cz"}},
			Number:   "RMA-000123", Reference: "RC-ABC", ClaimedAt: claimed, Product: "Kávovar Ořech (spotřebiče)", Issued: claimed,
		},
		Serial: "SN-1", Purchase: "2026-05-14", Defect: "Nehřeje.", Remedy: "repair",
		Deadline: claimed.AddDate(0, 0, 30), Version: 1,
	}
}

func drawIntake(t *testing.T, lang i18n.Lang, in Intake) string {
	t.Helper()
	var out bytes.Buffer
	if err := IntakeConfirmation(i18n.WithLang(context.Background(), lang), &out, in); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out.Bytes(), []byte("%PDF-")) || !bytes.Contains(out.Bytes(), []byte("/Subject ("+in.Number+")")) {
		t.Fatal("not a PDF with the commission's number in its properties")
	}
	return strings.Join(strings.Fields(strings.Join(pdfText(t, out.Bytes()), " ")), " ")
}

// The intake confirmation names both parties with their Czech letters, the
// claim's moment in the shop's zone, the remedy, the 30 days and the law.
func TestIntakeConfirmationSaysWhatTheLawAsks(t *testing.T) {
	text := drawIntake(t, i18n.Czech, intakeFixture())
	for _, want := range []string{"Potvrzení o přijetí reklamace", "Šťastný obchod s.r.o.", "Jiří Žďárský", "RMA-000123", "RC-ABC",
		"2. 11. 2026 10:30", "Kávovar Ořech", "14. 5. 2026", "Nehřeje.", "oprava", "2. 12. 2026 (30 dnů od uplatnění reklamace)",
		"§ 19 odst. 2 zákona č. 634/1992 Sb."} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
	en := drawIntake(t, i18n.English, intakeFixture())
	for _, want := range []string{"Confirmation of a claim received", "2 Nov 2026, 10:30", "Act No. 634/1992 Coll., on consumer protection, s. 19(2)"} {
		if !strings.Contains(en, want) {
			t.Errorf("English: missing %q in:\n%s", want, en)
		}
	}
}

// An agreed extension is shown with its new day and the day it was agreed.
func TestIntakeConfirmationShowsTheExtension(t *testing.T) {
	in := intakeFixture()
	to, agreed := time.Date(2026, 12, 20, 22, 59, 59, 0, time.UTC), time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	in.ExtendedTo, in.AgreedOn, in.Version = &to, &agreed, 2
	text := drawIntake(t, i18n.Czech, in)
	for _, want := range []string{"20. 12. 2026", "prodloužena do 20. 12. 2026 po dohodě se spotřebitelem ze dne 20. 11. 2026", "Verze 2"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
}

// A long description wraps onto as many lines and pages as it needs: every
// word is drawn, in order.
func TestConfirmationWrapsLongTextWhole(t *testing.T) {
	in := intakeFixture()
	var words []string
	for i := range 900 {
		words = append(words, "slovo"+strings.Repeat("ž", i%4)+string(rune('a'+i%26)))
	}
	in.Defect = strings.Join(words, " ")
	in.Consumer.Name = strings.Repeat("Dlouhé jméno zákazníka ", 8)
	text := drawIntake(t, i18n.Czech, in)
	// The footer of a page is drawn where the page breaks; the words go on after it.
	body := regexp.MustCompile(`Vystaveno [0-9. :]+ Strana \d+ ?`).ReplaceAllString(text, "")
	if !strings.Contains(body, in.Defect) {
		i := 0
		for i < len(in.Defect) && i < len(body) && strings.Contains(body, in.Defect[:i+1]) {
			i++
		}
		t.Errorf("the description is not drawn whole: drawn up to %q", in.Defect[max(0, i-40):i])
	}
	if !strings.Contains(text, strings.TrimSpace(in.Consumer.Name)) {
		t.Error("the long name is not drawn whole")
	}
	if !strings.Contains(text, "Strana 2") {
		t.Error("a long description should run onto a second page")
	}
}

func TestSettlementConfirmation(t *testing.T) {
	in := intakeFixture()
	claim := in.Claim
	claim.Issued = in.ClaimedAt.AddDate(0, 0, 12)
	s := Settlement{Claim: claim, SettledAt: in.ClaimedAt.AddDate(0, 0, 12), Resolution: "rejected", Reason: "Vada vznikla pádem: prasklý kryt.", Days: 12}
	var out bytes.Buffer
	if err := SettlementConfirmation(i18n.WithLang(context.Background(), i18n.Czech), &out, s); err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(strings.Join(pdfText(t, out.Bytes()), " ")), " ")
	for _, want := range []string{"Potvrzení o vyřízení reklamace", "14. 11. 2026", "reklamace zamítnuta", "Vada vznikla pádem: prasklý kryt.",
		"12 dní", "§ 19 odst. 5 zákona č. 634/1992 Sb."} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
}

func TestFileNameIsSafe(t *testing.T) {
	for _, c := range []struct {
		kind, number string
		version      int
		want         string
	}{
		{"intake", "RMA-000001", 1, "potvrzeni-prijeti-RMA-000001.pdf"},
		{"intake", "RMA-000001", 2, "potvrzeni-prijeti-RMA-000001-v2.pdf"},
		{"settlement", `a"b/..\c;ř`, 1, "potvrzeni-vyrizeni-abc.pdf"},
	} {
		if got := FileName(c.kind, c.number, c.version); got != c.want {
			t.Errorf("%q: %q, want %q", c.number, got, c.want)
		}
	}
}
