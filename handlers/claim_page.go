package handlers

import (
	"cmp"
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/claims"
	"shipdesk/countries"
	"shipdesk/i18n"
	"shipdesk/requestkey"
	"shipdesk/shopid"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
	"shipdesk/workbench"
)

// ClaimPage is the customers' claim page (claims.Service): public, so each
// call takes the client's address for throttling.
type ClaimPage interface {
	AskLink(ctx context.Context, in claims.LinkRequest) error
	Asked(ctx context.Context) claims.Asked
	Open(ctx context.Context, token, client string) (claims.Start, error)
	Points(ctx context.Context, token, client, carrier, text string) (storage.PointsFound, error)
	CodeCarriers(ctx context.Context) ([]storage.Carrier, error)
	CheckLink(ctx context.Context, token, client string) error
	File(ctx context.Context, token, client string, f claims.Form) (string, error)
	CheckStatus(ctx context.Context, token, client string) error
	Status(ctx context.Context, token, client string) (claims.Status, error)
	Reply(ctx context.Context, token, client, key, text string, photos []claims.File) error
	FileOf(ctx context.Context, token, client string, uploadID int64) (storage.Upload, error)
	StatusOfClaim(ctx context.Context, id int64) (claims.Status, error)
	FileOfClaim(ctx context.Context, claimID, uploadID int64) (storage.Upload, error)
	LabelOfClaim(ctx context.Context, claimID int64) ([]byte, error)
	Document(ctx context.Context, token, client string, docID int64) (string, []byte, error)
	Label(ctx context.Context, token, client string) ([]byte, error)
	OriginOf(ctx context.Context, commissionID int64) (claims.Origin, bool, error)
	Face(ctx context.Context) claims.Contact
	KnownShop() string
}

// claimShell is what every customer page shares.
func (h *Handlers) claimShell(r *http.Request, titleKey string) views.ClaimShell {
	face := h.Claims.Face(r.Context())
	s := h.claimShellOf(r, titleKey, face.Name)
	s.Logo = face.Logo
	return s
}

// claimShellOf is the shell with the shop's name as given.
func (h *Handlers) claimShellOf(r *http.Request, titleKey, shop string) views.ClaimShell {
	if shop == "" {
		shop = shopid.Name(r.Context(), storage.ShopIdentity{})
	}
	return views.ClaimShell{Title: i18n.T(r.Context(), titleKey), Shop: shop, Path: r.URL.Path, Demo: h.Link.IsSandbox()}
}

// private marks a customer's page as theirs alone: never kept by a cache,
// nor indexed (the routes send no referrer from it: web's public).
func private(w http.ResponseWriter) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Robots-Tag", "noindex")
}

// ClaimAsk shows the page that asks for the link.
func (h *Handlers) ClaimAsk(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	v := views.ClaimAsk{Shell: h.claimShell(r, "claim.ask.title"), Sent: r.URL.Query().Get("sent") == "1"}
	// The tracking page's link fills in its purchase's number.
	if ref, problem := textin.Line(r.URL.Query().Get("reference"), 64); problem.IsZero() && ref != "" && !v.Sent {
		v.Form = views.Form{Values: map[string]string{"reference": ref}}
	}
	if v.Sent { // the language switch comes back to the sentence, not to an empty form
		v.Shell.Path = "/claim?sent=1"
		// The same for every ask: whether the order exists, or has an e-mail, is not told.
		asked := h.Claims.Asked(ctx)
		v.NoEmail = i18n.T(ctx, "claim.ask.no_email_shop")
		if asked.Contact != "" {
			v.NoEmail = i18n.T(ctx, "claim.ask.no_email", asked.Contact)
		}
		if asked.PerHour > 0 {
			v.Limit = i18n.N(ctx, "claim.ask.sent_limit", asked.PerHour)
		}
	}
	h.render(w, r, http.StatusOK, views.ClaimAskPage(v))
}

