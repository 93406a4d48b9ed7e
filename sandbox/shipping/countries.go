package shipping

import (
	"regexp"
	"strings"

	"shipdesk/sandbox/apijson"
)

// Countries the sandbox knows: senders ship from the Czech Republic or
// Slovakia; recipients may also be in the neighbours some carriers serve.
var (
	senderCountries    = []string{"CZ", "SK"}
	recipientCountries = []string{"CZ", "SK", "DE", "AT", "PL", "HU"}
)

// postalCode is the shape of a country's postal codes, with an example for
// the message.
type postalCode struct {
	pattern *regexp.Regexp
	example apijson.Phrase
}

var postalCodes = map[string]postalCode{
	"CZ": {regexp.MustCompile(`^\d{3} ?\d{2}$`), apijson.Phrase{CS: "pět číslic, např. 110 00", EN: "five digits, e.g. 110 00"}},
	"SK": {regexp.MustCompile(`^\d{3} ?\d{2}$`), apijson.Phrase{CS: "pět číslic, např. 811 01", EN: "five digits, e.g. 811 01"}},
	"DE": {regexp.MustCompile(`^\d{5}$`), apijson.Phrase{CS: "pět číslic, např. 10115", EN: "five digits, e.g. 10115"}},
	"AT": {regexp.MustCompile(`^\d{4}$`), apijson.Phrase{CS: "čtyři číslice, např. 1010", EN: "four digits, e.g. 1010"}},
	"HU": {regexp.MustCompile(`^\d{4}$`), apijson.Phrase{CS: "čtyři číslice, např. 1051", EN: "four digits, e.g. 1051"}},
	"PL": {regexp.MustCompile(`^\d{2}-\d{3}$`), apijson.Phrase{CS: "dvě číslice, spojovník a tři číslice, např. 00-950", EN: "two digits, a hyphen and three digits, e.g. 00-950"}},
}

// checkZip checks a postal code by the address's country (Czech shape when the
// country is missing or unknown, which is reported on its own).
func checkZip(p *problems, field string, a address) {
	if a.Zip == "" {
		return
	}
	pc, ok := postalCodes[a.Country]
	if !ok {
		pc = postalCodes["CZ"]
	}
	if !pc.pattern.MatchString(a.Zip) {
		p.add(field+".zip", msgZipShape, pc.example.With())
	}
}

// validZip reports whether a postal code has the shape of its country (Czech
// when the country is not given).
func validZip(country, zip string) bool {
	pc, ok := postalCodes[country]
	if !ok {
		pc = postalCodes["CZ"]
	}
	return pc.pattern.MatchString(zip)
}

// pointOf finds a carrier's point by code, without regard to case.
func (s *Service) pointOf(c *Carrier, code string) *Point {
	return s.pointByCode[c.Code+"/"+strings.ToUpper(code)]
}
