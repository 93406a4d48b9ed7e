package handlers

import (
	"net/http"

	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/textin"
	"shipdesk/views"
)

// scanLimit bounds the short list of a scan that matches several commissions.
const scanLimit = 20

// ScanCommission opens the commission a scanned code names: the number of an
// inbound parcel (the transport from the customer) or the commission's own
// number. Several matches are a short list; none is said, and the box waits
// for the next scan.
func (h *Handlers) ScanCommission(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	code, problem := textin.Line(r.URL.Query().Get("q"), 64)
	v := views.CommissionScan{Code: code}
	switch {
	case textin.IsUnreadable(problem):
		v.Code, v.Error = "", i18n.T(ctx, "ret.scan.unreadable")
		h.render(w, r, http.StatusBadRequest, views.CommissionScanPage(h.page(w, r, i18n.T(ctx, "ret.scan.title"), identity.Returns), v))
		return
	case !problem.IsZero():
		v.Error = i18n.T(ctx, "ret.scan.none", code)
		h.render(w, r, http.StatusOK, views.CommissionScanPage(h.page(w, r, i18n.T(ctx, "ret.scan.title"), identity.Returns), v))
		return
	case code == "":
		http.Redirect(w, r, "/returns", http.StatusSeeOther)
		return
	}
	found, err := h.ReturnsStore.ScanCommissions(ctx, code, scanLimit)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if len(found) == 1 {
		http.Redirect(w, r, commissionPath(found[0].ID), http.StatusSeeOther)
		return
	}
	if len(found) == 0 {
		v.Error = i18n.T(ctx, "ret.scan.none", code)
	}
	v.Rows = commissionRows(ctx, found, h.now())
	h.render(w, r, http.StatusOK, views.CommissionScanPage(h.page(w, r, i18n.T(ctx, "ret.scan.title"), identity.Returns), v))
}
