package handlers

import (
	"cmp"
	"net/http"
	"strconv"

	"shipdesk/apperr"
	"shipdesk/claims"
	"shipdesk/cod"
	"shipdesk/httpx"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/upload"
	"shipdesk/views"
)

// ClaimStatus shows a claim's page to its customer.
func (h *Handlers) ClaimStatus(w http.ResponseWriter, r *http.Request) {
	h.renderClaimStatus(w, r, http.StatusOK, views.Form{Values: map[string]string{"key": requestkey.New()}})
}

func (h *Handlers) renderClaimStatus(w http.ResponseWriter, r *http.Request, status int, reply views.Form) {
	ctx := r.Context()
	token := r.PathValue("token")
	st, err := h.Claims.Status(ctx, token, h.address(r))
	if err != nil {
		h.claimProblem(w, r, err)
		return
	}
	private(w)
	base := "/claim/status/" + token
	v := claimStatusView(r, h.claimShell(r, "claim.status.title"), st, claimLinks{files: base + "/files/",
		document: func(id int64) string { return base + "/documents/" + strconv.FormatInt(id, 10) }, label: base + "/label.pdf"})
	v.Reply, v.ReplyTo, v.LiveURL = reply, base+"/reply", base
	if httpx.IsHTMX(r) && status == http.StatusOK { // the page asking for its live part again
		h.render(w, r, status, views.ClaimStatusLive(v))
		return
	}
	h.render(w, r, status, views.ClaimStatusPage(v))
}

// claimLinks are where a claim's page finds its files, confirmations and
// label: under the customer's key, or the returns desk's routes.
type claimLinks struct {
	files, label string
	document     func(id int64) string
}

// claimStatusView is a claim as its customer sees it.
func claimStatusView(r *http.Request, shell views.ClaimShell, st claims.Status, links claimLinks) views.ClaimStatusView {
	ctx := r.Context()
	c := st.Claim
	v := views.ClaimStatusView{Shell: shell, Number: st.Number, Reference: st.Reference,
		Kind: i18n.T(ctx, "claim.kind."+c.Kind), StateKey: st.State, State: i18n.T(ctx, claimStateKey(st)), Live: st.Live,
		Filed: i18n.DateTime(ctx, c.CreatedAt), Resolution: resolutionWords(r, st), Reason: st.Reason,
		Transport: i18n.T(ctx, "claim.transport."+c.Transport), PointName: c.PointName, Code: st.Code,
		HandOverBy: i18n.Date(ctx, st.HandOverBy), MaxPhotos: claims.MaxPhotos, Steps: claimSteps(r, st)}
	if st.Deadline != nil {
		v.Deadline = i18n.Date(ctx, *st.Deadline)
	}
	v.Heading = i18n.T(ctx, "claim.status.heading")
	if c.Kind == claims.KindWithdrawal {
		v.Heading, v.Shell.Title = i18n.T(ctx, "claimans.wd.heading"), i18n.T(ctx, "claimans.wd.title")
	}
	if st.Purchased != "" {
		v.Purchased = i18n.Day(ctx, st.Purchased)
	}
	if rf := st.Refund; rf != nil {
		money := i18n.Money(ctx, rf.Amount, rf.Currency)
		v.Refund = i18n.T(ctx, "claimans.wd.refund_due", money, cod.FormatAccount(rf.Account), i18n.Date(ctx, rf.Due))
		if rf.Paid != nil {
			v.Refund, v.RefundPaid = i18n.T(ctx, "claimans.wd.refund_paid", money, i18n.Date(ctx, *rf.Paid)), true
		}
	}
	if st.Label {
		v.Label = links.label
	}
	if st.Arrived != nil {
		v.Arrived = i18n.Date(ctx, *st.Arrived)
	}
	if st.HandedIn != "" { // in the words of the staff's shipment page
		v.HandedIn = views.ParcelState(ctx, st.HandedIn)
	}
	v.WriteOn = st.WriteOn
	if st.Held {
		v.Held, v.Next = true, i18n.T(ctx, "claim.status.held_next", c.Email)
		v.ShopName, v.ShopEmail, v.ShopPhone = cmp.Or(st.Contact.Name, v.Shell.Shop), st.Contact.Email, st.Contact.Phone
	}
	for _, m := range st.Messages {
		who := i18n.T(ctx, "claim.status.you")
		if m.FromShop {
			who = v.Shell.Shop
		}
		v.Messages = append(v.Messages, views.ClaimMessageView{FromShop: m.FromShop, Who: who, At: i18n.DateTime(ctx, m.At),
			Text: m.Text, Files: claimFileViews(r, links.files, m.Files)})
	}
	v.Files = claimFileViews(r, links.files, st.Files)
	for _, d := range st.Documents {
		note := i18n.T(ctx, "claim.status.document_issued", i18n.DateTime(ctx, d.CreatedAt))
		if d.Version > 1 {
			note = i18n.T(ctx, "claim.status.document_version", d.Version, i18n.DateTime(ctx, d.CreatedAt))
		}
		v.Documents = append(v.Documents, views.ClaimFileView{Name: i18n.T(ctx, "claim.status.document_"+d.Kind),
			Href: links.document(d.ID), Note: note})
	}
	return v
}

