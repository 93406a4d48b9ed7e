package textin

import (
	"strings"
	"testing"
)

func TestFileNameKeepsTheLastPartReadable(t *testing.T) {
	for in, want := range map[string]string{
		`C:\Users\eva\Desktop\objednávky.csv`:          "objednávky.csv",
		"../../etc/passwd":                             "passwd",
		"den\x00\x1f1.csv":                             "den1.csv",
		"bad\xffname.xlsx":                             "badname.xlsx",
		strings.Repeat("ž", 150) + ".csv":              strings.Repeat("ž", 100),
		"photo\u202egpj.hta":                           "photogpj.hta", // shown as "photoath.jpg" with the override
		"a\u2066b\u2069c\u200e\u200fd\u061c\ufeff.jpg": "abcd.jpg",
		"line\u2028break\u2029.pdf":                    "linebreak.pdf",
	} {
		if got := FileName(in); got != want {
			t.Errorf("FileName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValidIsLineWithoutAProblem(t *testing.T) {
	for in, want := range map[string]bool{"Shoptet": true, "a\x00b": false, "bad\xff": false, strings.Repeat("x", 101): false, "Eshop ž": true} {
		if got := Valid(in, 100); got != want {
			t.Errorf("Valid(%q) = %v, want %v", in, got, want)
		}
	}
}
