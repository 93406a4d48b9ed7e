package handlers

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/views"
)

// AddressBookDesk is what the address book changes.
type AddressBookDesk interface {
	AddSender(ctx context.Context, v url.Values) (storage.Sender, map[string]string, error)
	AddPreset(ctx context.Context, v url.Values) (storage.Preset, map[string]string, error)
	SaveSettings(ctx context.Context, v url.Values) (map[string]string, error)
	SaveReturnAddress(ctx context.Context, v url.Values) (map[string]string, error)
	SetDefaultSender(ctx context.Context, id int64) error
	DeleteSender(ctx context.Context, id int64) error
	DeleteRecipient(ctx context.Context, id int64) error
	DeletePreset(ctx context.Context, id int64) error
	ImportContacts(ctx context.Context) (int, error)
	RefreshPoints(ctx context.Context) (int, error)
	AddPickupAddress(ctx context.Context, a desk.Address) (int64, error)
}

// bookReads are the address book's lists.
type bookReads interface {
	Senders(ctx context.Context) ([]storage.Sender, error)
	Recipients(ctx context.Context) ([]storage.Recipient, error)
	Presets(ctx context.Context) ([]storage.Preset, error)
	PointStats(ctx context.Context) (storage.PointStats, error)
	Settings(ctx context.Context) (storage.ShippingSettings, error)
}

// AddressBook shows senders, saved recipients, package presets, COD settings
// and the parcel-point cache.
func (h *Handlers) AddressBook(w http.ResponseWriter, r *http.Request) {
	h.renderAddressBook(w, r, http.StatusOK, addressBookForms{})
}

type addressBookForms struct {
	sender, contact, preset, settings, returnTo views.Form
}

func (h *Handlers) renderAddressBook(w http.ResponseWriter, r *http.Request, status int, forms addressBookForms) {
	ctx := r.Context()
	db := h.ShipReads
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
	settings, err := db.Settings(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	b := views.AddressBook{AddSender: forms.sender, AddContact: forms.contact, AddPreset: forms.preset, Settings: forms.settings,
		ReturnTo: forms.returnTo, PointsCount: stats.Count, PointsAge: i18n.T(ctx, "ship.never")}
	if stats.Refreshed != nil {
		b.PointsAge = i18n.DateTime(ctx, *stats.Refreshed)
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
			Label: i18n.T(ctx, "ship.preset_line", p.Name, num(ctx, p.Weight), num(ctx, p.Length), num(ctx, p.Width), num(ctx, p.Height))})
	}
	if b.Settings.Values == nil {
		s := settings
		b.Settings.Values = map[string]string{"bank_account": s.BankAccount, "bank_code": s.BankCode, "cod_currency": s.CODCurrency, "bank_currency": s.BankCurrency}
	}
	b.ReturnSenders = returnSenderOptions(ctx, senders)
	// A refused choice that is no option (a sender removed meanwhile) shows
	// the stored one, not the first of the list, which saving would take.
	if v, ok := b.ReturnTo.Values["return_sender"]; !ok || !slices.ContainsFunc(b.ReturnSenders, func(o views.Option) bool { return o.Value == v }) {
		stored := ""
		if id := settings.ReturnSenderID; id != nil {
			stored = strconv.FormatInt(*id, 10)
		}
		b.ReturnTo.Values = map[string]string{"return_sender": stored}
	}
	if b.AddSender.Values == nil {
		b.AddSender.Values = map[string]string{"country": "CZ"}
	}
	if b.AddContact.Values == nil {
		b.AddContact.Values = map[string]string{"contact_country": "CZ"}
	}
	h.render(w, r, status, views.AddressBookPage(h.page(w, r, i18n.T(ctx, "ship.addressbook"), identity.Shipping), b))
}

