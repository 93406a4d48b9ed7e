package handlers

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"shipdesk/apperr"
	"shipdesk/desk"
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
func (h *Handlers) today(ctx context.Context) time.Time {
	if h.Link.IsSandbox() {
		cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if now, err := h.Link.SimulatedNow(cctx); err == nil {
			return now.Local()
		}
	}
	return time.Now()
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
	day := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	coming, err := h.ShipReads.PickupsFrom(ctx, day, pickupListLimit)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v.Coming = pickupRows(coming, today)
	if v.ShowPast {
		past, err := h.ShipReads.PickupsBefore(ctx, day, pickupListLimit)
		if err != nil {
			h.Fail(w, r, err)
			return
		}
		v.Past = pickupRows(past, today)
	}
	addresses, err := h.ShipDesk.PickupAddresses(ctx)
	if err != nil {
		// The list still helps without the service: say why the form cannot be used.
		v.NoAddress = apperr.MessageOf(err, "The pickup addresses could not be loaded.")
	}
	for _, c := range addresses {
		v.Addresses = append(v.Addresses, views.Option{Value: strconv.FormatInt(c.ID, 10), Label: c.Line})
	}
	if len(addresses) == 0 && v.NoAddress == "" {
		v.NoAddress = "The service has no pickup addresses yet: add one in the address book."
	}
	h.render(w, r, status, views.PickupsPage(h.page(w, r, "Courier pickups", identity.Shipping), v))
}

func pickupRows(list []storage.Pickup, today time.Time) []views.PickupRow {
	rows := make([]views.PickupRow, 0, len(list))
	for _, p := range list {
		day, when := views.PlainDay(p.Date, today)
		carrier := p.Carrier
		if carrier == "" {
			carrier = "any"
		}
		rows = append(rows, views.PickupRow{ID: p.ID, Day: day, When: when, Window: p.TimeFrom + "–" + p.TimeTo, Address: p.Address,
			Packages: p.Packages, Weight: strconv.FormatFloat(p.Weight, 'f', -1, 64) + "\u00a0kg", Carrier: carrier, Note: p.Note,
			Number: p.Number, State: p.State, Error: p.Error})
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
		h.renderPickups(w, r, http.StatusUnprocessableEntity, views.Form{Values: f.Values(), Errors: problems, Message: "Fix the marked fields."}, today)
		return
	}
	p, err := h.ShipDesk.OrderPickup(ctx, f, today, h.userID(r))
	if err != nil {
		if code := apperr.CodeOf(err); code != apperr.Internal {
			// Keep what the clerk typed: the service's field errors on the fields.
			h.renderPickups(w, r, statusOf(code), views.Form{Values: f.Values(), Errors: apperr.FieldsOf(err), Message: apperr.MessageOf(err, "")}, today)
			return
		}
		h.Fail(w, r, err)
		return
	}
	h.Sessions.AddFlash(w, r, pickupFlash(p))
	redirect(w, r, "/shipping/pickups")
}

func pickupFlash(p storage.Pickup) views.Flash {
	day, _ := views.PlainDay(p.Date, p.Date)
	switch p.State {
	case storage.PickupOrdered:
		return views.Flash{Kind: "ok", Text: fmt.Sprintf("Courier pickup %s ordered for %s, %s–%s.", p.Number, day, p.TimeFrom, p.TimeTo)}
	case storage.PickupFailed:
		return views.Flash{Kind: "error", Text: "The service did not take the pickup: it was not ordered. You may order it again."}
	}
	return views.Flash{Kind: "info", Text: "The service did not answer: the pickup may or may not be ordered. Check it with the service before ordering again."}
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
		h.Sessions.AddFlash(w, r, pickupFlash(p))
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
		h.renderAddressBook(w, r, http.StatusUnprocessableEntity, addressBookForms{contact: views.Form{Values: vals, Errors: problems, Message: "Fix the marked fields."}})
		return
	}
	id, err := h.ShipDesk.AddPickupAddress(r.Context(), a)
	if apperr.CodeOf(err) == apperr.Invalid {
		h.renderAddressBook(w, r, http.StatusUnprocessableEntity, addressBookForms{contact: views.Form{Values: vals, Errors: apperr.FieldsOf(err), Message: apperr.MessageOf(err, "")}})
		return
	}
	h.afterBookChange(w, r, err, fmt.Sprintf("Pickup address %d stored at the service.", id))
}

// PickupCheck asks the service about a pickup whose answer was lost.
func (h *Handlers) PickupCheck(w http.ResponseWriter, r *http.Request) {
	h.pickupAction(PickupDesk.CheckPickup)(w, r)
}

// PickupOrderAgain orders a pickup the service proved it does not have.
func (h *Handlers) PickupOrderAgain(w http.ResponseWriter, r *http.Request) {
	h.pickupAction(PickupDesk.OrderPickupAgain)(w, r)
}
