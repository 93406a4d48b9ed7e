package textin

import (
	"strings"
	"testing"
	"unicode/utf8"

	"shipdesk/apperr"
)

func TestLine(t *testing.T) {
	czech := strings.Repeat("Příliš žluťoučký kůň úpěl ", 4) // 88 bytes a third of it, cut inside "ř" by bytes
	cases := []struct {
		name, in, want, problem string
		limit                   int
	}{
		{"Trimmed", "  Brno \t", "Brno", "", 10},
		{"NUL", "Br\x00no", "Brno", "Contains control characters: remove them.", 10},
		{"InvalidUTF8", "Br\xff\xfeno", "Brno", "Contains characters that cannot be read: type it again.", 10},
		{"Newline", "a\nb", "ab", "Contains control characters: remove them.", 10},
		{"Escape", "a\x1b[31mb", "a[31mb", "Contains control characters: remove them.", 10},
		{"LineSeparator", "a\u2028b", "ab", "Contains control characters: remove them.", 10},
		{"CutByCharacters", "žluťoučký", "žluťo", "At most 5 characters.", 5},
		{"CzechFits", "Příliš žluťoučký", "Příliš žluťoučký", "", 16},
		{"LongCzechCut", czech, string([]rune(czech)[:64]), "At most 64 characters.", 64},
		{"Script", "<script>alert(1)</script>", "<script>alert(1)</script>", "", 100},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, problem := Line(c.in, c.limit)
			if got != c.want || problem.String() != c.problem {
				t.Errorf("Line(%q, %d) = %q, %q; want %q, %q", c.in, c.limit, got, problem, c.want, c.problem)
			}
		})
	}
}

func TestLinesKeepsLineBreaksAndTabs(t *testing.T) {
	got, problem := Lines("first\r\n\tsecond\n", 100)
	if got != "first\n\tsecond" || !problem.IsZero() {
		t.Errorf("Lines = %q, %q", got, problem)
	}
	if _, problem := Lines("a\x00b", 100); problem.Key != Control {
		t.Errorf("NUL in a textarea: %q", problem)
	}
}

func TestFieldsRecordTheFirstProblem(t *testing.T) {
	problems := apperr.Problems{}
	f := NewFields(map[string][]string{"name": {"a\x00"}, "city": {"Brno"}}, problems)
	if f.Line("name", 10) != "a" || f.Line("city", 10) != "Brno" || f.Line("missing", 10) != "" {
		t.Error("values")
	}
	if len(problems) != 1 || problems["name"].Key != Control {
		t.Errorf("problems %v", problems)
	}
}

func TestDecimal(t *testing.T) {
	weight := Range{Max: 1000, Unit: "kg"}
	cases := []struct {
		in      string
		want    float64
		problem string
	}{
		{"1.5", 1.5, ""}, {"1,5", 1.5, ""}, {" 2 ", 2, ""}, {"1000", 1000, ""},
		{"NaN", 0, "Type a number, e.g. 1.5."}, {"Inf", 0, "Type a number, e.g. 1.5."}, {"-Inf", 0, "Type a number, e.g. 1.5."},
		{"1e308", 0, "Type a number, e.g. 1.5."}, {"0x10", 0, "Type a number, e.g. 1.5."}, {"1,5.2", 0, "Type a number, e.g. 1.5."},
		{"", 0, "Type a number, e.g. 1.5."}, {"abc", 0, "Type a number, e.g. 1.5."},
		{"0", 0, "Must be more than 0."}, {"-1", 0, "Must be more than 0."}, {"1000.5", 0, "At most 1000 kg."},
		{strings.Repeat("9", 400), 0, "Type a number, e.g. 1.5."},
	}
	for _, c := range cases {
		got, problem := Decimal(c.in, weight)
		if got != c.want || problem.String() != c.problem {
			t.Errorf("Decimal(%q) = %v, %q; want %v, %q", c.in, got, problem, c.want, c.problem)
		}
	}
	if x, problem := Decimal("0", Range{OrEqual: true, Max: 1e7}); x != 0 || !problem.IsZero() {
		t.Errorf("zero allowed: %v %q", x, problem)
	}
	if _, problem := Decimal("20000000", Range{Max: 1e7, Unit: "CZK"}); problem.String() != "At most 10000000 CZK." {
		t.Errorf("large bound written as %q", problem)
	}
}

func TestIsCurrency(t *testing.T) {
	for _, code := range []string{"CZK", "EUR", "USD", "PLN", "HUF", "AED", "ZWG"} {
		if !IsCurrency(code) {
			t.Errorf("%s refused", code)
		}
	}
	for _, code := range []string{"ABC", "XXX", "XTS", "XAU", "czk", "CZ", "CZKK", "", "K A", "D A", "\x00ZK", "ČZK"} {
		if IsCurrency(code) {
			t.Errorf("%q accepted", code)
		}
	}
}

func FuzzLine(f *testing.F) {
	for _, seed := range []string{"", "Brno", "a\x00b", "\xff\xfe", "Příliš žluťoučký kůň", "\u2028", " \t\r\n", "<script>alert(1)</script>", "\xe2\x82"} {
		f.Add(seed, 10)
	}
	f.Fuzz(func(t *testing.T, s string, limit int) {
		limit = max(0, limit%200)
		for _, multiline := range []bool{false, true} {
			read := Line
			if multiline {
				read = Lines
			}
			got, problem := read(s, limit)
			if !utf8.ValidString(got) || strings.ContainsRune(got, 0) {
				t.Fatalf("kept unreadable text %q from %q", got, s)
			}
			if n := utf8.RuneCountInString(got); n > limit {
				t.Fatalf("kept %d characters, limit %d", n, limit)
			}
			if strings.ContainsFunc(got, func(r rune) bool { return !allowed(r, multiline) }) {
				t.Fatalf("kept a control character in %q", got)
			}
			if problem.IsZero() && got != strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n")) && !multiline {
				t.Fatalf("changed %q to %q without saying why", s, got)
			}
		}
	})
}

func FuzzDecimal(f *testing.F) {
	for _, seed := range []string{"1.5", "1,5", "NaN", "Inf", "-1", "1e308", "0", "", "0x1p3", "9999999999"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := Range{Max: 1000, Unit: "kg"}
		x, problem := Decimal(s, r)
		if !problem.IsZero() {
			if x != 0 {
				t.Fatalf("%q: a problem with value %v", s, x)
			}
			return
		}
		if x <= r.Above || x > r.Max || x != x {
			t.Fatalf("%q read as %v, out of range", s, x)
		}
	})
}

func TestIsUnreadable(t *testing.T) {
	_, broken := Line("\xff", 10)
	_, control := Line("\x00", 10)
	_, long := Line("abc", 2)
	if !IsUnreadable(broken) || !IsUnreadable(control) || IsUnreadable(long) || IsUnreadable(apperr.Text{}) {
		t.Errorf("IsUnreadable: %q %q %q", broken, control, long)
	}
}
