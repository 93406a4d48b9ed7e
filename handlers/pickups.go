package handlers

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/views"
)

// PickupDesk orders and checks courier pickups.
type PickupDesk interface {
	PickupAddresses(ctx context.Context) ([]desk.PickupAddress, error)
	OrderPickup(ctx context.Context, f desk.PickupForm, today time.Time, by int64) (storage.Pickup, error)
	CheckPickup(ctx context.Context, id int64) (storage.Pickup, error)
	OrderPickupAgain(ctx context.Context, id int64) (storage.Pickup, error)
	PickupCarriers(ctx context.Context, address int64) ([]desk.PickupCarrier, error)
}

// pickupReads are the lists of the pickups page.
type pickupReads interface {
	PickupsFrom(ctx context.Context, day time.Time, limit int) ([]storage.Pickup, error)
	PickupsBefore(ctx context.Context, day time.Time, limit int) ([]storage.Pickup, error)
}

// pickupListLimit bounds each list of the pickups page.
const pickupListLimit = 200

// today is the service's date: the simulated one in sandbox mode, so dates the
// page proposes are the ones the simulator accepts; otherwise the local date.
func (h *Handlers) today(context.Context) time.Time {
	return h.now().Local()
}

// Pickups is the courier pickups page: the order form and the list.
func (h *Handlers) Pickups(w http.ResponseWriter, r *http.Request) {
	today := h.today(r.Context())
	f := desk.BlankPickup(today)
	h.renderPickups(w, r, http.StatusOK, views.Form{Values: f.Values()}, today)
}

func (h *Handlers) renderPickups(w http.ResponseWriter, r *http.Request, status int, form views.Form, today time.Time) {
	ctx := r.Context()
	v := views.PickupsView{Form: form, ShowPast: r.URL.Query().Get("past") == "1"}
	if d, ok := v.Form.Values["date"]; ok {
		v.Form.Values["date"] = pickupDayShown(ctx, d)
	}
	day := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	coming, err := h.ShipReads.PickupsFrom(ctx, day, pickupListLimit)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	names := h.carrierNames(ctx)
	v.Coming = pickupRows(ctx, coming, today, names)
	if v.ShowPast {
		past, err := h.ShipReads.PickupsBefore(ctx, day, pickupListLimit)
		if err != nil {
			h.Fail(w, r, err)
			return
		}
		v.Past = pickupRows(ctx, past, today, names)
	}
	addresses, err := h.ShipDesk.PickupAddresses(ctx)
	if err != nil {
		// The list still helps without the service: say why the form cannot be used.
		v.NoAddress = apperr.MessageOf(ctx, err, "pick.addresses_failed")
	}
	for _, c := range addresses {
		v.Addresses = append(v.Addresses, views.Option{Value: strconv.FormatInt(c.ID, 10), Label: c.Line})
	}
	if len(addresses) == 0 && v.NoAddress == "" {
		v.NoAddress = i18n.T(ctx, "pick.no_addresses")
	}
	if len(addresses) > 0 {
		chosen, _ := strconv.ParseInt(form.Value("address"), 10, 64)
		if !slices.ContainsFunc(addresses, func(a desk.PickupAddress) bool { return a.ID == chosen }) {
			chosen = addresses[0].ID // the select shows the first address as chosen
		}
		v.Carrier = h.pickupCarrierField(ctx, form, chosen)
	}
	h.render(w, r, status, views.PickupsPage(h.page(w, r, i18n.T(ctx, "pick.title"), identity.Shipping), v))
}

// pickupDayShown is the form's day as the reader writes days: "14. 12. 2026"
// in Czech; ISO otherwise, and what is no day as it was typed.
func pickupDayShown(ctx context.Context, iso string) string {
	if _, err := time.Parse("2006-01-02", iso); err != nil || i18n.LangOf(ctx) != i18n.Czech {
		return iso
	}
	return i18n.Day(ctx, iso)
}

// pickupCarrierField is the carrier select of the pickup form for a stored
// address: "any carrier" and the carriers that collect there, by name. When
// the service cannot say which, only "any carrier" is offered, and why.
func (h *Handlers) pickupCarrierField(ctx context.Context, form views.Form, address int64) views.PickupCarrierField {
	f := views.PickupCarrierField{Form: form, Options: []views.Option{{Value: "", Label: i18n.T(ctx, "pick.carrier.any")}}}
	carriers, err := h.ShipDesk.PickupCarriers(ctx, address)
	if err != nil {
		f.Failed = apperr.MessageOf(ctx, err, "pick.carrier.failed")
		return f
	}
	for _, c := range carriers {
		f.Options = append(f.Options, views.Option{Value: c.Code, Label: c.Name})
	}
	return f
}

// PickupCarriers is the pickup form's carrier select for the address chosen
// (htmx asks for it when the address changes).
func (h *Handlers) PickupCarriers(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	address, err := strconv.ParseInt(r.URL.Query().Get("address"), 10, 64)
	if err != nil || address <= 0 {
		h.render(w, r, http.StatusUnprocessableEntity, views.PickupCarrierSelect(views.PickupCarrierField{
			Options: []views.Option{{Value: "", Label: i18n.T(ctx, "pick.carrier.any")}}, Failed: i18n.T(ctx, "pick.err.address_list")}))
		return
	}
	h.render(w, r, http.StatusOK, views.PickupCarrierSelect(h.pickupCarrierField(ctx, views.Form{}, address)))
}

