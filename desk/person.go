package desk

import (
	"regexp"
	"slices"
	"strings"

	"shipdesk/apperr"
	"shipdesk/countries"
	"shipdesk/textin"
)

// The rules of a person's address, one set for the new-shipment form's
// recipient, a return parcel's sender (the customer) and the claim page's
// customer: the claim page checks with them what its return parcel will
// need, so that it never keeps a claim whose parcel the desk then refuses.

// AddressNeed says how much of an address a check asks for.
type AddressNeed int

const (
	NeedTown      AddressNeed = iota // town and postal code: the street may turn out not to be needed
	NeedAddress                      // street, town and postal code
	NeedNoAddress                    // the parcel goes to a point, or is brought: no part of an address
)

// MaxText is the longest name, company, street, town or e-mail the desk
// takes, in characters; the postal code and the phone have their own.
const (
	MaxText  = maxText
	maxZip   = 10
	maxPhone = 30
)

var (
	phoneShape = regexp.MustCompile(`^\+?[0-9 ]{9,20}$`)
	emailShape = regexp.MustCompile(`^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$`)
)

// SplitName splits a name written on one line ("Jana Nováková") into the
// first name and the surname the desk sends: the first word is the first
// name, the rest the surname; a single word is the surname, which is what
// the desk needs of a person. Runs of spaces count as one.
func SplitName(name string) (first, surname string) {
	words := strings.Fields(name)
	switch len(words) {
	case 0:
		return "", ""
	case 1:
		return "", words[0]
	}
	return words[0], strings.Join(words[1:], " ")
}

// NormalPhone is a phone as the desk sends it: as typed when the service
// takes that shape, else written the way it does ("777-123-456" is
// "777123456"); what no reading makes a phone stays as typed, for
// CheckAddress to refuse.
func NormalPhone(s string) string {
	if s == "" || phoneShape.MatchString(s) {
		return s
	}
	if n, problem := textin.Phone(s); problem.IsZero() && phoneShape.MatchString(n) {
		return n
	}
	return s
}

// CheckAddress says what the desk refuses in a person's address, under the
// new-shipment form's field names ("to_surname", "to_zip"…): a surname or a
// company, the parts of the address need asks for, a served country and its
// shape of postal code, a phone or an e-mail in shapes the service takes,
// and every field readable and within its length.
func CheckAddress(a Address, need AddressNeed) apperr.Problems {
	p := apperr.Problems{}
	for _, f := range []struct {
		name, value string
		limit       int
	}{
		{"to_firstname", a.Firstname, maxText}, {"to_surname", a.Surname, maxText}, {"to_company", a.Company, maxText},
		{"to_street", a.Street, maxText}, {"to_city", a.City, maxText}, {"to_zip", a.Zip, maxZip},
		{"to_phone", a.Phone, maxPhone}, {"to_email", a.Email, maxText},
	} {
		if _, problem := textin.Line(f.value, f.limit); !problem.IsZero() {
			p.Put(f.name, problem)
		}
	}
	if a.Surname == "" && a.Company == "" {
		p.Add("to_surname", "ship.err.recipient_name")
	}
	switch {
	case a.Country == "":
		p.Add("to_country", "ship.err.recipient_country")
	case !slices.Contains(Countries, a.Country):
		p.Add("to_country", "ship.err.countries", a.Country)
	}
	if need != NeedNoAddress {
		for _, field := range []struct{ name, value, msg string }{
			{"to_street", a.Street, "ship.err.street_needed"},
			{"to_city", a.City, "ship.err.town_needed"},
			{"to_zip", a.Zip, "ship.err.zip_needed"},
		} {
			if field.value == "" && (field.name != "to_street" || need == NeedAddress) {
				p.Add(field.name, field.msg)
			}
		}
	}
	if a.Zip != "" {
		if example, ok := countries.Postcode(a.Country, a.Zip); !ok {
			p.Add("to_zip", "ship.err.zip_shape", apperr.Msg(countries.NameKey(a.Country)), example)
		}
	}
	switch {
	case a.Phone == "" && a.Email == "":
		p.Add("to_phone", "ship.err.phone_or_email")
	case a.Phone != "" && !phoneShape.MatchString(a.Phone):
		p.Add("to_phone", "ship.err.phone")
	}
	if a.Email != "" && !emailShape.MatchString(a.Email) {
		p.Add("to_email", "ship.err.email_like")
	}
	return p
}
