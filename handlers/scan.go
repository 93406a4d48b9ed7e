package handlers

import (
	"fmt"
	"net/http"

	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/textin"
	"shipdesk/views"
)

// Scan opens the shipment a scanned or typed number names; several or
// near matches are listed.
func (h *Handlers) Scan(w http.ResponseWriter, r *http.Request) {
	code, problem := textin.Line(r.URL.Query().Get("q"), 64)
	if textin.IsUnreadable(problem) {
		h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(r.Context(), "trk.scan.unreadable"))
		return
	}
	if code == "" {
		redirect(w, r, "/tracking")
		return
	}
	found, exact, err := h.ShipReads.Scan(r.Context(), code, 10)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if exact && len(found) == 1 {
		http.Redirect(w, r, fmt.Sprintf("/shipping/shipments/%d", found[0].ID), http.StatusSeeOther)
		return
	}
	h.render(w, r, http.StatusOK, views.ScanResults(h.page(w, r, i18n.T(r.Context(), "trk.scan.title", code), identity.Tracking), code, shipmentRows(r.Context(), found, h.carrierNames(r.Context()))))
}
