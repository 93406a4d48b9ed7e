package pdffont

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gomono"
)

// Documents finished at the same time leave the shared font untouched: fpdf
// appends to a slice of the font's bytes for glyphs past the font's metrics,
// as a monospaced font's are (the race detector catches a shared copy being
// written).
func TestDocumentsDrawnTogetherShareNoFontBytes(t *testing.T) {
	before := bytes.Clone(gomono.TTF)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pdf := fpdf.New("P", "mm", "A4", "")
			Register(pdf, "sans", "", gomono.TTF)
			pdf.AddPage()
			pdf.SetFont("sans", "", 12)
			pdf.Cell(40, 10, "Příliš žluťoučký kůň")
			if err := pdf.Output(io.Discard); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if !bytes.Equal(before, gomono.TTF) {
		t.Fatal("the shared font bytes were changed")
	}
}
