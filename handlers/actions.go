package handlers

import (
	"context"
	"fmt"
	"net/http"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/textin"
	"shipdesk/views"
	"shipdesk/workbench"
)

// The buttons on a record's page (a shipment, a commission, a row of the
// address book) all post the same way: the record's id from the path, the
// form read, one step of the desk, the outcome as a flash, back to the page.

// recordStep is one step on a record; done is what the person reads after it.
type recordStep func(ctx context.Context, id int64) (done string, err error)

// recordAction runs a button's step and returns to the record's page.
func (h *Handlers) recordAction(w http.ResponseWriter, r *http.Request, page func(id int64) string, step recordStep) {
	id, ok := h.postedID(w, r)
	if !ok {
		return
	}
	done, err := step(r.Context(), id)
	h.finish(w, r, err, done, page(id))
}

func shipmentPath(id int64) string { return fmt.Sprintf("/shipping/shipments/%d", id) }

func addressBookPath(int64) string { return "/shipping/addresses" }

// bookRemovalPath is the removal of an address-book entry (kind: senders,
// recipients, presets): its confirm step when read, the removal when posted.
func bookRemovalPath(kind string, id int64) string {
	return fmt.Sprintf("/shipping/%s/%d/delete", kind, id)
}

// ShipmentCheck asks the service about an order whose answer was lost.
func (h *Handlers) ShipmentCheck(w http.ResponseWriter, r *http.Request) {
	h.recordAction(w, r, shipmentPath, func(ctx context.Context, id int64) (string, error) {
		_, err := h.ShipDesk.Reconcile(ctx, id)
		return i18n.T(ctx, "ship.flash.checked", id), err
	})
}

// ShipmentOrderAgain sends an order proved missing once more.
func (h *Handlers) ShipmentOrderAgain(w http.ResponseWriter, r *http.Request) {
	h.recordAction(w, r, shipmentPath, func(ctx context.Context, id int64) (string, error) {
		_, err := h.ShipDesk.OrderAgain(ctx, id)
		return i18n.T(ctx, "ship.flash.asked_again", id), err
	})
}

// CommissionMove asks for one of the moves the commission's status allows; a
// move that settles the claim carries its resolution, and a resolution that
// needs fixing shows the page again with the form as typed.
func (h *Handlers) CommissionMove(w http.ResponseWriter, r *http.Request) {
	id, ok := h.commissionPost(w, r)
	if !ok {
		return
	}
	if r.PostFormValue("to") == "cancelled" && r.PostFormValue("confirm") != "yes" {
		redirect(w, r, commissionMoveStep(id, "cancelled")) // cancelling only once confirmed
		return
	}
	ctx := r.Context()
	res := workbench.Resolution{Code: r.PostFormValue("resolution"), Reason: r.PostFormValue("reason")}
	_, err := h.Returns.Move(ctx, id, r.PostFormValue("to"), res, h.userID(r))
	if fields := apperr.FieldsOf(ctx, err); len(fields) > 0 {
		form := views.Form{Values: map[string]string{}, Errors: fields, Message: apperr.MessageOf(ctx, err, "")}
		form.Values["resolution"], _ = textin.Line(res.Code, 20)
		form.Values["reason"], _ = textin.Lines(res.Reason, workbench.MaxReason)
		h.renderCommission(w, r, statusOf(apperr.CodeOf(err)), commissionForms{Settle: form})
		return
	}
	h.finish(w, r, err, i18n.T(ctx, "ret.done.moved"), commissionPath(id))
}

// CommissionRefresh reads a commission from the service now.
func (h *Handlers) CommissionRefresh(w http.ResponseWriter, r *http.Request) {
	h.recordAction(w, r, commissionPath, func(ctx context.Context, id int64) (string, error) {
		_, err := h.Returns.Refresh(ctx, id)
		return i18n.T(ctx, "ret.done.refreshed"), err
	})
}

// CommissionCheck asks the service about a commission whose answer was lost.
func (h *Handlers) CommissionCheck(w http.ResponseWriter, r *http.Request) {
	h.recordAction(w, r, commissionPath, func(ctx context.Context, id int64) (string, error) {
		_, err := h.Returns.Reconcile(ctx, id)
		return i18n.T(ctx, "ret.done.checked"), err
	})
}

// CommissionCreateAgain sends a commission proved missing once more.
func (h *Handlers) CommissionCreateAgain(w http.ResponseWriter, r *http.Request) {
	h.recordAction(w, r, commissionPath, func(ctx context.Context, id int64) (string, error) {
		_, err := h.Returns.CreateAgain(ctx, id)
		return i18n.T(ctx, "ret.done.again"), err
	})
}

// SenderSetDefault makes a sender the form's default.
func (h *Handlers) SenderSetDefault(w http.ResponseWriter, r *http.Request) {
	h.recordAction(w, r, addressBookPath, func(ctx context.Context, id int64) (string, error) {
		return i18n.T(ctx, "ship.flash.default_sender"), h.ShipDesk.SetDefaultSender(ctx, id)
	})
}

// SenderDelete removes a sender, once confirmed.
func (h *Handlers) SenderDelete(w http.ResponseWriter, r *http.Request) {
	if id, ok := pathID(r); ok && h.unconfirmed(w, r, bookRemovalPath("senders", id)) {
		return
	}
	h.recordAction(w, r, addressBookPath, func(ctx context.Context, id int64) (string, error) {
		return i18n.T(ctx, "ship.flash.sender_removed"), h.ShipDesk.DeleteSender(ctx, id)
	})
}

// RecipientDelete removes a saved recipient, once confirmed.
func (h *Handlers) RecipientDelete(w http.ResponseWriter, r *http.Request) {
	if id, ok := pathID(r); ok && h.unconfirmed(w, r, bookRemovalPath("recipients", id)) {
		return
	}
	h.recordAction(w, r, addressBookPath, func(ctx context.Context, id int64) (string, error) {
		return i18n.T(ctx, "ship.flash.recipient_removed"), h.ShipDesk.DeleteRecipient(ctx, id)
	})
}

// PresetDelete removes a package preset, once confirmed.
func (h *Handlers) PresetDelete(w http.ResponseWriter, r *http.Request) {
	if id, ok := pathID(r); ok && h.unconfirmed(w, r, bookRemovalPath("presets", id)) {
		return
	}
	h.recordAction(w, r, addressBookPath, func(ctx context.Context, id int64) (string, error) {
		return i18n.T(ctx, "ship.flash.preset_removed"), h.ShipDesk.DeletePreset(ctx, id)
	})
}