// resolutionWords is how a claim was settled, in the customer's words.
func resolutionWords(r *http.Request, st claims.Status) string {
	if st.Resolution == "" {
		return ""
	}
	return i18n.T(r.Context(), "ret.res."+st.Resolution)
}

// claimStateKey is the catalog key of a claim's state in words: a
// withdrawal's goods are not assessed, and its end is the refund.
func claimStateKey(st claims.Status) string {
	if st.Claim.Kind == claims.KindWithdrawal && (st.State == "processing" || st.State == "refunded" || st.State == "closed") {
		return "claimans.wd.state." + st.State
	}
	if st.State == "handed_in" {
		return "claimans.state.handed_in"
	}
	return "claim.state." + st.State
}

// claimSteps is a claim's way, with where it is now.
func claimSteps(r *http.Request, st claims.Status) []views.ClaimStep {
	ctx := r.Context()
	order, prefix := []string{"received", "on_the_way", "processing", "settled"}, "claim.step."
	if st.Claim.Kind == claims.KindWithdrawal {
		// No assessment: the goods come back and the money goes back.
		order, prefix = []string{"received", "on_the_way", "arrived", "refunded"}, "claimans.wd.step."
	}
	at := 0
	switch st.State {
	case "hand_over", "handed_in", "waiting_for_goods":
		at = 1
	case "processing":
		at = 2
	case "outgoing", "closed", "cancelled", "refunded":
		at = 3
	}
	if st.Arrived != nil && at < 2 {
		at = 2
	}
	if st.Refund != nil && at == 3 && st.State != "refunded" {
		at = min(withdrawalAt(st), 2) // settled or cancelled at the desk, no money sent
	}
	out := make([]views.ClaimStep, 0, len(order))
	for i, s := range order {
		out = append(out, views.ClaimStep{Label: i18n.T(ctx, prefix+s), Done: i < at || i == at && i == len(order)-1, Now: i == at})
	}
	return out
}

// withdrawalAt is how far a withdrawal is before its refund: its goods on
// the way (1) or back at the shop (2).
func withdrawalAt(st claims.Status) int {
	switch {
	case st.Arrived != nil, st.State == "closed", st.State == "outgoing":
		return 2
	case st.Code != "" || st.Label || st.HandedIn != "", st.State == "waiting_for_goods":
		return 1
	}
	return 0
}

func claimFileViews(r *http.Request, base string, files []storage.ClaimUpload) []views.ClaimFileView {
	out := make([]views.ClaimFileView, 0, len(files))
	for _, f := range files {
		note := i18n.T(r.Context(), "claim.file.photo")
		if f.Proof {
			note = i18n.T(r.Context(), "claim.file.proof")
		}
		out = append(out, views.ClaimFileView{Name: upload.SafeName(f.Filename, f.ContentType, strconv.FormatInt(f.ID, 10)), Href: base + strconv.FormatInt(f.ID, 10), Note: note})
	}
	return out
}

