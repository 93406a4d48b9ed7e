package shipping

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"shipdesk/sandbox/apijson"
)

// Countries the sandbox knows: senders ship from the Czech Republic or
// Slovakia; recipients live across Europe and in a handful of countries
// beyond it, as the real service ships there (a checkout plugin's tests
// written against it ask offers to France, Switzerland, Belarus, Romania…).
var senderCountries = []string{"CZ", "SK"}

// reach is how far a destination is, which decides the carriers that go
// there: post and point networks only at home and next door, road carriers
// across Europe, express carriers everywhere.
type reach int

const (
	home      reach = iota // the Czech Republic
	neighbour              // Slovakia and the countries around
	europeEU               // the rest of the EU customs territory
	europeOut              // Europe outside it: customs data needed
	overseas               // beyond Europe: customs data needed
)

// destination is what the sandbox knows of a recipient's country.
type destination struct {
	code  string
	reach reach
	// zip is the shape of its postal codes (matched in capitals); nil: the
	// country has none and an address is served without one.
	zip     *regexp.Regexp
	example apijson.Phrase // the shape in words, for the message
	// What delivering there adds to an offer: a surcharge in CZK per
	// shipment and working days in transit, both growing with distance.
	surchargeCZK float64
	extraDays    int
}

func zip(pattern string) *regexp.Regexp { return regexp.MustCompile(`^(?:` + pattern + `)$`) }