// ClaimAskPost sends the link when the purchase is found, and says the same
// whether or not it is.
func (h *Handlers) ClaimAskPost(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	err := h.Claims.AskLink(r.Context(), claims.LinkRequest{Reference: r.PostFormValue("reference"),
		Contact: r.PostFormValue("contact"), Client: h.address(r)})
	if err == nil {
		redirect(w, r, "/claim?sent=1")
		return
	}
	if code := apperr.CodeOf(err); code != apperr.Invalid && code != apperr.TooMany {
		h.Fail(w, r, err)
		return
	}
	ctx := r.Context()
	vals := map[string]string{}
	for _, k := range []string{"reference", "contact"} {
		vals[k] = textin.Safe(r.PostFormValue(k), false)
	}
	f := views.Form{Values: vals, Errors: apperr.FieldsOf(ctx, err), Message: apperr.MessageOf(ctx, err, "")}
	h.render(w, r, answerStatus(w, err), views.ClaimAskPage(views.ClaimAsk{Shell: h.claimShell(r, "claim.ask.title"), Form: f}))
}

// claimProblem answers a link or page that opens nothing: unknown, used,
// expired, or a client refused for trying too many.
func (h *Handlers) claimProblem(w http.ResponseWriter, r *http.Request, err error) {
	code := apperr.CodeOf(err)
	switch code {
	case apperr.NotFound, apperr.Conflict, apperr.TooMany:
	default:
		h.Fail(w, r, err)
		return
	}
	h.claimProblemIn(w, r, err, h.claimShell(r, "claim.problem.title"))
}

// claimProblemIn draws a customer's problem in the shell given.
func (h *Handlers) claimProblemIn(w http.ResponseWriter, r *http.Request, err error, shell views.ClaimShell) {
	code := apperr.CodeOf(err)
	private(w)
	h.render(w, r, answerStatus(w, err), views.ClaimProblemPage(views.ClaimProblem{Shell: shell,
		Message: apperr.MessageOf(r.Context(), err, "claim.err.link_unknown"), AskNew: code != apperr.TooMany}))
}

// ClaimThrottled answers a client that asked the customers' pages too often
// and may come again after wait, after RefusalHold and without asking the
// database (the shop's name as the last page read it): a flood is turned
// away in memory, and slowly.
func (h *Handlers) ClaimThrottled(w http.ResponseWriter, r *http.Request, wait time.Duration) {
	hold(r.Context(), h.RefusalHold)
	h.claimProblemIn(w, r, claims.TooMany(wait), h.claimShellOf(r, "claim.problem.title", h.Claims.KnownShop()))
}

// ClaimUnknown answers a path under the claim pages that is none of them
// (a link cut short, lengthened, with a slash after it) as a link that is
// not known, counted as one: never the sign-in page, whose address would
// take the key along.
func (h *Handlers) ClaimUnknown(w http.ResponseWriter, r *http.Request) {
	var err error
	if strings.HasPrefix(r.URL.Path, "/claim/status/") {
		_, err = h.Claims.Status(r.Context(), "", h.address(r))
	} else {
		_, err = h.Claims.Open(r.Context(), "", h.address(r))
	}
	h.claimProblem(w, r, err)
}

// ClaimForm opens the claim form of a one-time link.
func (h *Handlers) ClaimForm(w http.ResponseWriter, r *http.Request) {
	token := r.PathValue("token")
	start, err := h.Claims.Open(r.Context(), token, h.address(r))
	if err != nil {
		h.claimProblem(w, r, err)
		return
	}
	a := start.Address
	f := views.Form{Values: map[string]string{"key": requestkey.New(), "name": a.Name(), "phone": a.Phone, "street": a.Street,
		"city": a.City, "zip": a.Zip, "country": cmp.Or(a.Country, countries.Home), "refund_amount": start.Refund}}
	if len(start.Items) == 1 { // a parcel of one item: that is the one claimed
		f.Values["item"] = start.Items[0].Key()
	}
	h.renderClaimForm(w, r, http.StatusOK, start, f)
}

