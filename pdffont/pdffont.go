// Package pdffont gives fpdf documents the Go fonts (Czech letters
// included). fpdf writes into the font bytes it is given while it finishes a
// document, so each document gets its own copy: documents drawn at the same
// time (four labels asked for at once, two protocols) never share one.
package pdffont

import (
	"bytes"

	"codeberg.org/go-pdf/fpdf"
)

// Register registers a TrueType font under family and style for this document only.
func Register(pdf *fpdf.Fpdf, family, style string, ttf []byte) {
	pdf.AddUTF8FontFromBytes(family, style, bytes.Clone(ttf))
}
