// Package cod holds the rules of cash on delivery that the service enforces:
// minimums, whole CZK, currency by direction, per-service maximum, Czech account
// (modulo 11) or IBAN (mod 97), bank code and variable symbol formats, and the
// multi-package rules of the K1/K2/K3 carrier groups. The sandbox refuses with
// these rules and the dashboard's form checks them before calling upstream, so
// both give the same messages.
package cod

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strings"

	"shipdesk/textin"
)

// Problem is one broken rule, named by the ServiceCOD field it concerns
// ("value", "bank_account", …) or "packages".
type Problem struct {
	Field   string
	Message string
}

// Input is a COD request with the shipment facts the rules depend on.
type Input struct {
	Value        float64
	Currency     string
	BankAccount  string
	BankCode     string
	BankVariable string
	BankCurrency string

	From, To  string  // two-letter countries of sender and recipient
	Packages  int     // number of packages of the shipment
	Group     string  // carrier's COD group: K1, K2, K3 or ""
	UsesPoint bool    // a pickup or delivery point is used
	MaxCZK    float64 // service maximum in CZK; 0 means the service has no COD
	ForRates  bool    // rates/get needs only the value
}

// EURRate converts EUR maxima to CZK (a fixed rate: the sandbox is deterministic).
const EURRate = 25.0

// Minimums per currency.
var Minimums = map[string]float64{"CZK": 30, "EUR": 1}

// Currencies allowed for a direction; nil when COD is not available.
func Currencies(from, to string) []string {
	switch {
	case from == "CZ" && to == "CZ":
		return []string{"CZK"}
	case from == "CZ" && to == "SK":
		return []string{"CZK", "EUR"}
	}
	return nil
}

var (
	czechAccount = regexp.MustCompile(`^(?:(\d{1,6})-)?(\d{2,10})$`)
	fourDigits   = regexp.MustCompile(`^\d{4}$`)
	digits       = regexp.MustCompile(`^\d{1,10}$`)
	ibanShape    = regexp.MustCompile(`^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$`)
)

