package handlers

import (
	"net/http"

	"shipdesk/i18n"
)

// sameAgain shows the new-shipment form filled from shipment id ("send the
// same again"). It is a read: nothing is ordered until the form is ordered
// like any other, with its own new request key.
func (h *Handlers) sameAgain(w http.ResponseWriter, r *http.Request, id int64) {
	ctx := r.Context()
	a, err := h.ShipDesk.SameAgain(ctx, id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	for i, k := range a.Form.Packages { // as the reader writes numbers: 2,5
		for j, x := range []float64{k.Weight, k.Length, k.Width, k.Height} {
			if x != 0 {
				a.Form.Packages[i].Raw[j] = num(ctx, x)
			}
		}
	}
	st := shipmentState{focus: "pkg_weight_0", notice: []string{i18n.T(ctx, "again.notice", id)}}
	if a.FormerCOD.Value > 0 {
		st.notice = append(st.notice, i18n.T(ctx, "again.cod_off", i18n.Money(ctx, a.FormerCOD.Value, a.FormerCOD.Currency)))
	}
	h.renderNewShipment(w, r, http.StatusOK, a.Form, nil, st)
}
