package shipping

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"shipdesk/sandbox/apijson"
)

// The address book (contacts/list, contacts/add). Contacts are per-account state:
// kept in the snapshot, reset to each account's two defaults by Wipe, and usable
// as from.id as soon as they are added.

// firstAddedContact is the id of the first contact added through contacts/add;
// the defaults of every account lie below it.
const firstAddedContact = 1001

// contactReq is the body of contacts/add: the address fields and, optionally,
// whether the new contact becomes the account's default. It repeats the fields
// of address so a wrong type is reported as "street", not "address.street".
type contactReq struct {
	Firstname string `json:"firstname"`
	Surname   string `json:"surname"`
	Company   string `json:"company"`
	Street    string `json:"street"`
	City      string `json:"city"`
	Zip       string `json:"zip"`
	Country   string `json:"country"`
	Phone     string `json:"phone"`
	Email     string `json:"email"`
	Tin       string `json:"tin"` // the company's IČO
	Default   bool   `json:"default"`
}

// contactsAddReq is the body of contacts/add: the list form real clients send,
// {"contacts": [{…}]}, or one contact's fields at the top level.
type contactsAddReq struct {
	Contacts []contactReq // nil: the top-level form
	one      contactReq
}

// UnmarshalJSON reads either form; a wrong type is named by its own path
// ("contacts[0].street" or "street").
func (r *contactsAddReq) UnmarshalJSON(b []byte) error {
	var list struct {
		Contacts []contactReq `json:"contacts"`
	}
	if err := json.Unmarshal(b, &list); err != nil {
		return err
	}
	if list.Contacts != nil {
		r.Contacts = list.Contacts
		return nil
	}
	return json.Unmarshal(b, &r.one)
}

// requested is the contacts of the body with the path their errors go under.
func (r contactsAddReq) requested() ([]contactReq, func(i int) string) {
	if r.Contacts != nil {
		return r.Contacts, func(i int) string { return fmt.Sprintf("contacts[%d]", i) }
	}
	return []contactReq{r.one}, func(int) string { return "" }
}

func (r contactReq) address() address {
	return address{Firstname: r.Firstname, Surname: r.Surname, Company: r.Company, Street: r.Street, City: r.City,
		Zip: r.Zip, Country: r.Country, Phone: r.Phone, Email: r.Email}
}

var (
	emailShape = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
	tinShape   = regexp.MustCompile(`^\d{8}$`)
)

// contactLimits are the longest values the address book keeps, in characters.
var contactLimits = []struct {
	field string
	max   int
	value func(address) string
}{
	{"firstname", 50, func(a address) string { return a.Firstname }},
	{"surname", 50, func(a address) string { return a.Surname }},
	{"company", 100, func(a address) string { return a.Company }},
	{"street", 100, func(a address) string { return a.Street }},
	{"city", 50, func(a address) string { return a.City }},
	{"zip", 10, func(a address) string { return a.Zip }},
	{"phone", 20, func(a address) string { return a.Phone }},
	{"email", 100, func(a address) string { return a.Email }},
}

// maxContactsAdded is how many contacts one contacts/add may store.
const maxContactsAdded = 20

// checkContact collects what is wrong with a new stored address, under prefix.
func checkContact(prefix string, a address, tin string) []apijson.FieldError {
	p := &problems{prefix: prefix}
	if tin != "" && !tinShape.MatchString(tin) {
		p.add("tin", msgTinShape)
	}
	for _, l := range contactLimits {
		v := l.value(a)
		if !utf8.ValidString(v) || strings.ContainsRune(v, 0) {
			p.add(l.field, msgFieldChars, l.field)
		} else if utf8.RuneCountInString(v) > l.max {
			p.add(l.field, msgFieldLong, l.field, l.max)
		}
	}
	if strings.TrimSpace(a.Firstname+a.Surname+a.Company) == "" {
		p.add("surname", msgNameRequired)
	}
	if strings.TrimSpace(a.Street) == "" {
		p.add("street", msgStreetRequired)
	}
	if strings.TrimSpace(a.City) == "" {
		p.add("city", msgCityRequired)
	}
	switch a.Country {
	case "CZ", "SK":
		// Both countries write postal codes as five digits, "110 00".
		if strings.TrimSpace(a.Zip) == "" {
			p.add("zip", msgZipRequired)
		} else if !validZip(a.Country, a.Zip) {
			p.add("zip", msgZipFive)
		}
	case "":
		p.add("country", msgCountryRequired)
	default:
		p.add("country", msgCountryCZSK, clipText(a.Country))
	}
	if strings.TrimSpace(a.Phone+a.Email) == "" {
		p.add("phone", msgContactRequired)
	}
	if a.Email != "" && !emailShape.MatchString(a.Email) {
		p.add("email", msgEmailInvalid)
	}
	return p.list
}

// clipText shortens a value quoted back in a message.
func clipText(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:40]) + "…"
	}
	return s
}

func (s *Service) contactsList(w http.ResponseWriter, r *http.Request) {
	acct := s.accountOf(r)
	if acct == nil {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	s.mu.Lock()
	byID := make(map[string]contact, len(acct.Contacts))
	for _, c := range acct.Contacts {
		byID[strconv.FormatInt(c.ID, 10)] = c
	}
	s.mu.Unlock()
	apijson.Write(w, r, http.StatusOK, msgFoundContacts.With(len(byID)), byID)
}

func (s *Service) contactsAdd(w http.ResponseWriter, r *http.Request) {
	acct := s.accountOf(r)
	if acct == nil {
		apijson.WriteProblem(w, r, errUnauthorized)
		return
	}
	var body contactsAddReq
	if p := apijson.Decode(w, r, s.cfg.MaxBody, &body); p != nil {
		apijson.WriteProblem(w, r, p)
		return
	}
	reqs, pathOf := body.requested()
	var errs []apijson.FieldError
	switch {
	case len(reqs) == 0:
		errs = append(errs, apijson.Err("contacts", msgContactsRequired))
	case len(reqs) > maxContactsAdded:
		errs = append(errs, apijson.Err("contacts", msgContactsMax, maxContactsAdded))
	}
	for i, req := range reqs {
		errs = append(errs, checkContact(pathOf(i), req.address(), req.Tin)...)
	}
	if len(errs) > 0 {
		apijson.WriteProblem(w, r, apijson.Invalid(errs...))
		return
	}
	s.mu.Lock()
	ids := make([]int64, 0, len(reqs))
	for _, req := range reqs {
		s.book.nextContact++
		// Kept as given: clients find their contact again by street, city and zip.
		c := contact{ID: s.book.nextContact, address: req.address(), Tin: req.Tin, Default: req.Default}
		if c.Default {
			for i := range acct.Contacts {
				acct.Contacts[i].Default = false
			}
		}
		acct.Contacts = append(acct.Contacts, c)
		ids = append(ids, c.ID)
	}
	s.mu.Unlock()
	apijson.Write(w, r, http.StatusOK, msgContactAdded.With(), ids)
}
