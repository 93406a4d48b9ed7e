package desk

import (
	"strings"
	"testing"
)

func TestSplitName(t *testing.T) {
	for name, want := range map[string][2]string{
		"Jana Nováková": {"Jana", "Nováková"}, "  Jana   Nováková ": {"Jana", "Nováková"}, "Novák": {"", "Novák"},
		"Jan van der Berg": {"Jan", "van der Berg"}, "": {"", ""}, "   ": {"", ""},
	} {
		if first, surname := SplitName(name); first != want[0] || surname != want[1] {
			t.Errorf("SplitName(%q) = %q, %q", name, first, surname)
		}
	}
}

// A phone the service takes stays as typed; one a reading makes such is
// written that way; anything else is left for the check to refuse.
func TestNormalPhone(t *testing.T) {
	for in, want := range map[string]string{
		"+420 777 123 456": "+420 777 123 456", "777-123-456": "777123456", "+420 (777) 123-456": "+420777123456",
		"00420 777 123 456": "00420 777 123 456", "00420-777-123-456": "+420777123456", "call me": "call me", "-1": "-1", "": "",
	} {
		if got := NormalPhone(in); got != want {
			t.Errorf("NormalPhone(%q) = %q, want %q", in, got, want)
		}
	}
}

// The rules of a person's address, field by field.
func TestCheckAddress(t *testing.T) {
	good := Address{Surname: "Nováková", Street: "Masarykova 5", City: "Brno", Zip: "602 00", Country: "CZ", Phone: "777123456"}
	if p := CheckAddress(good, NeedAddress); len(p) > 0 {
		t.Fatalf("a good address: %v", p)
	}
	for name, c := range map[string]struct {
		edit  func(*Address)
		field string
	}{
		"no surname":       {func(a *Address) { a.Surname = "" }, "to_surname"},
		"surname too long": {func(a *Address) { a.Surname = strings.Repeat("x", MaxText+1) }, "to_surname"},
		"first name NUL":   {func(a *Address) { a.Firstname = "Ja\x00na" }, "to_firstname"},
		"zip not Czech":    {func(a *Address) { a.Zip = "ABCDE" }, "to_zip"},
		"zip NaN":          {func(a *Address) { a.Zip = "NaN" }, "to_zip"},
		"dashed phone":     {func(a *Address) { a.Phone = "777-123-456" }, "to_phone"},
		"country -1":       {func(a *Address) { a.Country = "-1" }, "to_country"},
		"no street":        {func(a *Address) { a.Street = "" }, "to_street"},
	} {
		a := good
		c.edit(&a)
		if p := CheckAddress(a, NeedAddress); p[c.field].IsZero() {
			t.Errorf("%s: no problem on %s: %v", name, c.field, p)
		}
	}
	if p := CheckAddress(Address{Surname: "Malá", Country: "CZ", Email: "a@example.cz"}, NeedNoAddress); len(p) > 0 {
		t.Errorf("no address needed: %v", p)
	}
	if p := CheckAddress(Address{Surname: "Malá", Country: "CZ", Zip: "ABCDE", Email: "a@example.cz"}, NeedNoAddress); p["to_zip"].IsZero() {
		t.Error("a postal code typed is checked even when none is needed")
	}
}
