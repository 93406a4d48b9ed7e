package orderfile_test

import (
	"bytes"
	"strings"
	"testing"

	"shipdesk/orderfile"
)

// Pictures, PDFs, archives and other binaries are refused as what they are,
// not offered as "columns" to map; text that merely starts like one, or has
// a stray control character in a cell, is still read.
func TestBinaryFilesAreNoOrders(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06\x00\x00\x00\xff\xfe\xfd")
	random := make([]byte, 2000)
	for i := range random {
		random[i] = byte(i * 7919 % 251)
	}
	for name, data := range map[string][]byte{
		"PNG":       png,
		"JPEG":      []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"),
		"GIF":       []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04"),
		"PDF":       []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"),
		"Gzip":      []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03reference;surname"),
		"EmptyZip":  []byte("PK\x05\x06" + strings.Repeat("\x00", 18)),
		"Program":   append([]byte("\x7fELF\x02\x01\x01\x00"), make([]byte, 200)...),
		"Binary":    random,
		"NULs":      make([]byte, 100),
		"BMPHeader": append([]byte("BM"), make([]byte, 60)...),
	} {
		t.Run(name, func(t *testing.T) {
			wantFileProblem(t, read(t, data, nil), orderfile.KeyNotOrders)
		})
	}
	for name, data := range map[string]string{
		"StartsLikeBMP": "BMI;surname;phone;weight_kg\nA1;Nováková;777 123 456;1\n",
		"StartsLikeMP3": "ID3;reference;surname;phone;weight_kg\nx;A1;Nováková;777 123 456;1\n",
		"NULInACell":    "reference;surname;street;city;zip;phone;weight_kg\nA1;Nov\x00ák;Ulice 1;Brno;60200;+420777123456;1\n",
		"Windows1250":   "reference;surname;phone;weight_kg\nA1;Nov\xe1kov\xe1;777 123 456;1\n",
		"UTF16":         "\xff\xfer\x00e\x00f\x00\n\x00",
	} {
		t.Run(name, func(t *testing.T) {
			f := read(t, []byte(data), nil)
			for _, p := range f.Problems {
				if p.Key == orderfile.KeyNotOrders {
					t.Errorf("text refused as a binary file")
				}
			}
		})
	}
	if f := read(t, bytes.Repeat([]byte("a;b\n"), 10), nil); len(f.Problems) == 0 || f.Problems[0].Key == orderfile.KeyNotOrders {
		t.Errorf("plain text: %+v", f.Problems)
	}
}

func TestUploadTypes(t *testing.T) {
	for _, ok := range []string{"", "text/csv", "text/csv; charset=utf-8", "TEXT/CSV", "text/plain", "application/octet-stream",
		"application/vnd.ms-excel", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"} {
		if p := orderfile.CheckType(ok); p != nil {
			t.Errorf("%q refused: %+v", ok, p)
		}
	}
	for typ, named := range map[string]string{"image/png": "image/png", "application/pdf": "application/pdf", "text/html": "text/html",
		"video/mp4; codecs=avc1": "video/mp4", "not a type": "?", "text/\x00csv": "?", strings.Repeat("x", 300) + "/csv": "?"} {
		p := orderfile.CheckType(typ)
		if p == nil || p.Key != orderfile.KeyWrongType || len(p.Args) != 1 || p.Args[0] != named {
			t.Errorf("%q: %+v", typ, p)
		}
	}
}