// ClaimFile keeps the claim and goes to its status page; a problem draws the
// form again with what was typed (files must be chosen again). The link is
// asked first: a post to one that opens nothing is answered unread.
func (h *Handlers) ClaimFile(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	token := r.PathValue("token")
	files := allFiles
	if err := h.Claims.CheckLink(ctx, token, h.address(r)); err != nil {
		if !apperr.Is(err, apperr.Conflict) {
			refuseUnread(w)
			h.claimProblem(w, r, err)
			return
		}
		// A link used already: the same form posted again is led to the
		// claim it made by its key. Its fields are read, its files skipped,
		// and the browser that sent it twice gets its answer.
		files = noFiles
	}
	post, ok := h.readClaimPost(w, r, files)
	if !ok {
		return
	}
	defer post.close()
	f := claims.ParseForm(r.Form, post.proof, post.photos)
	var status string
	err := post.err()
	if err == nil {
		status, err = h.Claims.File(ctx, token, h.address(r), f)
	}
	if err == nil {
		redirect(w, r, "/claim/status/"+status)
		return
	}
	if code := apperr.CodeOf(err); code != apperr.Invalid {
		h.claimProblem(w, r, err)
		return
	}
	start, oerr := h.Claims.Open(ctx, token, h.address(r))
	if oerr != nil {
		h.claimProblem(w, r, oerr)
		return
	}
	form := views.Form{Values: typedBack(r), Errors: apperr.FieldsOf(ctx, err), Message: apperr.MessageOf(ctx, err, "")}
	if post.proof != nil || len(post.photos) > 0 {
		form.Message = strings.TrimSpace(form.Message + " " + i18n.T(ctx, "claim.form.files_again"))
	}
	h.renderClaimForm(w, r, http.StatusUnprocessableEntity, start, form)
}

// typedBack is what the customer typed, to show again with the problems:
// as far as it can be read.
func typedBack(r *http.Request) map[string]string {
	vals := map[string]string{}
	for k := range r.Form {
		vals[k], _ = textin.Lines(r.FormValue(k), claims.MaxText)
	}
	return vals
}

// renderClaimForm draws the claim form of start with f.
func (h *Handlers) renderClaimForm(w http.ResponseWriter, r *http.Request, status int, start claims.Start, f views.Form) {
	ctx := r.Context()
	private(w)
	a := start.Address
	v := views.ClaimFormView{Shell: h.claimShell(r, "claim.form.title"), Form: f, Action: "/claim/open/" + start.Token,
		Reference: start.Reference, Sent: i18n.N(ctx, "claim.form.parcels", start.Packages),
		Address: nonEmpty(a.Name(), a.Street, strings.TrimSpace(a.Zip+" "+a.City)), Expires: i18n.DateTime(ctx, start.Expires),
		Email: start.Email, Late: start.Late, MaxPhotos: claims.MaxPhotos, MaxMB: claims.MaxFileBytes >> 20,
		Products: productGroups(start.Products), Remedies: remedyOptions(ctx), Countries: countryOptions(ctx)}
	if start.Bought != nil {
		v.Items, v.Ordered = claimItems(ctx, start.Items), i18n.Date(ctx, *start.Bought)
	}
	v.WithdrawalHint = i18n.T(ctx, "claim.kind.withdrawal_hint_unknown")
	if start.Delivered != nil {
		v.Delivered = i18n.Date(ctx, *start.Delivered)
		v.WithdrawBy = i18n.Date(ctx, *start.WithdrawBy)
		v.WithdrawalHint = i18n.T(ctx, "claim.kind.withdrawal_hint", v.WithdrawBy)
	}
	carriers, err := h.Claims.CodeCarriers(ctx)
	if err != nil {
		h.Log.Warn("carriers for the claim form", "err", err)
	}
	if len(carriers) > 0 {
		v.CanCode = true
		v.Points = h.claimPoints(r, start, carriers)
	}
	h.render(w, r, status, views.ClaimFormPage(v))
}

