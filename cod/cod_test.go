package cod

import (
	"strings"
	"testing"
)

func valid() Input {
	return Input{Value: 500, Currency: "CZK", BankAccount: "19-2000145399", BankCode: "0800",
		From: "CZ", To: "CZ", Packages: 1, MaxCZK: 50000}
}

func TestCzechAccounts(t *testing.T) {
	for _, ok := range []string{"19-2000145399", "2000145399", "000019-2000145399", "1000000005"} {
		if err := CheckCzechAccount(ok); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"19-2000145398", "2000145398", "1234567-123", "12345678901", "abc", "1", "19-", "-2000145399"} {
		if err := CheckCzechAccount(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestIBAN(t *testing.T) {
	for _, ok := range []string{"CZ6508000000192000145399", "SK3112000000198742637541", "DE89370400440532013000"} {
		if !ValidIBAN(ok) {
			t.Errorf("%s refused", ok)
		}
	}
	for _, bad := range []string{"CZ6508000000192000145398", "CZ65", "XX00ABC", "CZ650800000019200014539!"} {
		if ValidIBAN(bad) {
			t.Errorf("%s accepted", bad)
		}
	}
}

// Each rule of the spec: one broken input, the field it names.
func TestRules(t *testing.T) {
	cases := []struct {
		name  string
		mod   func(*Input)
		field string
		says  string
	}{
		{"CZK minimum", func(i *Input) { i.Value = 29 }, "value.value", "minimum"},
		{"EUR minimum", func(i *Input) { i.To, i.Currency, i.Value = "SK", "EUR", 0.5 }, "value.value", "minimum"},
		{"whole CZK", func(i *Input) { i.Value = 100.5 }, "value.value", "whole number"},
		{"EUR cents", func(i *Input) { i.To, i.Currency, i.Value = "SK", "EUR", 10.123 }, "value.value", "two decimals"},
		{"CZ to CZ only CZK", func(i *Input) { i.Currency = "EUR" }, "value.currency", "CZK"},
		{"CZ to SK not USD", func(i *Input) { i.To, i.Currency = "SK", "USD" }, "value.currency", "CZK or EUR"},
		{"direction", func(i *Input) { i.From = "SK" }, "value.currency", "only from the Czech Republic"},
		{"SK to CZ named", func(i *Input) { i.From = "SK" }, "value.currency", "not available from SK to CZ"},
		{"CZ to DE", func(i *Input) { i.To = "DE" }, "value.currency", "not available from CZ to DE"},
		{"CZ to AT in EUR", func(i *Input) { i.To, i.Currency = "AT", "EUR" }, "value.currency", "not available from CZ to AT"},
		{"CZ to PL", func(i *Input) { i.To = "PL" }, "value.currency", "not available from CZ to PL"},
		{"CZ to HU", func(i *Input) { i.To = "HU" }, "value.currency", "not available from CZ to HU"},
		{"maximum", func(i *Input) { i.Value = 50001 }, "value.value", "maximum"},
		{"EUR maximum", func(i *Input) { i.To, i.Currency, i.Value = "SK", "EUR", 2001 }, "value.value", "2000 EUR"},
		{"no COD service", func(i *Input) { i.MaxCZK = 0 }, "value", "not available"},
		{"account missing", func(i *Input) { i.BankAccount = "" }, "bank_account", "required"},
		{"account too long", func(i *Input) { i.BankAccount = strings.Repeat("1", 65) }, "bank_account", "64"},
		{"account modulo", func(i *Input) { i.BankAccount = "19-2000145398" }, "bank_account", "modulo 11"},
		{"bad IBAN", func(i *Input) { i.BankAccount, i.BankCode = "CZ6508000000192000145398", "" }, "bank_account", "IBAN"},
		{"bank code with IBAN", func(i *Input) { i.BankAccount = "CZ6508000000192000145399" }, "bank_code", "omitted"},
		{"bank code missing", func(i *Input) { i.BankCode = "" }, "bank_code", "required"},
		{"bank code digits", func(i *Input) { i.BankCode = "08000" }, "bank_code", "four digits"},
		{"variable symbol", func(i *Input) { i.BankVariable = "12a" }, "bank_variable", "digits"},
		{"variable symbol length", func(i *Input) { i.BankVariable = "12345678901" }, "bank_variable", "10"},
		{"bank currency", func(i *Input) { i.BankCurrency = "czk" }, "bank_currency", "three-letter"},
		{"bank currency not ISO 4217", func(i *Input) { i.BankCurrency = "ABC" }, "bank_currency", "ISO 4217"},
		{"K1 single package", func(i *Input) { i.Group, i.Packages = "K1", 2 }, "packages", "single package"},
		{"K2 with point", func(i *Input) { i.Group, i.Packages, i.UsesPoint = "K2", 2, true }, "packages", "point"},
		{"K3 CZ to SK", func(i *Input) { i.Group, i.Packages, i.To = "K3", 2, "SK" }, "packages", "Slovakia"},
	}
	if p := Check(valid()); len(p) != 0 {
		t.Fatalf("valid input refused: %v", p)
	}
	for _, tc := range cases {
		in := valid()
		tc.mod(&in)
		got := Check(in)
		found := false
		for _, p := range got {
			if p.Field == tc.field && strings.Contains(p.Message(), tc.says) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: got %+v, want %s saying %q", tc.name, got, tc.field, tc.says)
		}
	}
}

func TestMultiPackageAllowedWhereRulesAllow(t *testing.T) {
	for _, mod := range []func(*Input){
		func(i *Input) { i.Group, i.Packages = "K2", 3 },           // K2 to an address
		func(i *Input) { i.Group, i.Packages = "K3", 2 },           // K3 within CZ
		func(i *Input) { i.Group, i.Packages, i.To = "", 2, "SK" }, // no group rule
	} {
		in := valid()
		mod(&in)
		if in.To == "SK" {
			in.Currency = "EUR"
			in.Value = 20
		}
		if p := Check(in); len(p) != 0 {
			t.Errorf("%+v refused: %v", in, p)
		}
	}
}

func TestRatesNeedOnlyTheValue(t *testing.T) {
	in := Input{Value: 300, Currency: "CZK", From: "CZ", To: "CZ", Packages: 1, MaxCZK: 50000, ForRates: true}
	if p := Check(in); len(p) != 0 {
		t.Errorf("rates COD with only a value refused: %v", p)
	}
}

// The directions of the spec's limits: CZ→CZ in CZK, CZ→SK in CZK or EUR.
func TestDirectionsAllowed(t *testing.T) {
	for _, c := range []struct{ to, currency string }{{"CZ", "CZK"}, {"SK", "CZK"}, {"SK", "EUR"}} {
		in := valid()
		in.To, in.Currency = c.to, c.currency
		if c.currency == "EUR" {
			in.Value = 20
		}
		if p := Check(in); len(p) != 0 {
			t.Errorf("CZ to %s in %s refused: %v", c.to, c.currency, p)
		}
	}
}

// A refund account is one field: a Czech account with its bank, or an IBAN,
// by the same checks as a COD account, kept normalised.
func TestRefundAccount(t *testing.T) {
	for in, want := range map[string]string{
		"19-2000145399/0800":            "19-2000145399/0800",
		" 000019-2000145399 / 0800 ":    "19-2000145399/0800",
		"2000145399/0800":               "2000145399/0800",
		"cz65 0800 0000 1920 0014 5399": "CZ6508000000192000145399",
		"CZ6508000000192000145399":      "CZ6508000000192000145399",
	} {
		got, problem := RefundAccount(in)
		if !problem.IsZero() || got != want {
			t.Errorf("RefundAccount(%q) = %q (%v), want %q", in, got, problem, want)
		}
	}
	for in, key := range map[string]string{
		"":                         "wd.err.account_required",
		"19-2000145398/0800":       "cod.account.mod11",
		"18-2000145399/0800":       "cod.account.prefix",
		"19-2000145399":            "cod.bank_code.required",
		"19-2000145399/08":         "cod.bank_code.shape",
		"CZ6608000000192000145399": "cod.iban.invalid",
		"12a4/0800":                "cod.account.shape",
		"'; DROP TABLE x;--/0800":  "cod.account.shape",
	} {
		if _, problem := RefundAccount(in); problem.Key != key {
			t.Errorf("RefundAccount(%q): %v, want %s", in, problem, key)
		}
	}
	if got := FormatAccount("CZ6508000000192000145399"); got != "CZ65 0800 0000 1920 0014 5399" {
		t.Errorf("FormatAccount: %q", got)
	}
}
