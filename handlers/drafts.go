package handlers

import (
	"context"
	"net/http"

	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/views"
)

// drafts reads the cart drafts sent from the form.
type drafts interface {
	Draft(ctx context.Context, id int64) (desk.Draft, error)
}

// Draft shows a draft created through the cart API.
func (h *Handlers) Draft(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r)
	if !ok {
		h.NotFound(w, r)
		return
	}
	d, err := h.ShipDesk.Draft(r.Context(), id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := views.DraftView{ID: d.ID, DraftID: d.DraftID, Reference: d.Reference, Created: i18n.DateTime(r.Context(), d.Created),
		Recipient: d.Recipient, Modified: d.Modified, Defaults: d.Defaults}
	for _, w := range d.Warnings {
		v.Warnings = append(v.Warnings, views.Option{Value: w.Field, Label: w.Message})
	}
	h.render(w, r, http.StatusOK, views.DraftPage(h.page(w, r, i18n.T(r.Context(), "ship.draft"), identity.Shipping), v))
}
