package orderfile

import (
	"mime"
	"net/http"
	"slices"
	"strings"
)

// Uploads that are no table of orders are refused before anything is read
// or kept: a picture, a PDF, an archive, a program, any binary that is
// neither CSV nor XLSX (told by its content), and an upload its browser
// says is of another type.
const (
	KeyNotOrders = "batch.file.not_orders" // the content is neither text nor a workbook
	KeyWrongType = "batch.file.wrong_type" // args: the type the upload says it is
)

// kindSize is how much of a file's start tells text from a binary.
const kindSize = 512

// binaryFile says whether the start of a file is of a binary file that is no
// workbook (those are told apart before): a file format's signature, or
// many control characters. A stray control character in a cell is the
// row's problem, not the file's; UTF-16 text is told by its BOM before.
func binaryFile(head []byte) bool {
	head = head[:min(len(head), kindSize)]
	kind, _, _ := strings.Cut(http.DetectContentType(head), ";")
	controls := 0
	for _, c := range head {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1b || c == 0x7f {
			controls++
		}
	}
	switch {
	case strings.HasPrefix(kind, "text/"):
		return false
	case kind == "application/octet-stream":
		return controls > 8 && controls*50 > len(head) // more than one byte in fifty
	case weakSignatures[kind]:
		return controls > 0 // a text may start with "BM" or "ID3"
	}
	return true
}

// weakSignatures are kinds whose signature is short enough for the start of
// a column's name.
var weakSignatures = map[string]bool{"image/bmp": true, "audio/mpeg": true, "audio/basic": true}

// uploadTypes are the media types browsers and systems give CSV and XLSX
// files (Windows says application/vnd.ms-excel for CSV when Excel is
// installed); application/octet-stream and none at all say nothing.
var uploadTypes = []string{"", "application/octet-stream", "text/csv", "text/plain", "text/x-csv", "text/comma-separated-values",
	"text/x-comma-separated-values", "text/tab-separated-values", "application/csv", "application/x-csv", "application/vnd.ms-excel",
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "application/zip", "application/x-zip-compressed"}

// CheckType checks the media type an upload says it has (its part's
// Content-Type): a type that is no CSV or XLSX is a problem, named in it
// when it reads as a media type. What the file holds is checked when it is
// read.
func CheckType(contentType string) *Problem {
	if strings.TrimSpace(contentType) == "" {
		return nil
	}
	kind, _, err := mime.ParseMediaType(contentType)
	if err != nil || len(kind) > 100 {
		return &Problem{Key: KeyWrongType, Args: []any{"?"}}
	}
	if slices.Contains(uploadTypes, kind) {
		return nil
	}
	return &Problem{Key: KeyWrongType, Args: []any{kind}}
}
