package handlers

import (
	"net/http"

	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/orderfile"
	"shipdesk/views"
)

// BatchColumns is the guide to our template's columns, in the reader's
// language: each column's names, what it holds, whether it is required,
// the values it accepts and an example.
func (h *Handlers) BatchColumns(w http.ResponseWriter, r *http.Request) {
	var cols []views.BatchColumn
	for _, f := range orderfile.Fields {
		cols = append(cols, views.BatchColumn{Name: string(f), Czech: orderfile.CzechNames(f)})
	}
	h.render(w, r, http.StatusOK, views.BatchColumnsPage(h.page(w, r, i18n.T(r.Context(), "batchcols.title"), identity.Shipping), cols))
}
