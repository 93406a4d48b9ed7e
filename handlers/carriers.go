package handlers

import (
	"context"
	"database/sql"
	"net/http"
	"regexp"
	"strings"

	"shipdesk/desk"
	"shipdesk/storage"
	"shipdesk/views"
)

// carrierDesk saves the managers' facts about carriers.
type carrierDesk interface {
	EditCarrier(ctx context.Context, e desk.CarrierEdit) error
}

// carrierCode is the shape of a carrier code: a short word (at most 20 characters).
var carrierCode = regexp.MustCompile(`^[A-Za-z0-9_-]{1,20}$`)

// carrierRows are the carrier table as the Connection page shows it.
func carrierRows(list []storage.Carrier) []views.CarrierRow {
	out := make([]views.CarrierRow, 0, len(list))
	for _, c := range list {
		out = append(out, views.CarrierRow{Code: c.Code, Name: c.Name, LabelFree: labelFreeValue(c.LabelFree),
			CODPackages: c.CODPackages, StuckDays: c.StuckDays, Edited: c.EditedAt != nil})
	}
	return out
}

func labelFreeValue(b sql.NullBool) string {
	switch {
	case !b.Valid:
		return ""
	case b.Bool:
		return "yes"
	}
	return "no"
}

// EditCarrier saves a manager's facts about one carrier.
func (h *Handlers) EditCarrier(w http.ResponseWriter, r *http.Request) {
	code := r.PathValue("code")
	if !carrierCode.MatchString(code) {
		h.NotFound(w, r)
		return
	}
	if !h.readForm(w, r) {
		return
	}
	err := h.ShipDesk.EditCarrier(r.Context(), desk.CarrierEdit{Code: code, Name: r.PostFormValue("name"),
		LabelFree: r.PostFormValue("label_free"), CODPackages: r.PostFormValue("cod_packages"), StuckDays: r.PostFormValue("stuck_days")})
	h.finish(w, r, err, views.T(r.Context(), "carriers.saved", strings.ToUpper(code)), "/connection#carriers")
}