// Check returns every broken rule, in field order.
func Check(in Input) []Problem {
	var out []Problem
	add := func(field, format string, args ...any) {
		out = append(out, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	if in.MaxCZK <= 0 {
		add("value", "Cash on delivery is not available for this service")
		return out
	}
	allowed := Currencies(in.From, in.To)
	switch {
	case allowed == nil:
		add("value.currency", "Cash on delivery is not available from %s to %s: it is available only from the Czech Republic to the Czech Republic or Slovakia", in.From, in.To)
	case !contains(allowed, in.Currency):
		add("value.currency", "Cash on delivery from %s to %s must be in %s", in.From, in.To, strings.Join(allowed, " or "))
	default:
		if min := Minimums[in.Currency]; in.Value < min {
			add("value.value", "The minimum cash on delivery amount is %g %s", min, in.Currency)
		} else if in.Currency == "CZK" && in.Value != math.Trunc(in.Value) {
			add("value.value", "Cash on delivery in CZK must be a whole number")
		} else if in.Currency == "EUR" && math.Round(in.Value*100) != in.Value*100 {
			add("value.value", "Cash on delivery in EUR can have at most two decimals")
		} else if czk := in.Value * rate(in.Currency); czk > in.MaxCZK {
			add("value.value", "The maximum cash on delivery amount for this service is %s", maxText(in.MaxCZK, in.Currency))
		}
	}
	if !in.ForRates || in.BankAccount != "" {
		out = append(out, checkBank(in)...)
	}
	if in.Packages > 1 {
		switch {
		case in.Group == "K1":
			add("packages", "Cash on delivery with this carrier is possible only for a single package")
		case in.Group == "K2" && in.UsesPoint:
			add("packages", "Cash on delivery with this carrier is possible only for a single package when a pickup or delivery point is used")
		case in.Group == "K3" && in.From == "CZ" && in.To == "SK":
			add("packages", "Cash on delivery from the Czech Republic to Slovakia with this carrier is possible only for a single package")
		}
	}
	return out
}

func checkBank(in Input) []Problem {
	var out []Problem
	add := func(field, msg string) { out = append(out, Problem{Field: field, Message: msg}) }
	acct := strings.ReplaceAll(strings.TrimSpace(in.BankAccount), " ", "")
	switch {
	case acct == "":
		add("bank_account", "The bank account is required for cash on delivery")
	case len(in.BankAccount) > 64:
		add("bank_account", "The bank account can have at most 64 characters")
	case IsIBANShaped(acct):
		if !ValidIBAN(acct) {
			add("bank_account", "The IBAN is not valid (check digits do not match)")
		}
		if in.BankCode != "" {
			add("bank_code", "The bank code must be omitted when the account is an IBAN")
		}
	default:
		if err := CheckCzechAccount(acct); err != nil {
			add("bank_account", err.Error())
		}
		if in.BankCode == "" {
			add("bank_code", "The bank code is required for a Czech account number")
		} else if !fourDigits.MatchString(in.BankCode) {
			add("bank_code", "The bank code must be exactly four digits")
		}
	}
	if in.BankCode != "" && acct == "" && !fourDigits.MatchString(in.BankCode) {
		add("bank_code", "The bank code must be exactly four digits")
	}
	if in.BankVariable != "" && !digits.MatchString(in.BankVariable) {
		add("bank_variable", "The variable symbol can have only digits, at most 10")
	}
	if in.BankCurrency != "" && !textin.IsCurrency(in.BankCurrency) {
		add("bank_currency", "The bank account currency must be a three-letter ISO 4217 code")
	}
	return out
}

// IsIBANShaped: starts like an IBAN (two letters, two digits), so it is judged as one.
func IsIBANShaped(s string) bool {
	return len(s) >= 4 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}

// ValidIBAN checks the shape and the ISO 13616 mod-97 check digits.
func ValidIBAN(s string) bool {
	s = strings.ToUpper(strings.ReplaceAll(s, " ", ""))
	if !ibanShape.MatchString(s) {
		return false
	}
	var b strings.Builder
	for _, r := range s[4:] + s[:4] {
		if r >= 'A' && r <= 'Z' {
			fmt.Fprintf(&b, "%d", r-'A'+10)
		} else {
			b.WriteRune(r)
		}
	}
	n, ok := new(big.Int).SetString(b.String(), 10)
	return ok && new(big.Int).Mod(n, big.NewInt(97)).Int64() == 1
}

// weights of the Czech National Bank's modulo-11 check, for the last ten digits.
var weights = []int{6, 3, 7, 9, 10, 5, 8, 4, 2, 1}

// CheckCzechAccount checks "[prefix-]number": prefix up to 6 digits, number 2 to
// 10 digits, each passing modulo 11 with the official weights.
func CheckCzechAccount(s string) error {
	m := czechAccount.FindStringSubmatch(s)
	if m == nil {
		return fmt.Errorf("The bank account must be a Czech account number (prefix-number) or an IBAN")
	}
	if m[1] != "" && !mod11(m[1]) {
		return fmt.Errorf("The account number prefix is not valid (modulo 11 check failed)")
	}
	if !mod11(m[2]) {
		return fmt.Errorf("The account number is not valid (modulo 11 check failed)")
	}
	if strings.Trim(m[2], "0") == "" {
		return fmt.Errorf("The account number is not valid")
	}
	return nil
}

func mod11(d string) bool {
	sum := 0
	off := len(weights) - len(d)
	for i, r := range d {
		sum += int(r-'0') * weights[off+i]
	}
	return sum%11 == 0
}

func rate(currency string) float64 {
	if currency == "EUR" {
		return EURRate
	}
	return 1
}

func maxText(czk float64, currency string) string {
	if currency == "EUR" {
		return fmt.Sprintf("%g EUR", math.Floor(czk/EURRate))
	}
	return fmt.Sprintf("%g CZK", czk)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