// returnSenderOptions are the choices of the return address: the default
// sender (named, when there is one), then every sender.
func returnSenderOptions(ctx context.Context, senders []storage.Sender) []views.Option {
	first := i18n.T(ctx, "retparcel.default_sender_none")
	if len(senders) > 0 {
		first = i18n.T(ctx, "retparcel.default_sender", senders[0].Label)
	}
	out := []views.Option{{Value: "", Label: first}}
	for _, s := range senders {
		out = append(out, views.Option{Value: strconv.FormatInt(s.ID, 10), Label: s.Label + ", " + oneLine(s.Address)})
	}
	return out
}

func oneLine(a storage.Address) string {
	return strings.Trim(fmt.Sprintf("%s, %s %s, %s", a.Street, a.Zip, a.City, a.Country), ", ")
}

// bookFailed shows the address book again with a form's problems, or ends
// the post with its outcome.
func (h *Handlers) bookFailed(w http.ResponseWriter, r *http.Request, err error, form func(views.Form) addressBookForms, vals map[string]string) bool {
	if apperr.CodeOf(err) != apperr.Invalid {
		return false
	}
	h.renderAddressBook(w, r, http.StatusUnprocessableEntity, form(views.Form{Values: vals, Errors: apperr.FieldsOf(r.Context(), err), Message: apperr.MessageOf(r.Context(), err, "")}))
	return true
}

// AddSender adds one of our own sending addresses.
func (h *Handlers) AddSender(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	s, vals, err := h.ShipDesk.AddSender(r.Context(), r.PostForm)
	if h.bookFailed(w, r, err, func(f views.Form) addressBookForms { return addressBookForms{sender: f} }, vals) {
		return
	}
	h.afterBookChange(w, r, err, i18n.T(r.Context(), "ship.flash.sender_added", s.Label))
}

// afterBookChange flashes the outcome and returns to the address book.
func (h *Handlers) afterBookChange(w http.ResponseWriter, r *http.Request, err error, done string) {
	h.finish(w, r, err, done, "/shipping/addresses")
}

// ImportSenders copies the service's stored pickup addresses.
func (h *Handlers) ImportSenders(w http.ResponseWriter, r *http.Request) {
	n, err := h.ShipDesk.ImportContacts(r.Context())
	h.afterBookChange(w, r, err, i18n.N(r.Context(), "ship.flash.imported", n))
}

// RefreshPoints reloads the parcel-point cache now.
func (h *Handlers) RefreshPoints(w http.ResponseWriter, r *http.Request) {
	n, err := h.ShipDesk.RefreshPoints(r.Context())
	h.afterBookChange(w, r, err, i18n.N(r.Context(), "ship.flash.points_loaded", n))
}

// AddPreset adds a package preset.
func (h *Handlers) AddPreset(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	p, vals, err := h.ShipDesk.AddPreset(r.Context(), r.PostForm)
	if h.bookFailed(w, r, err, func(f views.Form) addressBookForms { return addressBookForms{preset: f} }, vals) {
		return
	}
	h.afterBookChange(w, r, err, i18n.T(r.Context(), "ship.flash.preset_added", p.Name))
}

// SaveSettings stores the COD bank details once the desk has checked them.
func (h *Handlers) SaveSettings(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	vals, err := h.ShipDesk.SaveSettings(r.Context(), r.PostForm)
	if h.bookFailed(w, r, err, func(f views.Form) addressBookForms { return addressBookForms{settings: f} }, vals) {
		return
	}
	h.afterBookChange(w, r, err, i18n.T(r.Context(), "ship.flash.settings_saved"))
}

// SaveReturnAddress stores which sender customers' return parcels go to.
func (h *Handlers) SaveReturnAddress(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	vals, err := h.ShipDesk.SaveReturnAddress(r.Context(), r.PostForm)
	if h.bookFailed(w, r, err, func(f views.Form) addressBookForms { return addressBookForms{returnTo: f} }, vals) {
		return
	}
	h.afterBookChange(w, r, err, i18n.T(r.Context(), "retparcel.flash.saved"))
}
