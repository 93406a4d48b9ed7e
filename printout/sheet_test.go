package printout

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"shipdesk/i18n"
	"shipdesk/sandbox/labelpdf"
)

func TestPlaceFillsSheetsFromTheStartPosition(t *testing.T) {
	cases := []struct {
		f           Format
		start, i    int
		page, place int
	}{
		{A6, 1, 0, 1, 1}, {A6, 1, 2, 3, 1}, {A6, 3, 0, 1, 1}, // A6 has no positions
		{A4, 1, 0, 1, 1}, {A4, 1, 3, 1, 4}, {A4, 1, 4, 2, 1},
		{A4, 3, 0, 1, 3}, {A4, 3, 1, 1, 4}, {A4, 3, 2, 2, 1}, {A4, 3, 5, 2, 4}, {A4, 3, 6, 3, 1},
		{A4, 4, 0, 1, 4}, {A4, 4, 1, 2, 1},
		{A4, 0, 0, 1, 1}, {A4, 5, 0, 1, 1}, {A4, -7, 1, 1, 2}, // out of range starts at 1
	}
	for _, c := range cases {
		s := Place(c.f, c.start, c.i)
		if s.Page != c.page || s.Position != c.place {
			t.Errorf("%s from %d, label %d: page %d position %d, want page %d position %d", c.f, c.start, c.i, s.Page, s.Position, c.page, c.place)
		}
	}
	// Positions read left to right, top to bottom; PDF measures from the bottom left.
	want := map[int][2]float64{1: {0, a4H / 2}, 2: {a4W / 2, a4H / 2}, 3: {0, 0}, 4: {a4W / 2, 0}}
	for pos, xy := range want {
		s := Place(A4, pos, 0)
		if s.X != xy[0] || s.Y != xy[1] || s.W != a4W/2 || s.H != a4H/2 {
			t.Errorf("position %d: %+v", pos, s)
		}
	}
	if s := Place(A6, 1, 5); s.X != 0 || s.Y != 0 || s.W != a6W || s.H != a6H {
		t.Errorf("A6 slot: %+v", s)
	}
}

func TestParseFormat(t *testing.T) {
	for in, want := range map[string]Format{"A6": A6, "a4": A4, " A4 ": A4} {
		if f, ok := ParseFormat(in); !ok || f != want {
			t.Errorf("%q: %q %v", in, f, ok)
		}
	}
	for _, in := range []string{"", "A5", "letter", "A4\x00", "<script>"} {
		if _, ok := ParseFormat(in); ok {
			t.Errorf("%q accepted", in)
		}
	}
	// The pages name every format: the radio buttons and the reprint's choice.
	for _, f := range Formats {
		for _, key := range []string{"print.format." + string(f), "print.name." + string(f)} {
			if !i18n.Has(key) {
				t.Errorf("the catalog lacks %s", key)
			}
		}
	}
}

