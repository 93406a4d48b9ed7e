package handlers

import (
	"net/http"
	"strconv"

	"shipdesk/i18n"
	"shipdesk/views"
)

// The returns desk's view of a claim filed on the claim page: by the claim's
// id, behind sign-in, never by the customer's key (kept as a hash only, and
// no staff page may hold it).

// staffClaimPath is the returns desk's page of a claim.
func staffClaimPath(id int64) string { return "/returns/claims/" + strconv.FormatInt(id, 10) }

// StaffClaim shows the returns desk a claim as its customer sees it, without
// the reply form: the desk answers through the commission's messages.
func (h *Handlers) StaffClaim(w http.ResponseWriter, r *http.Request) {
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	st, err := h.Claims.StatusOfClaim(ctx, id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	base := staffClaimPath(id)
	links := claimLinks{files: base + "/files/", label: base + "/label.pdf", document: func(doc int64) string {
		return "/returns/commissions/" + strconv.FormatInt(*st.Claim.CommissionID, 10) + "/documents/" + strconv.FormatInt(doc, 10) + ".pdf"
	}}
	v := claimStatusView(r, h.claimShell(r, "claim.status.title"), st, links)
	v.AsStaff = i18n.T(ctx, "claim.staff.as_customer")
	w.Header().Set("Cache-Control", "no-store")
	h.render(w, r, http.StatusOK, views.ClaimStatusPage(v))
}

// StaffClaimFile sends one of the claim's own files to the returns desk.
func (h *Handlers) StaffClaimFile(w http.ResponseWriter, r *http.Request) {
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	file, err := strconv.ParseInt(r.PathValue("file"), 10, 64)
	if err != nil {
		h.NotFound(w, r)
		return
	}
	up, err := h.Claims.FileOfClaim(r.Context(), id, file)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "private, max-age=300")
	sendUpload(w, up)
}

// StaffClaimLabel sends the claim's return label to the returns desk.
func (h *Handlers) StaffClaimLabel(w http.ResponseWriter, r *http.Request) {
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	pdf, err := h.Claims.LabelOfClaim(r.Context(), id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "private, max-age=300")
	sendPDF(w, "label.pdf", pdf)
}
