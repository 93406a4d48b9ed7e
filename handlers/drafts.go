package handlers

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/views"
)

// drafts reads the cart drafts sent from the form.
type drafts interface {
	Draft(ctx context.Context, id int64) (desk.Draft, error)
	Drafts(ctx context.Context, before int64, limit int) ([]desk.Draft, error)
}

// draftsPage is how many drafts the list shows at once.
const draftsPage = 50

// Draft shows a draft created through the cart API.
func (h *Handlers) Draft(w http.ResponseWriter, r *http.Request) {
	id, ok := h.idOf(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	d, err := h.ShipDesk.Draft(ctx, id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := views.DraftView{ID: d.ID, DraftID: d.DraftID, Reference: d.Reference, Created: i18n.DateTime(ctx, d.Created),
		Recipient: d.Recipient, Modified: d.Modified, Defaults: filledWords(ctx, d)}
	for _, w := range d.Warnings {
		v.Warnings = append(v.Warnings, views.Option{Value: w.Field, Label: w.Message})
	}
	h.render(w, r, http.StatusOK, views.DraftPage(h.page(w, r, i18n.T(ctx, "ship.draft"), identity.Shipping), v))
}

// filledWords says what the service filled in on a draft, one sentence per
// field, with what it put there when the draft keeps it.
func filledWords(ctx context.Context, d desk.Draft) []views.Option {
	filled := d.Filled
	if len(filled) == 0 { // a draft sent before the answers were kept: the fields only
		for _, f := range d.Defaults {
			filled = append(filled, desk.Filled{Field: f})
		}
	}
	var out []views.Option
	for _, f := range filled {
		say := func(text string) { out = append(out, views.Option{Value: f.Field, Label: text}) }
		switch f.Field {
		case desk.DraftFrom:
			if f.From != "" {
				say(i18n.T(ctx, "drafts.filled.from_value", f.From))
			} else {
				say(i18n.T(ctx, "drafts.filled.from"))
			}
		case desk.DraftPackages:
			var pkgs []string
			for _, k := range f.Packages {
				pkgs = append(pkgs, i18n.T(ctx, "drafts.filled.package", num(ctx, k.Weight), num(ctx, k.Length), num(ctx, k.Width), num(ctx, k.Height)))
			}
			if len(pkgs) > 0 {
				say(i18n.T(ctx, "drafts.filled.packages_value", strings.Join(pkgs, "; ")))
			} else {
				say(i18n.T(ctx, "drafts.filled.packages"))
			}
		case desk.DraftService:
			if f.ServiceID != 0 {
				say(i18n.T(ctx, "drafts.filled.service_value", f.ServiceID))
			} else {
				say(i18n.T(ctx, "drafts.filled.service"))
			}
		case desk.DraftPickupBranch:
			if f.Branch != "" {
				say(i18n.T(ctx, "drafts.filled.branch_value", f.Branch))
			} else {
				say(i18n.T(ctx, "drafts.filled.branch"))
			}
		default:
			say(i18n.T(ctx, "drafts.filled.other", f.Field))
		}
	}
	return out
}

// Drafts lists the drafts sent for review in the service's shipment
// manager: when, who, which reference and recipient, what is left to do.
func (h *Handlers) Drafts(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var before int64
	if s := r.URL.Query().Get("before"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(ctx, "drafts.bad_page"))
			return
		}
		before = n
	}
	list, err := h.ShipDesk.Drafts(ctx, before, draftsPage+1)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := views.DraftList{}
	if len(list) > draftsPage {
		list = list[:draftsPage]
		v.NextURL = "/shipping/drafts?before=" + strconv.FormatInt(list[len(list)-1].ID, 10)
	}
	if before != 0 {
		v.FirstURL = "/shipping/drafts"
	}
	for _, d := range list {
		v.Rows = append(v.Rows, views.DraftRow{ID: d.ID, DraftID: d.DraftID, Sent: i18n.DateTime(ctx, d.Created), SentAt: d.Created.UTC().Format("2006-01-02T15:04:05Z"),
			By: d.SentBy, Reference: d.Reference, Recipient: d.Recipient, Warnings: d.WarningCount})
	}
	h.render(w, r, http.StatusOK, views.DraftsPage(h.page(w, r, i18n.T(ctx, "drafts.title"), identity.Shipping), v))
}
