package claims

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"shipdesk/apperr"
	"shipdesk/countries"
	"shipdesk/desk"
	"shipdesk/storage"
)

// The customer's name and address are checked by the desk's own rules (the
// new-shipment form's and the return parcel's, desk.CheckAddress and
// desk.ReturnParcel.Check) before a claim is kept, so that what the claim
// sets off can be done: a name, phone or postal code the desk would refuse
// is a problem the customer fixes on the form, not a parcel that never
// comes.

// deskAddress is the customer as the desk takes a person: the name split as
// the desk splits it, the phone as the desk writes it, home when no country
// was given. The claim's check and its parcel's order both use it.
func deskAddress(cu storage.ClaimCustomer, email string) desk.Address {
	first, surname := desk.SplitName(cu.Name)
	return desk.Address{Firstname: first, Surname: surname, Street: cu.Street, City: cu.City, Zip: cu.Zip,
		Country: cmp.Or(cu.Country, countries.Home), Phone: desk.NormalPhone(cu.Phone), Email: email}
}

// addressProblems are the desk's problems with the customer's address for
// the way the goods travel, on the claim form's fields: a parcel with a code
// is a return parcel from this address; a courier comes to it; goods
// brought to the shop need only who the customer is.
func (f Form) addressProblems() apperr.Problems {
	a := deskAddress(f.Customer, f.Customer.Email)
	var found apperr.Problems
	switch f.Transport {
	case storage.TransportCode:
		found = desk.ReturnParcel{Carrier: f.PointCarrier, Point: f.PointCode, From: a, Package: returnPackage}.Check()
	case storage.TransportCourier:
		found = desk.CheckAddress(a, desk.NeedAddress)
	default:
		found = desk.CheckAddress(a, desk.NeedNoAddress)
	}
	out := apperr.Problems{}
	for _, field := range slices.Sorted(maps.Keys(found)) { // the name's first problem by field, the same each time
		msg := found[field]
		if own, ok := customerWords[msg.Key]; ok {
			msg = apperr.Msg(own)
		}
		out.Put(formField(field), msg)
	}
	return out
}

// customerWords are the claim page's words for the desk's messages written
// for a clerk about a recipient.
var customerWords = map[string]string{
	"ship.err.recipient_name": "claim.err.name",
	"ship.err.street_needed":  "claim.err.address_needed",
	"ship.err.town_needed":    "claim.err.address_needed",
	"ship.err.zip_needed":     "claim.err.address_needed",
	"retparcel.err.country":   "claim.err.code_country",
}

// formField names the claim form's field of a desk's field ("from_surname",
// "to_zip"): the name's parts are the one name field; what the customer
// does not type (the e-mail is the link's, the package ours) is the form's.
func formField(field string) string {
	name := strings.TrimPrefix(strings.TrimPrefix(field, "to_"), "from_")
	switch name {
	case "firstname", "surname", "company":
		return "name"
	case "street", "city", "zip", "country", "phone":
		return name
	case "point", "carrier":
		return "point"
	}
	return "form"
}
