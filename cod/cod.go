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

	"shipdesk/apperr"
	"shipdesk/textin"
)

// Problem is one broken rule, named by the ServiceCOD field it concerns
// ("value", "bank_account", …) or "packages", said by a key of the catalog.
type Problem struct {
	Field string
	Text  apperr.Text
}

// Message is the problem in English, as the service says it.
func (p Problem) Message() string { return p.Text.String() }

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
	czechAccountShape = regexp.MustCompile(`^(?:(\d{1,6})-)?(\d{2,10})$`)
	fourDigits        = regexp.MustCompile(`^\d{4}$`)
	digits            = regexp.MustCompile(`^\d{1,10}$`)
	ibanShape         = regexp.MustCompile(`^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$`)
)

// Check returns every broken rule, in field order.
func Check(in Input) []Problem {
	var out []Problem
	add := func(field string, t apperr.Text) { out = append(out, Problem{Field: field, Text: t}) }
	if in.MaxCZK <= 0 {
		add("value", apperr.Msg("cod.unavailable"))
		return out
	}
	allowed := Currencies(in.From, in.To)
	switch {
	case allowed == nil:
		add("value.currency", apperr.Msg("cod.direction", in.From, in.To))
	case !contains(allowed, in.Currency):
		add("value.currency", apperr.Msg("cod.currency", in.From, in.To, either(allowed)))
	default:
		if min := Minimums[in.Currency]; in.Value < min {
			add("value.value", apperr.Msg("cod.minimum", min, in.Currency))
		} else if in.Currency == "CZK" && in.Value != math.Trunc(in.Value) {
			add("value.value", apperr.Msg("cod.whole_czk"))
		} else if in.Currency == "EUR" && math.Round(in.Value*100) != in.Value*100 {
			add("value.value", apperr.Msg("cod.eur_decimals"))
		} else if czk := in.Value * rate(in.Currency); czk > in.MaxCZK {
			add("value.value", apperr.Msg("cod.maximum", maxText(in.MaxCZK, in.Currency)))
		}
	}
	if !in.ForRates || in.BankAccount != "" {
		out = append(out, checkBank(in)...)
	}
	if in.Packages > 1 {
		switch {
		case in.Group == "K1":
			add("packages", apperr.Msg("cod.single.k1"))
		case in.Group == "K2" && in.UsesPoint:
			add("packages", apperr.Msg("cod.single.k2"))
		case in.Group == "K3" && in.From == "CZ" && in.To == "SK":
			add("packages", apperr.Msg("cod.single.k3"))
		}
	}
	return out
}

func checkBank(in Input) []Problem {
	var out []Problem
	add := func(field string, t apperr.Text) { out = append(out, Problem{Field: field, Text: t}) }
	acct := strings.ReplaceAll(strings.TrimSpace(in.BankAccount), " ", "")
	switch {
	case acct == "":
		add("bank_account", apperr.Msg("cod.account.required"))
	case len(in.BankAccount) > 64:
		add("bank_account", apperr.Msg("cod.account.long"))
	case IsIBANShaped(acct):
		if !ValidIBAN(acct) {
			add("bank_account", apperr.Msg("cod.iban.invalid"))
		}
		if in.BankCode != "" {
			add("bank_code", apperr.Msg("cod.bank_code.iban"))
		}
	default:
		if problem := czechAccount(acct); !problem.IsZero() {
			add("bank_account", problem)
		}
		if in.BankCode == "" {
			add("bank_code", apperr.Msg("cod.bank_code.required"))
		} else if !fourDigits.MatchString(in.BankCode) {
			add("bank_code", apperr.Msg("cod.bank_code.shape"))
		}
	}
	if in.BankCode != "" && acct == "" && !fourDigits.MatchString(in.BankCode) {
		add("bank_code", apperr.Msg("cod.bank_code.shape"))
	}
	if in.BankVariable != "" && !digits.MatchString(in.BankVariable) {
		add("bank_variable", apperr.Msg("cod.variable"))
	}
	if in.BankCurrency != "" && !textin.IsCurrency(in.BankCurrency) {
		add("bank_currency", apperr.Msg("cod.bank_currency"))
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
	if problem := czechAccount(s); !problem.IsZero() {
		return apperr.With(apperr.Invalid, problem)
	}
	return nil
}

// czechAccount is CheckCzechAccount's problem, none when the account is good.
func czechAccount(s string) apperr.Text {
	m := czechAccountShape.FindStringSubmatch(s)
	switch {
	case m == nil:
		return apperr.Msg("cod.account.shape")
	case m[1] != "" && !mod11(m[1]):
		return apperr.Msg("cod.account.prefix")
	case !mod11(m[2]):
		return apperr.Msg("cod.account.mod11")
	case strings.Trim(m[2], "0") == "":
		return apperr.Msg("cod.account.zero")
	}
	return apperr.Text{}
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

// either names the allowed currencies: "CZK", or "CZK or EUR".
func either(list []string) any {
	if len(list) == 2 {
		return apperr.Msg("cod.either", list[0], list[1])
	}
	return strings.Join(list, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
