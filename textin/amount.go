package textin

import (
	"regexp"
	"strings"
)

// Amount rewrites a sum of money as a person typed it into the form Decimal
// reads, or leaves it as it is. Czech people write "1.250" for one thousand two
// hundred and fifty, and a sum carries at most two decimals, so one dot before
// exactly three digits groups thousands; a currency after the number ("1250
// Kč", "80 EUR", "99,-") is the field's own and goes.
func Amount(s string) string {
	s = strings.TrimSpace(currencyAfter.ReplaceAllString(s, ""))
	if thousandsDot.MatchString(s) {
		s = strings.ReplaceAll(s, ".", "")
	}
	return s
}

var (
	currencyAfter = regexp.MustCompile(`(?i)\s*(kč|kc|czk|eur|€|,-|,–)\s*$`)
	thousandsDot  = regexp.MustCompile(`^[+-]?\d{1,3}\.\d{3}$`)
)
