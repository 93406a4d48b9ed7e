package labelpdf

import (
	"bytes"
	"regexp"
	"testing"
	"time"
)

var pageObj = regexp.MustCompile(`/Type /Page\b`)

func pagesOf(t *testing.T, pdf []byte) int {
	t.Helper()
	if !bytes.HasPrefix(pdf, []byte("%PDF-")) {
		t.Fatalf("not a PDF: %q", pdf[:min(20, len(pdf))])
	}
	return len(pageObj.FindAll(pdf, -1))
}

func label(tn string, pkgs int) Page {
	l := &Label{TrackingNumber: tn, Carrier: "G1 Parcel", CarrierGroup: "G1", Service: "Home",
		From: Address{Name: "Shop s.r.o.", Street: "Skladová 12", City: "Praha", Zip: "190 00", Country: "CZ"},
		To:   Address{Name: "Řehoř Šťastný", Street: "Ůvoz 3", City: "Plzeň", Zip: "301 00", Country: "CZ"},
		COD:  &Money{Value: 1250, Currency: "CZK"}, Created: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	for i := range pkgs {
		l.Packages = append(l.Packages, Package{Number: tn + string(rune('1'+i)), Weight: 1.5})
	}
	return Page{Label: l}
}

func TestLabelsAreOnePagePerPackageInOneDocument(t *testing.T) {
	pdf, err := Render([]Page{label("G1000000001", 2), label("G1000000002", 1),
		{CodeSheet: &CodeSheet{TrackingNumber: "G1000000003", Carrier: "G1 Parcel", PackageNumber: "G100000000301", Password: "AB3K9Z", RecipientName: "Jiří Novák"}}})
	if err != nil {
		t.Fatal(err)
	}
	if n := pagesOf(t, pdf); n != 4 {
		t.Errorf("%d pages, want 4 (2+1 label pages and 1 code sheet)", n)
	}
}

func TestRefusesNothingToDraw(t *testing.T) {
	if _, err := Render(nil); err == nil {
		t.Error("empty label list rendered")
	}
	if _, err := Render([]Page{{}}); err == nil {
		t.Error("empty page rendered")
	}
	if _, err := RenderManifest(Manifest{}); err == nil {
		t.Error("empty manifest rendered")
	}
}

func TestManifestPaginates(t *testing.T) {
	m := Manifest{Account: "Shop", Sender: Address{City: "Praha"}, Date: time.Now()}
	for i := range 80 {
		m.Shipments = append(m.Shipments, ManifestShipment{TrackingNumber: "T" + string(rune('A'+i%26)), Carrier: "G2 Alpha", Recipient: Address{Name: "Žofie Černá", City: "Brno"}, Packages: 1, Weight: 2})
	}
	pdf, err := RenderManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	if n := pagesOf(t, pdf); n < 2 {
		t.Errorf("80 shipments on %d pages", n)
	}
}

func TestTextKeepsCzechReadable(t *testing.T) {
	if got := text("Řehoř Šťastný, Plzeň – Ůvoz ☃"); got != "Rehor Stastny, Plzen - Uvoz ?" {
		t.Errorf("text = %q", got)
	}
}
