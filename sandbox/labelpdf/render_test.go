package labelpdf

import (
	"bytes"
	"compress/zlib"
	"io"
	"regexp"
	"testing"
	"time"
	"unicode/utf16"
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
	l := &Label{TrackingNumber: tn, Carrier: "Zásilkovna", CarrierGroup: "G1", Service: "Home",
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
		{CodeSheet: &CodeSheet{TrackingNumber: "G1000000003", Carrier: "Zásilkovna", PackageNumber: "G100000000301", Password: "AB3K9Z", RecipientName: "Jiří Novák"}}})
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
		m.Shipments = append(m.Shipments, ManifestShipment{TrackingNumber: "T" + string(rune('A'+i%26)), Carrier: "PPL", Recipient: Address{Name: "Žofie Černá", City: "Brno"}, Packages: 1, Weight: 2})
	}
	pdf, err := RenderManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	if n := pagesOf(t, pdf); n < 2 {
		t.Errorf("80 shipments on %d pages", n)
	}
}

// Czech and Slovak names print as written: the PDF embeds a font and maps its
// glyphs to every letter of "Nováková, Žďár nad Sázavou".
func TestLabelsPrintCzechLetters(t *testing.T) {
	l := &Label{TrackingNumber: "G1100000001", Carrier: "Zásilkovna", Service: "Home",
		From:     Address{Name: "Sklad Hořice", City: "Hořice", Country: "CZ"},
		To:       Address{Name: "Nováková", Street: "Dlouhá 5", City: "Žďár nad Sázavou", Zip: "591 01", Country: "CZ"},
		Packages: []Package{{Number: "G110000000101", Weight: 1}}, Created: time.Now()}
	pdf, err := Render([]Page{{Label: l}})
	if err != nil {
		t.Fatal(err)
	}
	streams := inflated(t, pdf)
	if !bytes.Contains(pdf, []byte("/FontFile2")) || !bytes.Contains(pdf, []byte("/Identity-H")) {
		t.Error("no Unicode font is embedded")
	}
	// With an Identity encoding the page draws each letter by its code point.
	for _, s := range []string{"Nováková", "Žďár nad Sázavou", "Hořice"} {
		if !bytes.Contains(streams, utf16be(s)) {
			t.Errorf("%q is not drawn as written", s)
		}
	}
	if got := text("Žďár\x00\tnad"); got != "Žďár  nad" {
		t.Errorf("text keeps the letters and blanks control characters: %q", got)
	}
}

// inflated is every compressed stream of a PDF, decompressed.
func inflated(t *testing.T, pdf []byte) []byte {
	t.Helper()
	var out []byte
	for rest := pdf; ; {
		i := bytes.Index(rest, []byte("stream"))
		if i < 0 {
			return out
		}
		rest = bytes.TrimLeft(rest[i+len("stream"):], "\r\n")
		j := bytes.Index(rest, []byte("endstream"))
		if j < 0 {
			return out
		}
		if r, err := zlib.NewReader(bytes.NewReader(rest[:j])); err == nil {
			b, _ := io.ReadAll(r)
			out = append(out, b...)
		}
		rest = rest[j:]
	}
}

func utf16be(s string) []byte {
	var out []byte
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u>>8), byte(u))
	}
	return out
}
