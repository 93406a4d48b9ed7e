package handlers

import (
	"net/http"
	"strconv"

	"shipdesk/orderfile"
)

// BatchTemplate offers our template of a day's orders for download: as CSV
// (as Czech Excel saves it) and as a workbook; its columns are explained on
// their own page (BatchColumns).
func (h *Handlers) BatchTemplate(w http.ResponseWriter, r *http.Request) {
	var (
		body  []byte
		ctype string
		err   error
	)
	switch name := r.PathValue("file"); name {
	case "orders.csv":
		body, ctype = orderfile.TemplateCSV(), "text/csv; charset=utf-8"
	case "orders.xlsx":
		body, err = orderfile.TemplateXLSX()
		ctype = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	default:
		h.NotFound(w, r)
		return
	}
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Disposition", `attachment; filename="`+r.PathValue("file")+`"`)
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	_, _ = w.Write(body)
}
