package printout

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"shipdesk/i18n"
)

// pdfText is the text a PDF of ours draws, in drawing order, one string per
// line drawn: its content streams inflated, each shown string read back from
// the UTF-16 the fonts are written in.
func pdfText(t *testing.T, pdf []byte) []string {
	t.Helper()
	var out []string
	for _, m := range streamBody.FindAllSubmatch(pdf, -1) {
		r, err := zlib.NewReader(bytes.NewReader(m[1]))
		if err != nil {
			continue // not a deflated stream
		}
		content, err := io.ReadAll(r)
		if err != nil || !bytes.Contains(content, []byte(")Tj")) {
			continue // a font, an image
		}
		for _, s := range shownString.FindAllSubmatch(content, -1) {
			out = append(out, utf16Text(unescapePDF(s[1])))
		}
	}
	return out
}

var (
	streamBody  = regexp.MustCompile(`(?s)stream\r?\n(.*?)\r?\nendstream`)
	shownString = regexp.MustCompile(`(?s)\(((?:\\.|[^\\)])*)\) ?Tj`)
)

func unescapePDF(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); i++ {
		if b[i] == '\\' && i+1 < len(b) {
			i++
			switch b[i] {
			case 'r':
				out = append(out, '\r')
			case 'n':
				out = append(out, '\n')
			default:
				out = append(out, b[i])
			}
			continue
		}
		out = append(out, b[i])
	}
	return out
}

func utf16Text(b []byte) string {
	if len(b)%2 != 0 {
		return string(b)
	}
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
	}
	return string(utf16.Decode(u))
}

// A long recipient's name and town are wrapped onto more lines of their cell,
// never cut: every word is drawn and no line ends in an ellipsis; the rows
// grow and still break onto new pages.
func TestProtocolWrapsLongNamesWhole(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.Czech)
	name := "Procházka a synové, stavební a obchodní společnost s ručením omezeným, provozovna Horní Počernice"
	town := "Brandýs nad Labem-Stará Boleslav"
	p := Protocol{Carrier: "DPD", Pickup: "22. 11. 2026", Place: []string{"Sklad Hořice"}, Count: "60 zásilek", Packages: "60",
		Printed: "22. 11. 2026 14:05"}
	for i := range 60 {
		p.Parcels = append(p.Parcels, ProtocolParcel{Tracking: fmt.Sprintf("G3%08d", i), Recipient: name, Town: town, Packages: "1"})
	}
	var out bytes.Buffer
	if err := Protocols(ctx, &out, []Protocol{p}); err != nil {
		t.Fatal(err)
	}
	lines := pdfText(t, out.Bytes())
	text := strings.Join(lines, "\n")
	for _, l := range lines {
		if strings.HasSuffix(l, "…") {
			t.Fatalf("a line is cut: %q", l)
		}
	}
	joined := strings.Join(strings.Fields(text), " ")
	if n := strings.Count(joined, name); n != 60 {
		t.Errorf("the whole name is drawn %d times, want 60:\n%s", n, text[:min(len(text), 2000)])
	}
	if n := strings.Count(joined, town); n != 60 {
		t.Errorf("the whole town is drawn %d times, want 60", n)
	}
	if pages := regexp.MustCompile(`/Type /Page\b`).FindAll(out.Bytes(), -1); len(pages) < 3 {
		t.Errorf("%d pages: 60 rows of three lines need more than two", len(pages))
	}
	if !strings.Contains(text, "G300000059") {
		t.Error("the last row is missing")
	}
}

// A tracking number prints whole on one line of its cell, however long the
// carrier's numbers are: the courier reads them off the protocol.
func TestProtocolPrintsTrackingNumbersOnOneLine(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.Czech)
	p := Protocol{Carrier: "Zásilkovna", Pickup: "22. 11. 2026", Place: []string{"Drogerie Praha"}, Count: "3 zásilky", Packages: "3",
		Printed: "22. 11. 2026 14:05"}
	numbers := []string{"ZASILKOVNA10000000", "ZASILKOVNA10000001", "WWWWWWWWWWWWWWWWWWWWWW"}
	for _, tn := range numbers {
		p.Parcels = append(p.Parcels, ProtocolParcel{Tracking: tn, Recipient: "Jana Nováková", Town: "Praha", Packages: "1"})
	}
	var out bytes.Buffer
	if err := Protocols(ctx, &out, []Protocol{p}); err != nil {
		t.Fatal(err)
	}
	lines := pdfText(t, out.Bytes())
	for _, tn := range numbers {
		if !slices.Contains(lines, tn) {
			t.Errorf("%s is not drawn whole on one line: %q", tn, lines)
		}
	}
}
