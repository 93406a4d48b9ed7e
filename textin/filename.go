package textin

import (
	"strings"
	"unicode"
)

// FileName is an uploaded file's name as kept: its last part, readable, at
// most 200 bytes (a browser sends whatever the person's system calls the
// file). Control characters go, and so do the invisible ones that change
// what is shown: a right-to-left override makes "photo\u202egpj.hta" look
// like "photoath.jpg".
func FileName(s string) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	s = strings.Map(func(c rune) rune {
		if unicode.In(c, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) || c == 0xFFFD {
			return -1
		}
		return c
	}, strings.ToValidUTF8(s, ""))
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "")
	}
	return s
}
