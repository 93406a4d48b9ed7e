package handlers

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"shipdesk/cod"
	"shipdesk/desk"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
)

// AddressBook shows senders, saved recipients, package presets, COD settings
// and the parcel-point cache.
func (h *Handlers) AddressBook(w http.ResponseWriter, r *http.Request) {
	h.renderAddressBook(w, r, http.StatusOK, addressBookForms{})
}

type addressBookForms struct {
	sender, contact, preset, settings views.Form
}

func (h *Handlers) renderAddressBook(w http.ResponseWriter, r *http.Request, status int, forms addressBookForms) {
	ctx := r.Context()
	db := h.Ship.DB
	senders, err := db.Senders(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	recipients, err := db.Recipients(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	presets, err := db.Presets(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	stats, err := db.PointStats(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	b := views.AddressBook{AddSender: forms.sender, AddContact: forms.contact, AddPreset: forms.preset, Settings: forms.settings, PointsCount: stats.Count, PointsAge: "never"}
	if stats.Refreshed != nil {
		b.PointsAge = views.FormatTime(*stats.Refreshed)
	}
	for _, s := range senders {
		b.Senders = append(b.Senders, views.SenderRow{ID: s.ID, Label: s.Label, Address: oneLine(s.Address), Stored: s.ContactID != nil, IsDefault: s.IsDefault})
	}
	for _, rc := range recipients {
		b.Recipients = append(b.Recipients, views.Option{Value: strconv.FormatInt(rc.ID, 10),
			Label: strings.TrimSpace(rc.Firstname+" "+rc.Surname+" "+rc.Company) + ", " + oneLine(rc.Address)})
	}
	for _, p := range presets {
		b.Presets = append(b.Presets, views.Option{Value: strconv.FormatInt(p.ID, 10),
			Label: fmt.Sprintf("%s: %g kg, %g × %g × %g cm", p.Name, p.Weight, p.Length, p.Width, p.Height)})
	}
	if b.Settings.Values == nil {
		s, err := db.Settings(ctx)
		if err != nil {
			h.Fail(w, r, err)
			return
		}
		b.Settings.Values = map[string]string{"bank_account": s.BankAccount, "bank_code": s.BankCode, "cod_currency": s.CODCurrency, "bank_currency": s.BankCurrency}
	}
	if b.AddSender.Values == nil {
		b.AddSender.Values = map[string]string{"country": "CZ"}
	}
	if b.AddContact.Values == nil {
		b.AddContact.Values = map[string]string{"contact_country": "CZ"}
	}
	h.render(w, r, status, views.AddressBookPage(h.page(w, r, "Address book and settings", identity.Shipping), b))
}

func oneLine(a storage.Address) string {
	return strings.Trim(fmt.Sprintf("%s, %s %s, %s", a.Street, a.Zip, a.City, a.Country), ", ")
}

// formText reads one-line fields (textin.Line), recording those that cannot
// be read, are over limit, or are required and empty.
func formText(r *http.Request, limit int, required []string, names ...string) (map[string]string, map[string]string) {
	vals, errs := map[string]string{}, map[string]string{}
	fields := textin.NewFields(r.PostForm, errs)
	for _, n := range names {
		vals[n] = fields.Line(n, limit)
	}
	for _, n := range required {
		if vals[n] == "" {
			errs[n] = "Required."
		}
	}
	return vals, errs
}

var phoneShape = regexp.MustCompile(`^\+?[0-9 ]{9,20}$`)

// AddSender adds one of our own sending addresses.
func (h *Handlers) AddSender(w http.ResponseWriter, r *http.Request) {
	if !parseForm(w, r) {
		h.ErrorStatus(w, r, http.StatusRequestEntityTooLarge, "The form is too large.")
		return
	}
	v, errs := formText(r, 100, []string{"label", "street", "city", "zip", "phone"}, "label", "company", "surname", "street", "city", "zip", "country", "phone", "email")
	if !slices.Contains(desk.Countries, v["country"]) {
		errs["country"] = "Choose a country from the list."
	}
	if v["phone"] != "" && !phoneShape.MatchString(v["phone"]) {
		errs["phone"] = "Type a phone number, e.g. +420 777 123 456."
	}
	if len(errs) > 0 {
		h.renderAddressBook(w, r, http.StatusUnprocessableEntity, addressBookForms{sender: views.Form{Values: v, Errors: errs, Message: "Fix the marked fields."}})
		return
	}
	_, err := h.Ship.DB.SaveSender(r.Context(), storage.Sender{Label: v["label"], Address: storage.Address{Company: v["company"], Surname: v["surname"],
		Street: v["street"], City: v["city"], Zip: v["zip"], Country: v["country"], Phone: v["phone"], Email: v["email"]}})
	h.afterBookChange(w, r, err, "Sender "+v["label"]+" added.")
}

// afterBookChange flashes the outcome and returns to the address book.
func (h *Handlers) afterBookChange(w http.ResponseWriter, r *http.Request, err error, done string) {
	h.finish(w, r, err, done, "/shipping/addresses")
}

// BookAction returns the handler of a button on a row of the address book.
func (h *Handlers) BookAction(act func(db *storage.DB, r *http.Request, id int64) error, done string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := pathID(r)
		if !ok {
			h.NotFound(w, r)
			return
		}
		h.afterBookChange(w, r, act(h.Ship.DB, r, id), done)
	}
}

// ImportSenders copies the service's stored pickup addresses.
func (h *Handlers) ImportSenders(w http.ResponseWriter, r *http.Request) {
	n, err := h.Ship.Desk.ImportContacts(r.Context())
	h.afterBookChange(w, r, err, fmt.Sprintf("%d pickup addresses imported from the service.", n))
}

// RefreshPoints reloads the parcel-point cache now.
func (h *Handlers) RefreshPoints(w http.ResponseWriter, r *http.Request) {
	n, err := h.Ship.Desk.RefreshPoints(r.Context())
	h.afterBookChange(w, r, err, fmt.Sprintf("%d parcel points loaded.", n))
}

// AddPreset adds a package preset.
func (h *Handlers) AddPreset(w http.ResponseWriter, r *http.Request) {
	if !parseForm(w, r) {
		h.ErrorStatus(w, r, http.StatusRequestEntityTooLarge, "The form is too large.")
		return
	}
	v, errs := formText(r, 60, []string{"name", "weight"}, "name", "weight", "length", "width", "height")
	units := map[string]string{"weight": "kg", "length": "cm", "width": "cm", "height": "cm"}
	num := func(name string, limit float64) float64 {
		if v[name] == "" || errs[name] != "" {
			return 0
		}
		x, problem := textin.Decimal(v[name], textin.Range{Max: limit, Unit: units[name]})
		if problem != "" {
			errs[name] = problem
		}
		return x
	}
	p := storage.Preset{Name: v["name"], Weight: num("weight", 1000), Length: num("length", 500), Width: num("width", 500), Height: num("height", 500)}
	if len(errs) > 0 {
		h.renderAddressBook(w, r, http.StatusUnprocessableEntity, addressBookForms{preset: views.Form{Values: v, Errors: errs, Message: "Fix the marked fields."}})
		return
	}
	_, err := h.Ship.DB.SavePreset(r.Context(), p)
	h.afterBookChange(w, r, err, "Preset "+p.Name+" added.")
}

// SaveSettings stores the COD bank details after the same checks the service
// makes, so a wrong account is caught here, not on the first COD shipment.
func (h *Handlers) SaveSettings(w http.ResponseWriter, r *http.Request) {
	if !parseForm(w, r) {
		h.ErrorStatus(w, r, http.StatusRequestEntityTooLarge, "The form is too large.")
		return
	}
	v, errs := formText(r, 64, nil, "bank_account", "bank_code", "cod_currency", "bank_currency")
	v["bank_currency"] = strings.ToUpper(v["bank_currency"])
	if v["cod_currency"] != "CZK" && v["cod_currency"] != "EUR" {
		errs["cod_currency"] = "CZK or EUR."
	}
	if c := v["bank_currency"]; c != "" && !textin.IsCurrency(c) && errs["bank_currency"] == "" {
		errs["bank_currency"] = "A currency code of ISO 4217, e.g. CZK or EUR."
	}
	if v["bank_account"] != "" || v["bank_code"] != "" {
		probe := cod.Input{Value: 100, Currency: "CZK", From: "CZ", To: "CZ", MaxCZK: 1e9, Packages: 1,
			BankAccount: v["bank_account"], BankCode: v["bank_code"], BankCurrency: v["bank_currency"]}
		for _, p := range cod.Check(probe) {
			errs[p.Field] = p.Message + "."
		}
	}
	if len(errs) > 0 {
		h.renderAddressBook(w, r, http.StatusUnprocessableEntity, addressBookForms{settings: views.Form{Values: v, Errors: errs, Message: "Fix the marked fields."}})
		return
	}
	err := h.Ship.DB.SaveSettings(r.Context(), storage.ShippingSettings{CODCurrency: v["cod_currency"], BankAccount: v["bank_account"],
		BankCode: v["bank_code"], BankCurrency: v["bank_currency"]})
	h.afterBookChange(w, r, err, "Settings saved.")
}
