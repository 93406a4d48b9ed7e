// Package upload is a file a person sends us: read to its limit into a
// spool on disk (never whole in memory while it is read), its type told by
// its content and never by its name, and what is kept of it made safe: a name
// with the extension of that type and without characters that hide or
// reorder others, an image decoded and drawn again (which drops its metadata
// and whatever was hidden after it), bounded in pixels before it is decoded.
package upload

import (
	"bytes"
	"strings"

	"shipdesk/apperr"
)

// The types a person may send: a document and the two kinds of photo every
// phone and scanner makes.
const (
	PDF  = "application/pdf"
	JPEG = "image/jpeg"
	PNG  = "image/png"
)

// MaxPixels bounds an image: a phone's photo has a tenth of it, and an image
// over it is refused before it is decoded (a few bytes of PNG can claim
// 60000×60000 pixels, 14 GB once drawn).
const MaxPixels = 40_000_000

// Sniff tells the type of a file by its first bytes: one of the types
// allowed, or "".
func Sniff(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("%PDF-")):
		return PDF
	case bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}):
		return JPEG
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return PNG
	}
	return ""
}

// sniffLen is how much of a file Sniff needs.
const sniffLen = 8

// Ext is the extension a kept file of type ctype is named with ("" for a
// type not allowed).
func Ext(ctype string) string {
	switch ctype {
	case PDF:
		return ".pdf"
	case JPEG:
		return ".jpg"
	case PNG:
		return ".png"
	}
	return ""
}

// extensions are the names each allowed type goes by.
var extensions = map[string]string{".pdf": PDF, ".jpg": JPEG, ".jpeg": JPEG, ".png": PNG}

// Check says why a file named name, of type ctype by its content and of size
// bytes, is refused where at most limit bytes are taken: empty, too large, of
// a type not allowed, or named as one type while being another (a PDF
// renamed .png is a mistake to catch before a claim depends on it).
func Check(name, ctype string, size, limit int64) apperr.Text {
	switch {
	case size == 0:
		return apperr.Msg("ret.err.file_empty")
	case size > limit:
		return apperr.Msg("ret.err.file_large", limit>>20)
	case ctype == "":
		return apperr.Msg("ret.err.file_type")
	}
	ext := strings.ToLower(name[max(strings.LastIndex(name, "."), 0):])
	if want, known := extensions[ext]; known && want != ctype {
		return apperr.Msg("ret.err.file_named", ext, typeName(ctype))
	}
	return apperr.Text{}
}

func typeName(ctype string) apperr.Text {
	switch ctype {
	case PDF:
		return apperr.Msg("ret.err.type_pdf")
	case JPEG:
		return apperr.Msg("ret.err.type_jpeg")
	}
	return apperr.Msg("ret.err.type_png")
}
