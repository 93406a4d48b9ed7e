package labelpdf

import (
	"bytes"
	"compress/zlib"
	"io"
	"regexp"
	"testing"
	"time"
	"unicode/utf16"

	"shipdesk/sandbox/apijson"
)

// drawn reports whether the PDF draws s: the embedded fonts write text as
// UTF-16 in the (compressed) page content streams.
func drawn(t *testing.T, pdf []byte, s string) bool {
	t.Helper()
	var want []byte
	for _, u := range utf16.Encode([]rune(s)) {
		want = append(want, byte(u>>8), byte(u))
	}
	for _, m := range regexp.MustCompile(`(?s)stream\r?\n(.*?)\r?\nendstream`).FindAllSubmatch(pdf, -1) {
		zr, err := zlib.NewReader(bytes.NewReader(m[1]))
		if err != nil {
			continue
		}
		content, _ := io.ReadAll(zr)
		if bytes.Contains(unescape(content), want) {
			return true
		}
	}
	return false
}

// unescape undoes the PDF string escapes of \ ( ) and \r.
func unescape(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte(`\\`), []byte{'\\'})
	b = bytes.ReplaceAll(b, []byte(`\(`), []byte{'('})
	b = bytes.ReplaceAll(b, []byte(`\)`), []byte{')'})
	return bytes.ReplaceAll(b, []byte(`\r`), []byte{'\r'})
}

// The hand-over protocol and the label are Czech, with every diacritic;
// English when asked for.
func TestDocumentsAreCzechUnlessEnglishIsAsked(t *testing.T) {
	m := Manifest{Account: "Sklad Praha", Sender: Address{Street: "Skladová 12", Zip: "190 00", City: "Praha"},
		Date:      time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC),
		Shipments: []ManifestShipment{{TrackingNumber: "IZ0123456789", Carrier: "UPS", Recipient: Address{Name: "Jiří Kučera", City: "Žďár nad Sázavou"}, Packages: 1, Weight: 2}}}
	cs, err := RenderManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Předávací protokol", "Převzal (kurýr)", "Sklad Praha, Skladová 12, 190 00 Praha"} {
		if !drawn(t, cs, want) {
			t.Errorf("the Czech protocol does not say %q", want)
		}
	}
	if drawn(t, cs, "Hand-over protocol") {
		t.Error("the Czech protocol is in English")
	}
	m.Lang = apijson.English
	en, err := RenderManifest(m)
	if err != nil {
		t.Fatal(err)
	}
	if !drawn(t, en, "Hand-over protocol") || drawn(t, en, "Předávací protokol") {
		t.Error("the English protocol is not in English")
	}
	page := label("IZ0123456789", 2)
	labels, err := Render([]Page{page})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Odesílatel", "Příjemce", "Balík 1 z 2"} {
		if !drawn(t, labels, want) {
			t.Errorf("the Czech label does not say %q", want)
		}
	}
}