func pickupRows(ctx context.Context, list []storage.Pickup, today time.Time, names carrierNames) []views.PickupRow {
	rows := make([]views.PickupRow, 0, len(list))
	for _, p := range list {
		day, when := views.PlainDayIn(ctx, p.Date, today)
		carrier := names.of(p.Carrier)
		if carrier == "" {
			carrier = i18n.T(ctx, "pick.any")
		}
		rows = append(rows, views.PickupRow{ID: p.ID, Day: day, When: when, Window: p.TimeFrom + "–" + p.TimeTo, Address: p.Address,
			Packages: p.Packages, Weight: weightText(ctx, p.Weight) + "\u00a0kg", Carrier: carrier, Note: p.Note,
			Number: p.Number, State: p.State, Error: p.Error.In(ctx)})
	}
	return rows
}

// OrderPickup orders a courier for the posted form; a repeated post of the same
// form shows the first pickup instead of ordering another.
func (h *Handlers) OrderPickup(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if !h.readForm(w, r) {
		return
	}
	today := h.today(ctx)
	f, problems := desk.ParsePickupForm(r.PostForm, today)
	if f.Key == "" {
		f.Key = requestkey.New()
	}
	if len(problems) > 0 {
		h.renderPickups(w, r, http.StatusUnprocessableEntity, views.Form{Values: f.Values(), Errors: problems.In(ctx), Message: i18n.T(ctx, "pick.fix")}, today)
		return
	}
	p, err := h.ShipDesk.OrderPickup(ctx, f, today, h.userID(r))
	if err != nil {
		if code := apperr.CodeOf(err); code != apperr.Internal {
			// Keep what the clerk typed: the service's field errors on the fields.
			h.renderPickups(w, r, statusOf(code), views.Form{Values: f.Values(), Errors: apperr.FieldsOf(ctx, err), Message: apperr.MessageOf(ctx, err, "")}, today)
			return
		}
		h.Fail(w, r, err)
		return
	}
	h.Sessions.AddFlash(w, r, pickupFlash(ctx, p))
	redirect(w, r, "/shipping/pickups")
}

func pickupFlash(ctx context.Context, p storage.Pickup) views.Flash {
	day, _ := views.PlainDayIn(ctx, p.Date, p.Date)
	switch p.State {
	case storage.PickupOrdered:
		return views.Flash{Kind: "ok", Text: i18n.T(ctx, "pick.flash.ordered", p.Number, day, p.TimeFrom, p.TimeTo)}
	case storage.PickupFailed:
		return views.Flash{Kind: "error", Text: i18n.T(ctx, "pick.flash.failed")}
	}
	return views.Flash{Kind: "info", Text: i18n.T(ctx, "pick.flash.unknown")}
}

// weightText is a weight as people write it: "12,5" in Czech, "12.5" in English.
func weightText(ctx context.Context, kg float64) string {
	s := strconv.FormatFloat(kg, 'f', -1, 64)
	if i18n.LangOf(ctx) == i18n.Czech {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// PickupAction returns the handler of a button on a pickup row.
func (h *Handlers) pickupAction(act func(d PickupDesk, ctx context.Context, id int64) (storage.Pickup, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := pathID(r)
		if !ok {
			h.NotFound(w, r)
			return
		}
		p, err := act(h.ShipDesk, r.Context(), id)
		if err != nil {
			h.finish(w, r, err, "", "/shipping/pickups")
			return
		}
		h.Sessions.AddFlash(w, r, pickupFlash(r.Context(), p))
		redirect(w, r, "/shipping/pickups")
	}
}

// AddServiceAddress stores a new pickup address at the service and refreshes
// the local copy of the service's addresses.
func (h *Handlers) AddServiceAddress(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	a, vals, problems := desk.ParseContactForm(r.PostForm)
	if len(problems) > 0 {
		h.renderAddressBook(w, r, http.StatusUnprocessableEntity, addressBookForms{contact: views.Form{Values: vals, Errors: problems.In(r.Context()), Message: i18n.T(r.Context(), "pick.fix")}})
		return
	}
	id, err := h.ShipDesk.AddPickupAddress(r.Context(), a)
	if apperr.CodeOf(err) == apperr.Invalid {
		h.renderAddressBook(w, r, http.StatusUnprocessableEntity, addressBookForms{contact: views.Form{Values: vals, Errors: apperr.FieldsOf(r.Context(), err), Message: apperr.MessageOf(r.Context(), err, "")}})
		return
	}
	h.afterBookChange(w, r, err, i18n.T(r.Context(), "pick.contact.stored", id))
}

// PickupCheck asks the service about a pickup whose answer was lost.
func (h *Handlers) PickupCheck(w http.ResponseWriter, r *http.Request) {
	h.pickupAction(PickupDesk.CheckPickup)(w, r)
}

// PickupOrderAgain orders a pickup the service proved it does not have.
func (h *Handlers) PickupOrderAgain(w http.ResponseWriter, r *http.Request) {
	h.pickupAction(PickupDesk.OrderPickupAgain)(w, r)
}
