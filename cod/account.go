package cod

import (
	"strings"

	"shipdesk/apperr"
)

// RefundAccount reads an account money is sent to (a customer's refund) as
// one field: a Czech "[prefix-]number/bank" checked by modulo 11, or an
// IBAN checked by mod 97, the same checks as a COD account. It returns the
// account normalised (no spaces; an IBAN in capitals; the number without
// leading zeros) or the problem.
func RefundAccount(s string) (string, apperr.Text) {
	acct := strings.Join(strings.Fields(s), "")
	switch {
	case acct == "":
		return "", apperr.Msg("wd.err.account_required")
	case len(acct) > 64:
		return "", apperr.Msg("cod.account.long")
	case IsIBANShaped(strings.ToUpper(acct)):
		acct = strings.ToUpper(acct)
		if !ValidIBAN(acct) {
			return "", apperr.Msg("cod.iban.invalid")
		}
		return acct, apperr.Text{}
	}
	number, bank, ok := strings.Cut(acct, "/")
	if !ok || bank == "" {
		return "", apperr.Msg("cod.bank_code.required")
	}
	if !fourDigits.MatchString(bank) {
		return "", apperr.Msg("cod.bank_code.shape")
	}
	if problem := czechAccount(number); !problem.IsZero() {
		return "", problem
	}
	prefix, main, hasPrefix := strings.Cut(number, "-")
	if !hasPrefix {
		prefix, main = "", number
	}
	out := strings.TrimLeft(main, "0") + "/" + bank
	if p := strings.TrimLeft(prefix, "0"); p != "" {
		out = p + "-" + out
	}
	return out, apperr.Text{}
}

// FormatAccount writes a normalised account as people read it: an IBAN in
// groups of four ("CZ65 0800 0000 1920 0014 5399"), a Czech account as it is.
func FormatAccount(acct string) string {
	if !IsIBANShaped(acct) {
		return acct
	}
	var b strings.Builder
	for i, r := range acct {
		if i > 0 && i%4 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return b.String()
}
