package countries

import (
	"regexp"
	"strings"
)

// postcode is how a country writes its postal codes: the shape (matched in
// capitals) and an example for the message that asks for one.
type postcode struct {
	shape   *regexp.Regexp
	example string
}

func shape(pattern, example string) postcode {
	return postcode{regexp.MustCompile(`^(?:` + pattern + `)$`), example}
}

// postcodes are the shapes of the served countries' postal codes; a served
// country missing here (the Emirates, Hong Kong) has none, and any text goes.
var postcodes = map[string]postcode{
	"CZ": shape(`\d{3} ?\d{2}`, "110 00"), "SK": shape(`\d{3} ?\d{2}`, "811 01"),
	"AT": shape(`\d{4}`, "1010"), "BE": shape(`\d{4}`, "1050"), "BG": shape(`\d{4}`, "1000"),
	"CY": shape(`\d{4}`, "1010"), "DE": shape(`\d{5}`, "10115"), "DK": shape(`(?:DK-)?\d{4}`, "1050"),
	"EE": shape(`\d{5}`, "10111"), "ES": shape(`\d{5}`, "28001"), "FI": shape(`\d{5}`, "00100"),
	"FR": shape(`\d{5}`, "75001"), "GR": shape(`\d{3} ?\d{2}`, "105 57"), "HR": shape(`\d{5}`, "10000"),
	"HU": shape(`\d{4}`, "1051"), "IE": shape(`[A-Z]\d[\dW] ?[\dA-Z]{4}`, "D02 X285"), "IT": shape(`\d{5}`, "00118"),
	"LT": shape(`(?:LT-)?\d{5}`, "01001"), "LU": shape(`(?:L-)?\d{4}`, "1050"), "LV": shape(`(?:LV-)?\d{4}`, "LV-1050"),
	"MC": shape(`980\d{2}`, "98000"), "MT": shape(`[A-Z]{3} ?\d{4}`, "VLT 1117"), "NL": shape(`\d{4} ?[A-Z]{2}`, "1012 AB"),
	"PL": shape(`\d{2}-\d{3}`, "00-001"), "PT": shape(`\d{4}-\d{3}`, "1100-148"), "RO": shape(`\d{6}`, "010011"),
	"SE": shape(`\d{3} ?\d{2}`, "111 22"), "SI": shape(`(?:SI-)?\d{4}`, "1000"),
	"AL": shape(`\d{4}`, "1001"), "BA": shape(`\d{5}`, "71000"), "BY": shape(`\d{6}`, "220000"),
	"CH": shape(`\d{4}`, "8001"), "GB": shape(`[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}`, "SW1A 1AA"), "IS": shape(`\d{3}`, "101"),
	"LI": shape(`94[89]\d`, "9490"), "MD": shape(`(?:MD-?)?\d{4}`, "MD-2001"), "ME": shape(`\d{5}`, "81000"),
	"MK": shape(`\d{4}`, "1000"), "NO": shape(`\d{4}`, "0150"), "RS": shape(`\d{5}`, "11000"),
	"RU": shape(`\d{6}`, "236000"), "TR": shape(`\d{5}`, "34000"), "UA": shape(`\d{5}`, "01001"),
	"AU": shape(`\d{4}`, "2000"), "CA": shape(`[A-Z]\d[A-Z] ?\d[A-Z]\d`, "K1A 0B1"), "CN": shape(`\d{6}`, "100000"),
	"JP": shape(`\d{3}-?\d{4}`, "100-0001"), "US": shape(`\d{5}(?:-\d{4})?`, "10001"),
}

// Postcode says whether zip is written as a postal code of the country is
// ("ABCDE" is none of the Czech Republic's), and if not, an example of one.
// A country without postal codes, or one the shop does not serve (a problem
// of its own), takes any text.
func Postcode(country, zip string) (example string, ok bool) {
	p, known := postcodes[country]
	if !known || p.shape.MatchString(strings.ToUpper(strings.TrimSpace(zip))) {
		return "", true
	}
	return p.example, false
}
