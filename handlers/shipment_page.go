package handlers

import (
	"context"
	"net/http"
	"time"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/storage"
	"shipdesk/views"
)

// ShipmentSteps are the buttons of the shipment page.
type ShipmentSteps interface {
	Storno(ctx context.Context, id int64) (storage.Shipment, error)
	Reconcile(ctx context.Context, id int64) (storage.Shipment, error)
	OrderAgain(ctx context.Context, id int64) (storage.Shipment, error)
	CancelDuplicate(ctx context.Context, id int64, trackingNumber string) (storage.Shipment, error)
	shipmentNotes
}

// pageReads are what the shipment page shows.
type pageReads interface {
	ShipmentByID(ctx context.Context, id int64) (storage.Shipment, error)
	ShipmentLive(ctx context.Context, id int64) (storage.Shipment, []storage.Event, error)
	TrackToken(ctx context.Context, shipmentID int64) (string, error)
	noteReads
}

// shipmentID reads the id in the path and loads the shipment, or answers 404.
func (h *Handlers) shipmentID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, ok := pathID(r)
	if !ok {
		h.NotFound(w, r)
	}
	return id, ok
}

// ShipmentPage shows a shipment and what the clerk must do now. A pending
// label last checked more than a few seconds ago is checked first, with the
// others as stale (labelChecked).
func (h *Handlers) ShipmentPage(w http.ResponseWriter, r *http.Request) {
	h.renderShipmentPage(w, r, http.StatusOK, blankNoteForm())
}

// renderShipmentPage draws the shipment's page with its notes and the note
// form as given (blank, or as typed with its problem).
func (h *Handlers) renderShipmentPage(w http.ResponseWriter, r *http.Request, status int, noteForm views.Form) {
	s, v, ok := h.liveShipment(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	notes, err := h.ShipReads.ShipmentNotes(ctx, s.ID)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v.Points = h.pointsOf(ctx, s)
	token, err := h.ShipReads.TrackToken(ctx, s.ID)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v.TrackLink = desk.TrackingLink(h.PublicURL, token)
	v.Notes, v.NoteForm, v.NoteMax = noteRows(ctx, notes), noteForm, desk.MaxNote
	h.render(w, r, status, views.ShipmentPage(h.page(w, r, i18n.T(ctx, "ship.shipment_n", s.ID), identity.Shipping), v))
}

// ShipmentStatus is the live part of the shipment page (the label box, the
// state line, the timeline), for the page's own polling.
func (h *Handlers) ShipmentStatus(w http.ResponseWriter, r *http.Request) {
	if _, v, ok := h.liveShipment(w, r); ok {
		h.render(w, r, http.StatusOK, views.ShipmentLive(v))
	}
}

// liveShipment is the shipment of the path as its page shows it now: its
// state with its age and its timeline, read in one statement (its label
// checked first when a pending one is stale).
func (h *Handlers) liveShipment(w http.ResponseWriter, r *http.Request) (storage.Shipment, views.ShipmentView, bool) {
	ctx := r.Context()
	id, ok := h.shipmentID(w, r)
	if !ok {
		return storage.Shipment{}, views.ShipmentView{}, false
	}
	s, events, err := h.ShipReads.ShipmentLive(ctx, id)
	if err == nil && h.labelChecked(ctx, s) {
		s, events, err = h.ShipReads.ShipmentLive(ctx, id)
	}
	if err != nil {
		h.Fail(w, r, err)
		return s, views.ShipmentView{}, false
	}
	v := shipmentView(ctx, s, h.carrierNames(ctx))
	aged(ctx, &v.ShipmentRow, s, h.now())
	v.Timeline = timeline(s, events)
	v.Timeline.Status = s.Status
	return s, v, true
}

func shipmentView(ctx context.Context, s storage.Shipment, names carrierNames) views.ShipmentView {
	v := views.ShipmentView{ShipmentRow: shipmentRow(ctx, s, names), City: s.RecipientCity, Error: s.Error.In(ctx),
		Cancelled: desk.Cancelled(s), LabelModeText: views.LabelModeText(ctx, s.LabelMode)}
	if m, ok := desk.COD(s); ok {
		v.COD = i18n.Money(ctx, m.Value, m.Currency)
	}
	if m, ok := desk.Insured(s); ok {
		v.Insured = i18n.Money(ctx, m.Value, m.Currency)
	}
	if s.LastCheckedAt != nil {
		v.LastChecked = i18n.DateTime(ctx, *s.LastCheckedAt)
	}
	if s.OrderNumber != nil {
		v.OrderNumber = *s.OrderNumber
	}
	for _, k := range s.Packages {
		v.Packages = append(v.Packages, views.PackageView{Number: k.Number, Status: k.Status, Password: k.Password})
	}
	v.Next = string(desk.NextStep(s))
	v.CanCancel = desk.CanCancel(s)
	// While the shipment may change the box asks again, so an order the
	// service confirms late (or the reconciler adopts), a label made and each
	// step of its way show without a click.
	v.Poll = desk.Changing(s)
	v.Duplicates = s.Duplicates
	if s.SettlesAt != nil {
		v.SettlesAt = i18n.Deadline(ctx, *s.SettlesAt)
	}
	return v
}

// ShipmentStorno cancels a shipment once the clerk confirmed it. A storno
// refused (most often: the carrier has the parcel by now) refreshes the
// shipment first, so the page it returns to says the refusal and shows the
// state that is true now, without a storno that state forbids.
func (h *Handlers) ShipmentStorno(w http.ResponseWriter, r *http.Request) {
	h.recordAction(w, r, shipmentPath, func(ctx context.Context, id int64) (string, error) {
		if r.PostFormValue("confirm") != "yes" {
			return "", apperr.New(apperr.Invalid, "ship.flash.confirm_cancel")
		}
		_, err := h.ShipDesk.Storno(ctx, id)
		h.refreshRefused(ctx, id, err)
		return i18n.T(ctx, "ship.flash.cancelled", id), err
	})
}

// refreshRefused asks the service about a shipment whose action it refused
// (the one refresh path, as "refresh now"), so what is shown next is true
// now; a failure to ask leaves the refusal to say it alone.
func (h *Handlers) refreshRefused(ctx context.Context, id int64, err error) {
	switch apperr.CodeOf(err) {
	case apperr.Invalid, apperr.Conflict, apperr.NotFound:
	default:
		return // done, or the service was not reached: nothing new to learn
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if rerr := h.Tracker.RefreshNow(ctx, id); rerr != nil {
		h.Log.Warn("refresh after a refused action", "shipment", id, "err", rerr)
	}
}

// StornoDuplicate cancels an extra order the service holds under a shipment's
// reference, once the clerk confirmed which.
func (h *Handlers) StornoDuplicate(w http.ResponseWriter, r *http.Request) {
	id, ok := h.shipmentID(w, r)
	if !ok || !h.readForm(w, r) {
		return
	}
	back := shipmentPath(id)
	tn := r.PostFormValue("tracking_number")
	if !h.confirmed(w, r, back, i18n.T(r.Context(), "ship.flash.confirm_dup")) {
		return
	}
	_, err := h.ShipDesk.CancelDuplicate(r.Context(), id, tn)
	h.finish(w, r, err, i18n.T(r.Context(), "ship.flash.dup_cancelled", tn), back)
}
