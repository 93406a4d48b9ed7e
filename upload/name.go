package upload

import (
	"strings"
	"unicode/utf8"

	"shipdesk/textin"
)

// maxBase bounds the part of a kept name before its extension, in characters.
const maxBase = 100

// SafeName is the name a file of type ctype is kept and offered under: the
// name it was sent with, readable (textin.FileName: its last part, without
// control, bidirectional or invisible characters, so "photo\u202egpj.hta" is
// no longer shown as "photoath.jpg"), without the characters a file system
// refuses, and with the extension of its content instead of the one it was
// sent with; fallback when nothing of the name is left.
func SafeName(name, ctype, fallback string) string {
	base, ext := textin.FileName(name), Ext(ctype)
	if i := strings.LastIndex(base, "."); i >= 0 && looksLikeExt(base[i+1:]) {
		if extensions[strings.ToLower(base[i:])] == ctype && ctype != "" {
			ext = base[i:] // its own, as it was sent: "receipt.PDF", "lid.jpeg"
		}
		base = base[:i]
	}
	base = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`<>:"/\|?*`, r) {
			return '_'
		}
		return r
	}, base)
	base = strings.Join(strings.Fields(base), " ")
	if utf8.RuneCountInString(base) > maxBase {
		base = string([]rune(base)[:maxBase])
	}
	base = strings.Trim(base, " .")
	if own := Ext(ctype); own != "" && strings.HasSuffix(strings.ToLower(base), own) {
		base = strings.TrimRight(base[:len(base)-len(own)], " .") // "a.pdf.exe" of a PDF is "a.pdf", not "a.pdf.pdf"
	}
	if base == "" {
		base = textin.FileName(fallback)
	}
	if reserved(base) {
		base = "_" + base
	}
	return base + ext
}

// looksLikeExt: what follows a name's last dot is an extension when it is
// short and plain ("jpg", "hta"), not a part of the name ("v2 final").
func looksLikeExt(s string) bool {
	if s == "" || len(s) > 5 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// reserved: Windows opens a device, not a file, by these names, whatever
// their extension.
func reserved(base string) bool {
	switch strings.ToUpper(base) {
	case "CON", "PRN", "AUX", "NUL",
		"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9":
		return true
	}
	return false
}
