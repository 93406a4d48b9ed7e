package labelpdf

import (
	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/goregular"

	"shipdesk/pdffont"
)

// The PDF core fonts cover only Windows-1252, so "Nováková, Žďár nad Sázavou"
// would lose its letters. The Go fonts are embedded instead: a sans for text,
// a monospace for codes, each regular and bold.
const (
	fontSans = "Go"
	fontMono = "GoMono"
)

// newPDF starts a portrait document of a page size ("A6", "A4") with the fonts.
func newPDF(size string) *fpdf.Fpdf {
	pdf := fpdf.New("P", "mm", size, "")
	pdffont.Register(pdf, fontSans, "", goregular.TTF)
	pdffont.Register(pdf, fontSans, "B", gobold.TTF)
	pdffont.Register(pdf, fontMono, "", gomono.TTF)
	pdffont.Register(pdf, fontMono, "B", gomonobold.TTF)
	return pdf
}