// ClaimReply keeps the customer's reply and photos, and shows the page again.
func (h *Handlers) ClaimReply(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	token := r.PathValue("token")
	if err := h.Claims.CheckStatus(ctx, token, h.address(r)); err != nil {
		refuseUnread(w) // its photos are not read
		h.claimProblem(w, r, err)
		return
	}
	post, ok := h.readClaimPost(w, r, allFiles)
	if !ok {
		return
	}
	defer post.close()
	err := post.err()
	if err == nil {
		err = h.Claims.Reply(ctx, token, h.address(r), r.FormValue("key"), r.FormValue("text"), post.photos)
	}
	if err == nil {
		redirect(w, r, "/claim/status/"+token)
		return
	}
	if code := apperr.CodeOf(err); code != apperr.Invalid && code != apperr.TooMany {
		h.claimProblem(w, r, err)
		return
	}
	text, _ := textin.Lines(r.FormValue("text"), claims.MaxText)
	key := r.FormValue("key")
	if !requestkey.Valid(key) {
		key = requestkey.New()
	}
	f := views.Form{Values: map[string]string{"key": key, "text": text}, Errors: apperr.FieldsOf(ctx, err), Message: apperr.MessageOf(ctx, err, "")}
	h.renderClaimStatus(w, r, answerStatus(w, err), f)
}

// ClaimFileDownload sends one of the claim's own files.
func (h *Handlers) ClaimFileDownload(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("file"), 10, 64)
	if err != nil {
		h.NotFound(w, r)
		return
	}
	up, err := h.Claims.FileOf(r.Context(), r.PathValue("token"), h.address(r), id)
	if err != nil {
		h.claimProblem(w, r, err)
		return
	}
	private(w)
	sendUpload(w, up)
}

// ClaimDocument sends one of the claim's written confirmations.
func (h *Handlers) ClaimDocument(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("doc"), 10, 64)
	if err != nil {
		h.NotFound(w, r)
		return
	}
	name, pdf, err := h.Claims.Document(r.Context(), r.PathValue("token"), h.address(r), id)
	if err != nil {
		h.claimProblem(w, r, err)
		return
	}
	private(w)
	sendPDF(w, name, pdf)
}

// ClaimLabel sends the return parcel's label, when it has one.
func (h *Handlers) ClaimLabel(w http.ResponseWriter, r *http.Request) {
	pdf, err := h.Claims.Label(r.Context(), r.PathValue("token"), h.address(r))
	if err != nil {
		h.claimProblem(w, r, err)
		return
	}
	private(w)
	sendPDF(w, "label.pdf", pdf)
}

// sendPDF answers with a PDF of ours (a confirmation, a label) shown in the
// browser under name.
func sendPDF(w http.ResponseWriter, name string, pdf []byte) {
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", disposition("inline", name))
	w.Header().Set("Content-Length", strconv.Itoa(len(pdf)))
	_, _ = w.Write(pdf)
}

// claimOrigin is the commission page's account of the claim the commission
// came from (nil for one an agent typed in).
func (h *Handlers) claimOrigin(r *http.Request, commissionID int64) (*views.CommissionClaim, error) {
	if h.Claims == nil {
		return nil, nil
	}
	ctx := r.Context()
	o, ok, err := h.Claims.OriginOf(ctx, commissionID)
	if err != nil || !ok {
		return nil, err
	}
	c := o.Claim
	v := &views.CommissionClaim{Filed: i18n.DateTime(ctx, c.CreatedAt), Kind: i18n.T(ctx, "claim.kind."+c.Kind),
		Transport: i18n.T(ctx, "claim.transport."+c.Transport), Point: c.PointName, Late: c.Late,
		Purchase: o.Purchase.Reference, Shipment: shipmentPath(o.Purchase.ID), Status: staffClaimPath(c.ID)}
	if o.Parcel != nil {
		v.Parcel, v.ParcelRef = shipmentPath(o.Parcel.ID), cmp.Or(o.Parcel.Tracking(), o.Parcel.Reference)
	}
	if st := identity.From(ctx); st == nil || !st.Role.May(identity.Shipping) {
		v.Shipment, v.Parcel = "", "" // the shipping desk's pages are not the agent's
	}
	// The claim's own files are listed once; a reply's go with the reply.
	var own []storage.ClaimUpload
	byMessage := map[int64][]storage.ClaimUpload{}
	for _, f := range o.Files {
		if f.MessageID != nil {
			byMessage[*f.MessageID] = append(byMessage[*f.MessageID], f)
		} else {
			own = append(own, f)
		}
	}
	v.Files = claimFileViews(r, "/returns/files/", own)
	for _, m := range o.Replies {
		v.Replies = append(v.Replies, views.ClaimMessageView{At: i18n.DateTime(ctx, m.CreatedAt), Text: m.Body,
			Files: claimFileViews(r, "/returns/files/", byMessage[m.ID])})
	}
	return v, nil
}