var destinations = []destination{
	{"CZ", home, zip(`\d{3} ?\d{2}`), apijson.Phrase{CS: "pět číslic, např. 110 00", EN: "five digits, e.g. 110 00"}, 0, 0},
	{"SK", neighbour, zip(`\d{3} ?\d{2}`), apijson.Phrase{CS: "pět číslic, např. 811 01", EN: "five digits, e.g. 811 01"}, 60, 1},
	{"AT", neighbour, zip(`\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. 1010", EN: "four digits, e.g. 1010"}, 90, 2},
	{"PL", neighbour, zip(`\d{2}-\d{3}`), apijson.Phrase{CS: "dvě číslice, spojovník a tři číslice, např. 00-001", EN: "two digits, a hyphen and three digits, e.g. 00-001"}, 100, 2},
	{"DE", neighbour, zip(`\d{5}`), apijson.Phrase{CS: "pět číslic, např. 10115", EN: "five digits, e.g. 10115"}, 110, 2},
	{"HU", neighbour, zip(`\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. 1051", EN: "four digits, e.g. 1051"}, 150, 3},
	{"SI", europeEU, zip(`(?:SI-)?\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. 1000", EN: "four digits, e.g. 1000"}, 160, 3},
	{"LU", europeEU, zip(`(?:L-)?\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. 1050", EN: "four digits, e.g. 1050"}, 160, 3},
	{"NL", europeEU, zip(`\d{4} ?[A-Z]{2}`), apijson.Phrase{CS: "čtyři číslice a dvě písmena, např. 1012 AB", EN: "four digits and two letters, e.g. 1012 AB"}, 170, 3},
	{"BE", europeEU, zip(`\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. 1050", EN: "four digits, e.g. 1050"}, 170, 3},
	{"DK", europeEU, zip(`(?:DK-)?\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. 1050", EN: "four digits, e.g. 1050"}, 180, 3},
	{"HR", europeEU, zip(`\d{5}`), apijson.Phrase{CS: "pět číslic, např. 10000", EN: "five digits, e.g. 10000"}, 190, 3},
	{"FR", europeEU, zip(`\d{5}`), apijson.Phrase{CS: "pět číslic, např. 75001", EN: "five digits, e.g. 75001"}, 200, 3},
	{"LT", europeEU, zip(`(?:LT-)?\d{5}`), apijson.Phrase{CS: "pět číslic, např. 01001", EN: "five digits, e.g. 01001"}, 200, 3},
	{"IT", europeEU, zip(`\d{5}`), apijson.Phrase{CS: "pět číslic, např. 00118", EN: "five digits, e.g. 00118"}, 210, 3},
	{"MC", europeEU, zip(`980\d{2}`), apijson.Phrase{CS: "pět číslic začínajících 980, např. 98000", EN: "five digits starting 980, e.g. 98000"}, 220, 3},
	{"RO", europeEU, zip(`\d{6}`), apijson.Phrase{CS: "šest číslic, např. 010011", EN: "six digits, e.g. 010011"}, 220, 4},
	{"LV", europeEU, zip(`(?:LV-)?\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. LV-1050", EN: "four digits, e.g. LV-1050"}, 220, 4},
	{"EE", europeEU, zip(`\d{5}`), apijson.Phrase{CS: "pět číslic, např. 10111", EN: "five digits, e.g. 10111"}, 240, 4},
	{"SE", europeEU, zip(`\d{3} ?\d{2}`), apijson.Phrase{CS: "pět číslic, např. 111 22", EN: "five digits, e.g. 111 22"}, 240, 4},
	{"BG", europeEU, zip(`\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. 1000", EN: "four digits, e.g. 1000"}, 250, 4},
	{"ES", europeEU, zip(`\d{5}`), apijson.Phrase{CS: "pět číslic, např. 28001", EN: "five digits, e.g. 28001"}, 280, 4},
	{"FI", europeEU, zip(`\d{5}`), apijson.Phrase{CS: "pět číslic, např. 00100", EN: "five digits, e.g. 00100"}, 280, 4},
	{"IE", europeEU, zip(`[A-Z]\d[\dW] ?[\dA-Z]{4}`), apijson.Phrase{CS: "podobu kódu Eircode, např. D02 X285", EN: "an Eircode, e.g. D02 X285"}, 280, 4},
	{"GR", europeEU, zip(`\d{3} ?\d{2}`), apijson.Phrase{CS: "pět číslic, např. 105 57", EN: "five digits, e.g. 105 57"}, 290, 5},
	{"PT", europeEU, zip(`\d{4}-\d{3}`), apijson.Phrase{CS: "čtyři číslice, spojovník a tři číslice, např. 1100-148", EN: "four digits, a hyphen and three digits, e.g. 1100-148"}, 300, 5},
	{"MT", europeEU, zip(`[A-Z]{3} ?\d{4}`), apijson.Phrase{CS: "tři písmena a čtyři číslice, např. VLT 1117", EN: "three letters and four digits, e.g. VLT 1117"}, 320, 5},
	{"CY", europeEU, zip(`\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. 1010", EN: "four digits, e.g. 1010"}, 340, 5},
	{"CH", europeOut, zip(`\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. 8001", EN: "four digits, e.g. 8001"}, 250, 3},
	{"LI", europeOut, zip(`94[89]\d`), apijson.Phrase{CS: "čtyři číslice začínající 948 nebo 949, např. 9490", EN: "four digits starting 948 or 949, e.g. 9490"}, 250, 3},
	{"RS", europeOut, zip(`\d{5}`), apijson.Phrase{CS: "pět číslic, např. 11000", EN: "five digits, e.g. 11000"}, 260, 4},
	{"BA", europeOut, zip(`\d{5}`), apijson.Phrase{CS: "pět číslic, např. 71000", EN: "five digits, e.g. 71000"}, 280, 4},
	{"MD", europeOut, zip(`(?:MD-?)?\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. MD-2001", EN: "four digits, e.g. MD-2001"}, 280, 5},
	{"ME", europeOut, zip(`\d{5}`), apijson.Phrase{CS: "pět číslic, např. 81000", EN: "five digits, e.g. 81000"}, 290, 5},
	{"MK", europeOut, zip(`\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. 1000", EN: "four digits, e.g. 1000"}, 290, 5},
	{"UA", europeOut, zip(`\d{5}`), apijson.Phrase{CS: "pět číslic, např. 01001", EN: "five digits, e.g. 01001"}, 300, 5},
	{"GB", europeOut, zip(`[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}`), apijson.Phrase{CS: "podobu britského PSČ, např. SW1A 1AA", EN: "the form of a UK postcode, e.g. SW1A 1AA"}, 300, 4},
	{"AL", europeOut, zip(`\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. 1001", EN: "four digits, e.g. 1001"}, 300, 5},
	{"BY", europeOut, zip(`\d{6}`), apijson.Phrase{CS: "šest číslic, např. 220000", EN: "six digits, e.g. 220000"}, 320, 5},
	{"NO", europeOut, zip(`\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. 0150", EN: "four digits, e.g. 0150"}, 320, 4},
	{"RU", europeOut, zip(`\d{6}`), apijson.Phrase{CS: "šest číslic, např. 236000", EN: "six digits, e.g. 236000"}, 380, 6},
	{"TR", europeOut, zip(`\d{5}`), apijson.Phrase{CS: "pět číslic, např. 34000", EN: "five digits, e.g. 34000"}, 400, 5},
	{"IS", europeOut, zip(`\d{3}`), apijson.Phrase{CS: "tři číslice, např. 101", EN: "three digits, e.g. 101"}, 450, 6},
	{"AE", overseas, nil, apijson.Phrase{}, 800, 5},
	{"US", overseas, zip(`\d{5}(?:-\d{4})?`), apijson.Phrase{CS: "pět číslic (nebo pět, spojovník a čtyři), např. 10001", EN: "five digits (or five, a hyphen and four), e.g. 10001"}, 900, 5},
	{"CA", overseas, zip(`[A-Z]\d[A-Z] ?\d[A-Z]\d`), apijson.Phrase{CS: "podobu kanadského PSČ, např. K1A 0B1", EN: "the form of a Canadian postal code, e.g. K1A 0B1"}, 950, 6},
	{"HK", overseas, nil, apijson.Phrase{}, 1000, 6},
	{"CN", overseas, zip(`\d{6}`), apijson.Phrase{CS: "šest číslic, např. 100000", EN: "six digits, e.g. 100000"}, 1100, 7},
	{"JP", overseas, zip(`\d{3}-?\d{4}`), apijson.Phrase{CS: "sedm číslic, např. 100-0001", EN: "seven digits, e.g. 100-0001"}, 1150, 6},
	{"AU", overseas, zip(`\d{4}`), apijson.Phrase{CS: "čtyři číslice, např. 2000", EN: "four digits, e.g. 2000"}, 1300, 8},
}

// destinationOf finds a country by its code; nil when it is not served.
var destinationOf = func() func(string) *destination {
	m := map[string]*destination{}
	for i := range destinations {
		m[destinations[i].code] = &destinations[i]
	}
	return func(code string) *destination { return m[code] }
}()

// recipientCountries are the served destinations' codes, nearest first.
var recipientCountries = countriesWithin(overseas)

// countriesWithin lists the destinations up to a reach.
func countriesWithin(r reach) []string {
	var out []string
	for _, d := range destinations {
		if d.reach <= r {
			out = append(out, d.code)
		}
	}
	return out
}

// countriesExcept lists the destinations up to a reach but some.
func countriesExcept(r reach, not ...string) []string {
	return slices.DeleteFunc(countriesWithin(r), func(c string) bool { return slices.Contains(not, c) })
}

// needsCustoms: a shipment there leaves the EU customs territory, so it
// carries customs data.
func needsCustoms(country string) bool {
	d := destinationOf(country)
	return d != nil && d.reach >= europeOut
}

// hasPostalCodes: addresses there have a postal code (true for a country the
// sandbox does not serve, which is reported on its own).
func hasPostalCodes(country string) bool {
	d := destinationOf(country)
	return d == nil || d.zip != nil
}

// zipShape is the postal-code shape of a country: Czech when the country is
// missing or not served.
func zipShape(country string) *destination {
	if d := destinationOf(country); d != nil && d.zip != nil {
		return d
	}
	return destinationOf("CZ")
}

// maxZip is the length of the longest postal code of the served countries
// with their country prefix (Ireland's, Poland's, "LV-1050").
const maxZip = 10

// partialZip is what could be a postal code or its beginning in any served
// country: letters, digits, a space or a hyphen.
var partialZip = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z -]{0,` + strconv.Itoa(maxZip-1) + `}$`)

// checkZip checks a postal code by the address's country.
func checkZip(p *problems, field string, a address) {
	if a.Zip == "" || !hasPostalCodes(a.Country) {
		return
	}
	if d := zipShape(a.Country); !d.zip.MatchString(strings.ToUpper(a.Zip)) {
		p.add(field+".zip", msgZipShape, d.example.With())
	}
}

// validZip reports whether a postal code has the shape of its country (Czech
// when the country is not given); anything goes where there are none.
func validZip(country, zip string) bool {
	return !hasPostalCodes(country) || zipShape(country).zip.MatchString(strings.ToUpper(zip))
}

// zipExample says the shape of a country's postal codes.
func zipExample(country string) apijson.Text { return zipShape(country).example.With() }

// pointOf finds a carrier's point by code, without regard to case.
func (s *Service) pointOf(c *Carrier, code string) *Point {
	return s.pointByCode[c.Code+"/"+strings.ToUpper(code)]
}
