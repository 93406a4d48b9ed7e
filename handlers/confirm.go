package handlers

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/views"
)

// A destructive button (remove a sender, a recipient or a preset, cancel a
// shipment or a commission) leads first to its confirm step: a GET of the
// action's own path shows what will happen, with a button that posts it
// confirmed and a way back that changes nothing. A post without the
// confirmation is sent to that step instead of being carried out.

// confirmPage renders the confirm step.
func (h *Handlers) confirmPage(w http.ResponseWriter, r *http.Request, area identity.Area, c views.Confirm) {
	h.render(w, r, http.StatusOK, views.ConfirmPage(h.page(w, r, c.Heading, area), c))
}

// unconfirmed reads a destructive post's form and, when it lacks its
// confirmation, sends the person to the confirm step (the same path, read).
func (h *Handlers) unconfirmed(w http.ResponseWriter, r *http.Request, step string) bool {
	if !h.readForm(w, r) {
		return true
	}
	if r.PostFormValue("confirm") == "yes" {
		return false
	}
	redirect(w, r, step)
	return true
}

// gone is the answer when the thing to remove is not there (any more).
func (h *Handlers) gone(w http.ResponseWriter, r *http.Request, key string, id int64) {
	h.Fail(w, r, apperr.New(apperr.NotFound, key, id))
}

// SenderDeleteConfirm asks before a sender is removed.
func (h *Handlers) SenderDeleteConfirm(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	senders, err := h.ShipReads.Senders(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	for _, s := range senders {
		if s.ID == id {
			text := []string{oneLine(s.Address), i18n.T(ctx, "conf.sender.text")}
			if s.IsDefault {
				text = append(text, i18n.T(ctx, "conf.sender.default"))
			}
			h.confirmPage(w, r, identity.Shipping, views.Confirm{Heading: i18n.T(ctx, "conf.sender.heading", s.Label), Text: text,
				Action: bookRemovalPath("senders", id), Button: i18n.T(ctx, "conf.remove"), Keep: i18n.T(ctx, "conf.sender.keep"), Back: "/shipping/addresses#senders"})
			return
		}
	}
	h.gone(w, r, "conf.sender.gone", id)
}

// RecipientDeleteConfirm asks before a saved recipient is removed.
func (h *Handlers) RecipientDeleteConfirm(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	list, err := h.ShipReads.Recipients(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	for _, rc := range list {
		if rc.ID == id {
			name := strings.TrimSpace(rc.Firstname + " " + rc.Surname + " " + rc.Company)
			h.confirmPage(w, r, identity.Shipping, views.Confirm{Heading: i18n.T(ctx, "conf.recipient.heading", name),
				Text:   []string{oneLine(rc.Address), i18n.T(ctx, "conf.recipient.text")},
				Action: bookRemovalPath("recipients", id), Button: i18n.T(ctx, "conf.remove"), Keep: i18n.T(ctx, "conf.recipient.keep"), Back: "/shipping/addresses#recipients"})
			return
		}
	}
	h.gone(w, r, "conf.recipient.gone", id)
}

// PresetDeleteConfirm asks before a package preset is removed.
func (h *Handlers) PresetDeleteConfirm(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	list, err := h.ShipReads.Presets(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	for _, p := range list {
		if p.ID == id {
			h.confirmPage(w, r, identity.Shipping, views.Confirm{Heading: i18n.T(ctx, "conf.preset.heading", p.Name),
				Text: []string{i18n.T(ctx, "ship.preset_line", p.Name, num(ctx, p.Weight), num(ctx, p.Length), num(ctx, p.Width), num(ctx, p.Height)),
					i18n.T(ctx, "conf.preset.text")},
				Action: bookRemovalPath("presets", id), Button: i18n.T(ctx, "conf.remove"), Keep: i18n.T(ctx, "conf.preset.keep"), Back: "/shipping/addresses#presets"})
			return
		}
	}
	h.gone(w, r, "conf.preset.gone", id)
}

// ShipmentStornoConfirm asks before a shipment is cancelled at the service.
func (h *Handlers) ShipmentStornoConfirm(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, ok := h.shipmentID(w, r)
	if !ok {
		return
	}
	s, err := h.ShipReads.ShipmentByID(ctx, id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	back := shipmentPath(id)
	if !desk.CanCancel(s) {
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "error", Text: i18n.T(ctx, "conf.storno.cannot", id)})
		redirect(w, r, back)
		return
	}
	h.confirmPage(w, r, identity.Shipping, views.Confirm{Heading: i18n.T(ctx, "conf.storno.heading", id, s.RecipientName),
		Text:   []string{fmt.Sprintf("%s · %s · %s", s.Tracking(), h.carrierNames(ctx).of(s.Carrier), s.RecipientCity), i18n.T(ctx, "ship.cancel_text")},
		Action: back + "/storno", Button: i18n.T(ctx, "ship.cancel"), Keep: i18n.T(ctx, "conf.storno.keep"), Back: back})
}

// CommissionMoveConfirm asks before a commission is cancelled (the one move
// that cannot be taken back); other moves need no confirmation.
func (h *Handlers) CommissionMoveConfirm(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	back := commissionPath(id)
	to := r.URL.Query().Get("to")
	if to != "cancelled" {
		redirect(w, r, back)
		return
	}
	d, err := h.Returns.Detail(ctx, id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	name := d.Number
	if name == "" {
		name = d.Reference
	}
	h.confirmPage(w, r, identity.Returns, views.Confirm{Heading: i18n.T(ctx, "conf.commission.heading", name),
		Text:   []string{fmt.Sprintf("%s · %s", d.Customer.Name, d.Product), i18n.T(ctx, "conf.commission.text")},
		Action: back + "/move", Hidden: []views.Option{{Value: "to", Label: to}},
		Button: i18n.T(ctx, "ret.move.cancelled"), Keep: i18n.T(ctx, "conf.commission.keep"), Back: back})
}

// commissionMoveStep is the confirm step of a move that needs one.
func commissionMoveStep(id int64, to string) string {
	return commissionPath(id) + "/move?" + url.Values{"to": {to}}.Encode()
}
