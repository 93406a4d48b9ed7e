package textin

import (
	"math"
	"strconv"
	"strings"

	"shipdesk/apperr"
)

// NotANumber is the problem (its key) of a value that is no decimal number at all.
const NotANumber = "text.not_a_number"

// Range bounds a number typed by a person: more than Above (at least Above
// when OrEqual), at most Max; Unit names it in messages ("kg").
type Range struct {
	Above   float64
	OrEqual bool
	Max     float64
	Unit    string
}

// Decimal reads a decimal number as people type it: a decimal comma or point,
// thousands grouped by spaces ("1 299,50", also with no-break spaces) or, when
// both marks appear, by the other mark ("1.299,50", "1,299.50"); no exponent,
// no NaN or infinity; within r. It returns the problem, none when none; an
// empty s is a problem for the caller to word (required or not).
func Decimal(s string, r Range) (float64, apperr.Text) {
	plain, ok := plainDecimal(s)
	if !ok {
		return 0, apperr.Msg(NotANumber)
	}
	x, err := strconv.ParseFloat(plain, 64)
	switch {
	case err != nil || math.IsNaN(x) || math.IsInf(x, 0):
		return 0, apperr.Msg(NotANumber)
	case x < r.Above || x == r.Above && !r.OrEqual:
		if r.OrEqual {
			return 0, apperr.Msg("text.at_least", format(r.Above))
		}
		return 0, apperr.Msg("text.more_than", format(r.Above))
	case x > r.Max && r.Unit == "":
		return 0, apperr.Msg("text.at_most", format(r.Max))
	case x > r.Max:
		return 0, apperr.Msg("text.at_most_unit", format(r.Max), r.Unit)
	}
	return x, apperr.Text{}
}

// plainDecimal rewrites a typed number as Go reads it ("-1299.5"), or says it
// is none. Groups of thousands must have three digits, so "1 29" or "1.2.3"
// are refused rather than guessed.
func plainDecimal(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 40 {
		return "", false
	}
	sign := ""
	if s[0] == '-' || s[0] == '+' {
		sign, s = strings.TrimPrefix(s[:1], "+"), s[1:]
	}
	// Spaces people put between thousands: ordinary, no-break, narrow no-break.
	s = strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(s)
	if strings.Trim(s, "0123456789 ,.") != "" {
		return "", false
	}
	commas, points := strings.Count(s, ","), strings.Count(s, ".")
	var decimal, group byte
	switch {
	case commas > 0 && points > 0: // the last mark is the decimal one, the other groups
		decimal, group = s[strings.LastIndexAny(s, ",.")], ','
		if decimal == ',' {
			group = '.'
		}
	case commas == 1:
		decimal = ','
	case points == 1:
		decimal = '.'
	case commas > 1:
		group = ','
	case points > 1:
		group = '.'
	}
	intPart, frac := s, ""
	if decimal != 0 {
		if strings.Count(s, string(decimal)) != 1 {
			return "", false
		}
		i := strings.IndexByte(s, decimal)
		intPart, frac = s[:i], s[i+1:]
		if !allDigits(frac) {
			return "", false
		}
	}
	if group != 0 && strings.Contains(intPart, " ") {
		return "", false // one way of grouping at a time
	}
	if group == 0 {
		group = ' '
	}
	groups := strings.Split(intPart, string(group))
	for i, g := range groups {
		if !allDigits(g) || len(groups) > 1 && (i == 0 && len(g) > 3 || i > 0 && len(g) != 3) {
			return "", false
		}
	}
	out := sign + strings.Join(groups, "")
	if frac != "" {
		out += "." + frac
	}
	return out, true
}

func allDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// format writes a bound as people read it: 10000000, not 1e+07.
func format(x float64) string {
	return strconv.FormatFloat(x, 'f', -1, 64)
}