// label draws a label PDF as the service does (the sandbox's renderer), a
// page per package.
func label(t *testing.T, n, packages int) []byte {
	t.Helper()
	l := &labelpdf.Label{TrackingNumber: fmt.Sprintf("G3%08d", n), Carrier: "UPS", CarrierGroup: "G3", Service: "Domů",
		From:    labelpdf.Address{Name: "Sklad Hořice", Street: "Dlouhá 5", City: "Hořice", Zip: "508 01", Country: "CZ"},
		To:      labelpdf.Address{Name: "Řehoř Šťastný", Street: "Ůvoz 3", City: "Žďár nad Sázavou", Zip: "591 01", Country: "CZ"},
		Created: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	for k := range packages {
		l.Packages = append(l.Packages, labelpdf.Package{Number: fmt.Sprintf("G3%08d%02d", n, k+1), Weight: 1.5})
	}
	pdf, err := labelpdf.Render([]labelpdf.Page{{Label: l}})
	if err != nil {
		t.Fatal(err)
	}
	return pdf
}

type drawnPage struct {
	size   string
	placed []placement
}

type placement struct {
	position int
	scale    float64
	x, y     float64
}

var (
	pagesTree = regexp.MustCompile(`/Type /Pages /Kids \[([^\]]*)\] /Count (\d+)`)
	ref       = regexp.MustCompile(`(\d+) 0 R`)
	drawOp    = regexp.MustCompile(`q ([\d.]+) 0 0 [\d.]+ ([\d.-]+) ([\d.-]+) cm /L\d+ Do Q % position (\d)`)
)

// pagesOf reads a sheet's pages in order from its page tree: each page's
// size and where its labels are drawn. It also reads the whole file back
// with the importer, which follows the cross-reference table.
func pagesOf(t *testing.T, pdf []byte) []drawnPage {
	t.Helper()
	tree := pagesTree.FindSubmatch(pdf)
	if tree == nil || !bytes.HasSuffix(pdf, []byte("%%EOF\n")) {
		t.Fatalf("no page tree or no end: %q", pdf[max(0, len(pdf)-40):])
	}
	var out []drawnPage
	for _, k := range ref.FindAllSubmatch(tree[1], -1) {
		pg := regexp.MustCompile(`\n` + string(k[1]) + ` 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox \[0 0 ([\d.]+ [\d.]+)\].*?/Contents (\d+) 0 R`).FindSubmatch(pdf)
		if pg == nil {
			t.Fatalf("page %s not found", k[1])
		}
		content := regexp.MustCompile(`\n` + string(pg[2]) + ` 0 obj\n<< /Length (\d+) >>\nstream\n`).FindSubmatchIndex(pdf)
		if content == nil {
			t.Fatalf("content %s not found", pg[2])
		}
		n, _ := strconv.Atoi(string(pdf[content[2]:content[3]]))
		stream := pdf[content[1] : content[1]+n]
		p := drawnPage{size: string(pg[1])}
		for _, m := range drawOp.FindAllSubmatch(stream, -1) {
			var pl placement
			pl.scale, _ = strconv.ParseFloat(string(m[1]), 64)
			pl.x, _ = strconv.ParseFloat(string(m[2]), 64)
			pl.y, _ = strconv.ParseFloat(string(m[3]), 64)
			pl.position, _ = strconv.Atoi(string(m[4]))
			p.placed = append(p.placed, pl)
		}
		out = append(out, p)
	}
	if strconv.Itoa(len(out)) != string(tree[2]) {
		t.Fatalf("%d pages, /Count %s", len(out), tree[2])
	}
	tpls, _, err := importPages(pdf, 1)
	if err != nil || len(tpls) != len(out) {
		t.Fatalf("the sheet does not read back: %d pages, %v", len(tpls), err)
	}
	return out
}

func TestA4SheetStartsAtTheChosenPosition(t *testing.T) {
	var out bytes.Buffer
	s := NewSheet(&out, A4, 3)
	for i := range 3 {
		if err := s.Add(label(t, i, 1)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	pages := pagesOf(t, out.Bytes())
	if len(pages) != 2 || s.Labels() != 3 {
		t.Fatalf("%d pages, %d labels", len(pages), s.Labels())
	}
	positions := func(p drawnPage) []int {
		var out []int
		for _, pl := range p.placed {
			out = append(out, pl.position)
		}
		return out
	}
	if !slices.Equal(positions(pages[0]), []int{3, 4}) || !slices.Equal(positions(pages[1]), []int{1}) {
		t.Errorf("positions %v, %v; want [3 4], [1]", positions(pages[0]), positions(pages[1]))
	}
	// Each label is drawn at its own size (an A6 label on an A6 quarter of A4)
	// inside its quarter: 3 bottom left, 4 bottom right, 1 top left.
	for i, p := range pages {
		if p.size != "595.28 841.89" {
			t.Errorf("page %d is %s, want A4", i+1, p.size)
		}
		for _, pl := range p.placed {
			slot := Place(A4, pl.position, 0)
			if pl.scale < 0.99 || pl.scale > 1.01 || pl.x < slot.X-0.01 || pl.y < slot.Y-0.01 ||
				pl.x+a6W*pl.scale > slot.X+slot.W+0.01 || pl.y+a6H*pl.scale > slot.Y+slot.H+0.01 {
				t.Errorf("page %d: the label at position %d is drawn at %+v, outside %+v", i+1, pl.position, pl, slot)
			}
		}
	}
}

func TestA6SheetIsAPagePerPackage(t *testing.T) {
	var out bytes.Buffer
	s := NewSheet(&out, A6, 4) // a start position means nothing on A6
	for i, pkgs := range []int{2, 1} {
		if err := s.Add(label(t, i, pkgs)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	pages := pagesOf(t, out.Bytes())
	if len(pages) != 3 {
		t.Fatalf("%d pages for 3 packages", len(pages))
	}
	for i, p := range pages {
		if p.size != "297.64 419.53" || len(p.placed) != 1 || p.placed[0].position != 1 {
			t.Errorf("page %d: %+v", i+1, p)
		}
	}
}

// recorder is a response: it counts what arrives before the sheet is closed.
type recorder struct{ bytes.Buffer }

// A sheet goes out as it is made: a long batch does not wait in memory for
// its end. Nothing goes out before the first label has been read.
func TestSheetIsWrittenAsItGoes(t *testing.T) {
	var out recorder
	s := NewSheet(&out, A4, 1)
	if err := s.Add([]byte("<html>not a label</html>")); err == nil {
		t.Fatal("a page that is no PDF was taken as a label")
	}
	if out.Len() != 0 {
		t.Fatalf("%d bytes written before any label", out.Len())
	}
	one := label(t, 1, 1)
	const n = 12
	for range n {
		if err := s.Add(one); err != nil {
			t.Fatal(err)
		}
	}
	if out.Len() < len(one)*(n-3) {
		t.Errorf("only %d bytes out after %d labels of %d bytes each", out.Len(), n, len(one))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if pages := pagesOf(t, out.Bytes()); len(pages) != 3 {
		t.Errorf("%d labels on %d A4 pages", n, len(pages))
	}
}

// Broken label PDFs are refused quickly: the importer must not spin on them.
func TestSheetRefusesWhatIsNoLabel(t *testing.T) {
	good := label(t, 1, 1)
	flipped := bytes.Clone(good)
	for i := len(flipped) / 3; i < len(flipped)/3+400; i++ {
		flipped[i] ^= 0x5a
	}
	wrongXref := regexp.MustCompile(`startxref\n\d+`).ReplaceAll(bytes.Clone(good), []byte("startxref\n7"))
	cases := map[string][]byte{
		"empty":           nil,
		"not a PDF":       []byte("Internal Server Error"),
		"truncated":       good[:len(good)/2],
		"header only":     []byte("%PDF-1.4\n%%EOF\n"),
		"no trailer":      []byte("%PDF-1.4\nstartxref\n99999999\n%%EOF\n"),
		"empty trailer":   []byte("%PDF-1.4\ntrailer\n<< /Root 1 0 R >>\nstartxref\n9\n%%EOF"),
		"garbage":         append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("<<[(/x>>"), 500)...),
		"flipped bytes":   flipped,
		"wrong xref":      wrongXref,
		"endless comment": append([]byte("%PDF-1.4\n%"), bytes.Repeat([]byte("x"), 3000)...),
	}
	for name, pdf := range cases {
		t.Run(name, func(t *testing.T) {
			done := make(chan error, 1)
			var out bytes.Buffer
			go func() {
				s := NewSheet(&out, A6, 1)
				err := s.Add(pdf)
				if err == nil {
					err = s.Close()
				} else if s.Close() == nil {
					err = fmt.Errorf("a sheet without labels was closed")
				}
				done <- err
			}()
			select {
			case err := <-done:
				// Flipped bytes may fall inside an image, where they do no harm:
				// that one only has to finish.
				if name != "flipped bytes" && (err == nil || out.Len() != 0) {
					t.Errorf("taken as a label (%v, %d bytes out)", err, out.Len())
				}
			case <-time.After(20 * time.Second):
				t.Fatal("the importer did not finish with a broken PDF")
			}
		})
	}
}

type failingWriter struct{ after int }

func (f *failingWriter) Write(b []byte) (int, error) {
	if f.after -= len(b); f.after < 0 {
		return 0, fmt.Errorf("connection reset")
	}
	return len(b), nil
}

func TestSheetReportsAFailedWrite(t *testing.T) {
	s := NewSheet(&failingWriter{after: 1000}, A6, 1)
	one := label(t, 1, 1)
	var err error
	for i := 0; i < 10 && err == nil; i++ {
		err = s.Add(one)
	}
	if err == nil {
		err = s.Close()
	}
	if err == nil {
		t.Fatal("a response that stopped taking bytes went unnoticed")
	}
}

func TestProtocolsInCzechWithAPagePerProtocolAndPagination(t *testing.T) {
	ctx := i18n.WithLang(context.Background(), i18n.Czech)
	short := Protocol{Carrier: "DPD", Pickup: "22. 11. 2026", Place: []string{"Sklad Hořice", "Dlouhá 5", "508 01 Hořice"},
		Count: "1 zásilka, 1 balík", Packages: "1", Printed: "22. 11. 2026 14:05",
		Parcels: []ProtocolParcel{{Tracking: "G200000001", Recipient: "Řehoř Šťastný", Town: "Žďár nad Sázavou", Packages: "1"}}}
	long := short
	long.Carrier, long.Parcels = "UPS", nil
	for i := range 70 {
		long.Parcels = append(long.Parcels, ProtocolParcel{Tracking: fmt.Sprintf("G3%08d", i), Recipient: "Jana Nováková, Velmi Dlouhé Jméno Firmy s.r.o.", Town: "Brno", Packages: "1", COD: "1 250 Kč"})
	}
	var out bytes.Buffer
	if err := Protocols(ctx, &out, []Protocol{short, long}); err != nil {
		t.Fatal(err)
	}
	pages := regexp.MustCompile(`/Type /Page\b`).FindAll(out.Bytes(), -1)
	if len(pages) < 3 {
		t.Errorf("%d pages: want one for the short protocol and more for 70 parcels", len(pages))
	}
	if !bytes.Contains(out.Bytes(), []byte("/MediaBox [0 0 595.28 841.89]")) {
		t.Error("not A4")
	}
}
