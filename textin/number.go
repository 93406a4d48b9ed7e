package textin

import (
	"math"
	"strconv"
	"strings"
)

// NotANumber is the problem of a value that is no decimal number at all.
const NotANumber = "Type a number, e.g. 1.5."

// Range bounds a number typed by a person: more than Above (at least Above
// when OrEqual), at most Max; Unit names it in messages ("kg").
type Range struct {
	Above   float64
	OrEqual bool
	Max     float64
	Unit    string
}

// Decimal reads a decimal number as people type it: a decimal comma or point,
// no exponent, no NaN or infinity, within r. It returns the problem, "" when
// none; an empty s is a problem for the caller to word (required or not).
func Decimal(s string, r Range) (float64, string) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 32 || strings.ContainsAny(s, "eEnNiIxX_") || strings.Count(s, ",")+strings.Count(s, ".") > 1 {
		return 0, NotANumber
	}
	x, err := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64)
	switch {
	case err != nil || math.IsNaN(x) || math.IsInf(x, 0):
		return 0, NotANumber
	case x < r.Above || x == r.Above && !r.OrEqual:
		if r.OrEqual {
			return 0, "Must be at least " + format(r.Above) + "."
		}
		return 0, "Must be more than " + format(r.Above) + "."
	case x > r.Max:
		return 0, strings.TrimSpace("At most "+format(r.Max)+" "+r.Unit) + "."
	}
	return x, ""
}

// format writes a bound as people read it: 10000000, not 1e+07.
func format(x float64) string {
	return strconv.FormatFloat(x, 'f', -1, 64)
}
