package textin

import (
	"testing"
	"time"
)

func TestDecimalInCzechAndEnglishForms(t *testing.T) {
	any := Range{Above: -1e12, Max: 1e12}
	for _, c := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"1 299", 1299, true}, {"1 299,50", 1299.5, true}, {"12 345 678,9", 12345678.9, true},
		{"1\u00a0299,50", 1299.5, true}, {"1\u202f299", 1299, true}, {"1.299,50", 1299.5, true},
		{"1,299.50", 1299.5, true}, {"1.299.000", 1299000, true}, {"-1 299,5", -1299.5, true},
		{"1,5", 1.5, true}, {"0,05", 0.05, true}, {"299", 299, true},
		{"1 29", 0, false}, {"12 34,5", 0, false}, {"1 2345", 0, false}, {"1,2,3", 0, false}, {"1.2,3.4", 0, false},
		{"1 299.000,5", 0, false}, {",5", 0, false}, {"5,", 0, false}, {"1e3", 0, false}, {"1  299", 0, false},
		{"Kč 100", 0, false}, {"", 0, false}, {" ", 0, false},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, problem := Decimal(c.in, any)
			if problem.IsZero() != c.ok || c.ok && got != c.want {
				t.Errorf("Decimal(%q) = %v, %q; want %v (ok %v)", c.in, got, problem, c.want, c.ok)
			}
		})
	}
}

func TestBankAccountInCzechForm(t *testing.T) {
	for _, c := range []struct{ in, account, code, problem string }{
		{"2000145399/0800", "2000145399", "0800", ""},
		{"19-2000145399/0800", "19-2000145399", "0800", ""},
		{" 19 - 2000145399 / 800 ", "19-2000145399", "0800", ""},
		{"2000145399/2010", "2000145399", "2010", ""},
		{"CZ65 0800 0000 1920 0014 5399", "CZ6508000000192000145399", "", ""},
		{"cz6508000000192000145399", "CZ6508000000192000145399", "", ""},
		{"2000145399", "2000145399", "", ""},
		{"2000145399/08000", "", "", BankCodeShape},
		{"2000145399/ab", "", "", BankCodeShape},
		{"12345678901/0800", "", "", AccountShape},
		{"1234567-2000145399/0800", "", "", AccountShape},
		{"20001-45399/0800/1", "", "", BankCodeShape},
		{"", "", "", AccountShape},
	} {
		t.Run(c.in, func(t *testing.T) {
			account, code, problem := BankAccount(c.in)
			if account != c.account || code != c.code || problem.Key != c.problem {
				t.Errorf("BankAccount(%q) = %q, %q, %q; want %q, %q, %q", c.in, account, code, problem, c.account, c.code, c.problem)
			}
		})
	}
}

func TestDateInCzechOrISOForm(t *testing.T) {
	want := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	for _, in := range []string{"22. 11. 2026", "22.11.2026", "22. 11. 2026 ", "2026-11-22", "22.\u00a011.\u00a02026", "  22 . 11 . 2026"} {
		t.Run(in, func(t *testing.T) {
			if got, problem := Date(in); !problem.IsZero() || !got.Equal(want) {
				t.Errorf("Date(%q) = %v, %q", in, got, problem)
			}
		})
	}
	for in, want := range map[string]time.Time{"14. 12. 2026": time.Date(2026, 12, 14, 0, 0, 0, 0, time.UTC),
		"14.12.2026": time.Date(2026, 12, 14, 0, 0, 0, 0, time.UTC), "2026-12-14": time.Date(2026, 12, 14, 0, 0, 0, 0, time.UTC),
		"1. 2. 2027": time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC), "29. 2. 2028": time.Date(2028, 2, 29, 0, 0, 0, 0, time.UTC)} {
		if got, problem := Date(in); !problem.IsZero() || !got.Equal(want) {
			t.Errorf("Date(%q) = %v, %q; want %v", in, got, problem, want)
		}
	}
	for _, in := range []string{"31. 2. 2026", "29. 2. 2027", "14. 12. 2026\x00", "22. 11.", "22/11/2026", "2026-13-01", "tomorrow", "", "22. 11. 26", "0. 1. 2026"} {
		t.Run("bad "+in, func(t *testing.T) {
			if _, problem := Date(in); problem.IsZero() {
				t.Errorf("Date(%q) accepted", in)
			}
		})
	}
}

func TestPhoneWithSpaces(t *testing.T) {
	for _, c := range []struct{ in, want, problem string }{
		{"+420 777 123 456", "+420777123456", ""},
		{"777 123 456", "777123456", ""},
		{"+421 (2) 123-456-78", "+421212345678", ""},
		{"00420 777 123 456", "+420777123456", ""},
		{"777", "", PhoneShape},
		{"+420 777 123 456 789 123", "", PhoneShape},
		{"call me", "", PhoneShape},
	} {
		t.Run(c.in, func(t *testing.T) {
			if got, problem := Phone(c.in); got != c.want || problem.Key != c.problem {
				t.Errorf("Phone(%q) = %q, %q; want %q, %q", c.in, got, problem, c.want, c.problem)
			}
		})
	}
}

func FuzzBankAccount(f *testing.F) {
	for _, s := range []string{"19-2000145399/0800", "CZ65 0800 0000 1920 0014 5399", "/", "-/", "1-/1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		account, code, problem := BankAccount(s)
		if !problem.IsZero() {
			return
		}
		if len(account) == 0 || len(account) > 34 || len(code) != 0 && len(code) != 4 {
			t.Errorf("BankAccount(%q) = %q, %q", s, account, code)
		}
	})
}

func FuzzDate(f *testing.F) {
	for _, s := range []string{"22. 11. 2026", "2026-11-22", "31. 12. 9999", "1. 1. 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, problem := Date(s)
		if problem.IsZero() && (d.Year() < 1900 || d.Year() > 2200) {
			t.Errorf("Date(%q) = %v: out of range", s, d)
		}
	})
}

func FuzzDecimalCzech(f *testing.F) {
	for _, s := range []string{"1 299,50", "1.299,50", "1,299.50", "-0,5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if plain, ok := plainDecimal(s); ok {
			for _, c := range plain {
				if (c < '0' || c > '9') && c != '.' && c != '-' {
					t.Errorf("plainDecimal(%q) = %q", s, plain)
				}
			}
		}
	})
}
