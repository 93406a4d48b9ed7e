package textin

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
)

// Forms of Czech everyday writing that people type into the dashboard: bank
// accounts as prefix-number/bank, dates as 22. 11. 2026, phone numbers with
// spaces. Amounts with spaces and decimal commas are read by Decimal.

// Problems of the Czech forms: keys of the catalog.
const (
	AccountShape  = "text.account_shape"
	BankCodeShape = "text.bank_code_shape"
	DateShape     = "text.date_shape"
	PhoneShape    = "text.phone_shape"
)

var (
	czechAccount = regexp.MustCompile(`^(?:(\d{1,6})-)?(\d{2,10})$`)
	iban         = regexp.MustCompile(`^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$`)
	bankCode     = regexp.MustCompile(`^\d{1,4}$`)
)

// BankAccount reads a Czech account written prefix-number/bank ("19-2000145399/0800",
// spaces allowed) into the account ("19-2000145399") and the bank code padded
// to four digits, or an IBAN (spaces removed, upper case; no bank code). An
// account without "/bank" is returned as it is, for a separate bank code field.
func BankAccount(s string) (account, code string, problem apperr.Text) {
	s = strings.Join(strings.FieldsFunc(s, isSpace), "")
	if up := strings.ToUpper(s); iban.MatchString(up) {
		return up, "", apperr.Text{}
	}
	number, bank, hasBank := strings.Cut(s, "/")
	if !czechAccount.MatchString(number) {
		return "", "", apperr.Msg(AccountShape)
	}
	if !hasBank {
		return number, "", apperr.Text{}
	}
	if !bankCode.MatchString(bank) {
		return "", "", apperr.Msg(BankCodeShape)
	}
	return number, strings.Repeat("0", 4-len(bank)) + bank, apperr.Text{}
}

var czechDate = regexp.MustCompile(`^(\d{1,2})\.(\d{1,2})\.(\d{4})$`)

// Date reads a day written the Czech way ("22. 11. 2026", with or without
// spaces) or as ISO ("2026-11-22"), as midnight UTC of that day.
func Date(s string) (time.Time, apperr.Text) {
	s = strings.Join(strings.FieldsFunc(s, isSpace), "")
	if d, err := time.Parse("2006-01-02", s); err == nil {
		return inRange(d)
	}
	m := czechDate.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, apperr.Msg(DateShape)
	}
	day, _ := strconv.Atoi(m[1])
	month, _ := strconv.Atoi(m[2])
	year, _ := strconv.Atoi(m[3])
	d := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if d.Day() != day || int(d.Month()) != month { // 31. 2. is no day
		return time.Time{}, apperr.Msg(DateShape)
	}
	return inRange(d)
}

// inRange keeps dates people mean: no year 1 or 9999.
func inRange(d time.Time) (time.Time, apperr.Text) {
	if d.Year() < 1900 || d.Year() > 2200 {
		return time.Time{}, apperr.Msg(DateShape)
	}
	return d, apperr.Text{}
}

// Phone reads a phone number written with spaces, dashes or brackets
// ("+420 777 123 456"); "00" before a country code becomes "+".
func Phone(s string) (string, apperr.Text) {
	var b strings.Builder
	for i, r := range strings.TrimSpace(s) {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '+' && i == 0:
			b.WriteRune(r)
		case isSpace(r) || r == '-' || r == '(' || r == ')' || r == '/' || r == '.':
		default:
			return "", apperr.Msg(PhoneShape)
		}
	}
	out := b.String()
	if strings.HasPrefix(out, "00") {
		out = "+" + out[2:]
	}
	if n := len(strings.TrimPrefix(out, "+")); n < 9 || n > 15 {
		return "", apperr.Msg(PhoneShape)
	}
	return out, apperr.Text{}
}

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\u00a0' || r == '\u202f' }