// claimPoints is the form's point picker: the carriers that take a parcel
// with a code, and their points near what was typed or the customer's town.
func (h *Handlers) claimPoints(r *http.Request, start claims.Start, carriers []storage.Carrier) views.PointSearchView {
	ctx := r.Context()
	carrier := r.FormValue("point_carrier")
	opts := make([]views.Option, 0, len(carriers))
	known := false
	for _, c := range carriers {
		opts = append(opts, views.Option{Value: c.Code, Label: cmp.Or(c.Name, c.Code)})
		known = known || c.Code == carrier
	}
	if !known {
		carrier = carriers[0].Code
	}
	s := pointSearch{query: pointQuery(r.Form, "point_q"), town: start.Address.City}
	found, err := h.Claims.Points(ctx, start.Token, h.address(r), carrier, cmp.Or(s.query, s.town))
	if err != nil {
		h.Log.Warn("points for the claim form", "err", err)
	}
	s.found = found
	pv := pointsView(ctx, "point", s, r.FormValue("point_code"))
	pv.Field = "point_code"
	return views.PointSearchView{List: pv, Label: i18n.T(ctx, "claim.form.point"), Search: "/claim/open/" + start.Token + "/points",
		Find: "/claim/open/" + start.Token + "/points", Hint: i18n.T(ctx, "claim.form.point_hint"), Carriers: opts, Carrier: carrier,
		Error: ""}
}

// ClaimPoints answers the picker as the customer types (htmx), or draws the
// whole form with the points found (a browser without script).
func (h *Handlers) ClaimPoints(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if err := h.Claims.CheckLink(ctx, r.PathValue("token"), h.address(r)); err != nil {
		refuseUnread(w)
		h.claimProblem(w, r, err)
		return
	}
	post, ok := h.readClaimPost(w, r, noFiles)
	if !ok {
		return
	}
	defer post.close()
	start, err := h.Claims.Open(ctx, r.PathValue("token"), h.address(r))
	if err != nil {
		h.claimProblem(w, r, err)
		return
	}
	carriers, err := h.Claims.CodeCarriers(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if len(carriers) == 0 {
		h.NotFound(w, r)
		return
	}
	ps := h.claimPoints(r, start, carriers)
	if r.Header.Get("HX-Request") == "true" {
		private(w)
		h.render(w, r, http.StatusOK, views.PointList(ps.List))
		return
	}
	h.renderClaimForm(w, r, http.StatusOK, start, views.Form{Values: typedBack(r), Focus: "point_q"})
}

func productGroups(types []workbench.ProductType) []views.OptionGroup {
	out := make([]views.OptionGroup, 0, len(types))
	for _, t := range types {
		g := views.OptionGroup{Label: t.Name}
		for _, m := range t.Models {
			g.Options = append(g.Options, views.Option{Value: strconv.FormatInt(m.ID, 10), Label: m.Name})
		}
		out = append(out, g)
	}
	return out
}

// claimItems are the shop's order's products as the form offers them.
func claimItems(ctx context.Context, items []claims.Item) []views.ClaimItem {
	out := make([]views.ClaimItem, 0, len(items))
	for _, it := range items {
		line := it.PriceIn(ctx)
		if it.Code != "" {
			line = i18n.T(ctx, "claim.form.item_line", it.Code, line)
		}
		out = append(out, views.ClaimItem{Value: it.Key(), Name: it.Name, Line: line, Listed: it.Listed()})
	}
	return out
}

func remedyOptions(ctx context.Context) []views.Option {
	out := make([]views.Option, 0, len(workbench.Remedies))
	for _, r := range workbench.Remedies {
		out = append(out, views.Option{Value: r, Label: i18n.T(ctx, "conf.remedy."+r)})
	}
	return out
}

func nonEmpty(parts ...string) []string {
	out := parts[:0]
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}

// hold waits d, or until the request is gone.
func hold(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
