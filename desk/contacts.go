package desk

import (
	"context"
	"net/url"
	"slices"
	"strings"

	"shipdesk/apperr"
	"shipdesk/client/transport"
	"shipdesk/countries"
)

// A new pickup address stored at the service (contacts/add), then copied into
// the local senders like the import does. The form's fields are prefixed
// "contact_" so they do not clash with the "Add a sender" form on the same page.

// ContactFields are the fields of the form, without the prefix.
var ContactFields = []string{"company", "firstname", "surname", "street", "city", "zip", "country", "phone", "email"}

// ParseContactForm reads and checks the "Add a pickup address to the service"
// form; the values are keyed by the form's field names.
func ParseContactForm(v url.Values) (Address, map[string]string, apperr.Problems) {
	p := apperr.Problems{}
	vals := map[string]string{}
	for _, f := range ContactFields {
		limit := 50
		if f == "company" || f == "street" || f == "email" {
			limit = 100
		}
		vals["contact_"+f] = cleanText(v, p, "contact_"+f, limit)
	}
	a := Address{Company: vals["contact_company"], Firstname: vals["contact_firstname"], Surname: vals["contact_surname"],
		Street: vals["contact_street"], City: vals["contact_city"], Zip: vals["contact_zip"],
		Country: strings.ToUpper(vals["contact_country"]), Phone: vals["contact_phone"], Email: vals["contact_email"]}
	if strings.TrimSpace(a.Company+a.Firstname+a.Surname) == "" {
		p.Add("contact_surname", "ship.err.contact_name")
	}
	for _, f := range []string{"street", "city", "zip"} {
		if vals["contact_"+f] == "" {
			p.Add("contact_"+f, "form.required")
		}
	}
	if example, ok := countries.Postcode(a.Country, a.Zip); a.Zip != "" && !ok {
		p.Add("contact_zip", "ship.err.zip_shape", apperr.Msg(countries.NameKey(a.Country)), example)
	}
	if !slices.Contains(countries.Senders, a.Country) {
		p.Add("contact_country", "ship.err.country_list")
	}
	if a.Phone == "" && a.Email == "" {
		p.Add("contact_phone", "ship.err.contact")
	}
	if a.Phone != "" && !phoneShape.MatchString(a.Phone) {
		p.Add("contact_phone", "ship.err.phone")
	}
	if a.Email != "" && !emailShape.MatchString(a.Email) {
		p.Add("contact_email", "ship.err.contact_email")
	}
	return a, vals, p
}

// ContactField names the form field of a field path in contacts/add's answer.
func ContactField(path string) string {
	if slices.Contains(ContactFields, path) {
		return "contact_" + path
	}
	return "form"
}

// AddPickupAddress stores a new address at the service and refreshes the local
// copy of the service's addresses. It returns the new id.
func (d *Desk) AddPickupAddress(ctx context.Context, a Address) (int64, error) {
	id, err := d.ship.AddContact(ctx, a.wire())
	if err != nil {
		if !transport.IsRefused(err) {
			// The address may have been stored all the same: the import shows it.
			if _, ierr := d.ImportContacts(ctx); ierr != nil {
				d.log.Warn("import pickup addresses after a failed add", "err", ierr)
			}
		}
		return 0, upstream.WithField(ContactField).Map("pick.doing.store_address", err)
	}
	if _, err := d.ImportContacts(ctx); err != nil {
		return id, err
	}
	d.log.Info("pickup address stored", "contact", id)
	return id, nil
}
