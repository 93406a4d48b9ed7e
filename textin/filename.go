package textin

import "strings"

// FileName is an uploaded file's name as kept: its last part, readable, no
// control characters, at most 200 bytes (a browser sends whatever the
// person's system calls the file).
func FileName(s string) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	s = strings.Map(func(c rune) rune {
		if c < 0x20 || c == 0x7f || c == 0xFFFD {
			return -1
		}
		return c
	}, strings.ToValidUTF8(s, ""))
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "")
	}
	return s
}
