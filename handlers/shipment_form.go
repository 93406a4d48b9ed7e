package handlers

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/views"
)

// shipmentForm is what the new-shipment form's buttons ask of the desk.
type shipmentForm interface {
	Blank(ctx context.Context) (desk.Form, error)
	Offers(ctx context.Context, f desk.Form) ([]desk.Offer, error)
	FormProblems(ctx context.Context, f desk.Form) apperr.Problems
	Choose(ctx context.Context, f *desk.Form, serviceID string) ([]desk.Offer, error)
	AddPresetPackage(ctx context.Context, f *desk.Form, id string) error
	SearchPoints(ctx context.Context, carrier, country, text string, packages []desk.Package) (storage.PointsFound, error)
	LabelFree(ctx context.Context, f desk.Form, from storage.Sender) []apperr.Text
	Order(ctx context.Context, f desk.Form, by int64) (storage.Shipment, error)
	SameAgain(ctx context.Context, id int64) (desk.Again, error)
	SendDraft(ctx context.Context, f desk.Form, by int64) (storage.Draft, error)
}

// formReads are the tables the form offers choices from.
type formReads interface {
	Senders(ctx context.Context) ([]storage.Sender, error)
	SenderByID(ctx context.Context, id int64) (storage.Sender, error)
	Recipients(ctx context.Context) ([]storage.Recipient, error)
	RecipientByID(ctx context.Context, id int64) (storage.Recipient, error)
	Presets(ctx context.Context) ([]storage.Preset, error)
}

// NewShipment shows a blank form, or one with a saved recipient filled in.
func (h *Handlers) NewShipment(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	f, err := h.ShipDesk.Blank(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	st := shipmentState{focus: "to_firstname"}
	if code := r.URL.Query().Get("order"); code != "" && h.Shop != nil {
		h.prefillFromOrder(w, r, code)
		return
	}
	if id, err := strconv.ParseInt(r.URL.Query().Get("from"), 10, 64); err == nil && id > 0 {
		h.sameAgain(w, r, id)
		return
	}
	if id, err := strconv.ParseInt(r.URL.Query().Get("recipient"), 10, 64); err == nil {
		if rc, err := h.ShipReads.RecipientByID(ctx, id); err == nil {
			f.To = desk.AddressOf(rc.Address)
			st.focus = "pkg_weight_0" // the recipient is there: the package is next
		}
	}
	h.renderNewShipment(w, r, http.StatusOK, f, nil, st)
}

// shipmentState is what the form shows besides the fields.
type shipmentState struct {
	message  string
	notice   []string // what the clerk should know of how the form was filled
	offers   []desk.Offer
	compared bool
	pickup   pointSearch
	delivery pointSearch
	// focus is the id of what comes next (see focusOf); problems win over it.
	focus string
}

// pointSearch is one picker's search: what was typed, the town searched
// while nothing is, and what was found.
type pointSearch struct {
	query, town string
	found       storage.PointsFound
}

// formStep is one button of the new-shipment form, posted to its own endpoint.
type formStep struct {
	// lenient steps run on a form with problems: they only add rows to it.
	lenient bool
	// reoffer: when the step fails, the offers are asked for again to choose from.
	reoffer bool
	// run does the step; a target means it is done and the clerk goes there.
	run func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (target string, err error)
}

var (
	compareStep = formStep{run: func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (string, error) {
		f.Offer = desk.Offer{}
		var err error
		st.offers, err = h.ShipDesk.Offers(r.Context(), *f)
		st.compared = err == nil
		st.focus = "offers"
		return "", err
	}}
	sortStep = formStep{run: func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (string, error) {
		target, err := compareStep.run(h, r, f, st)
		st.focus = "sort-" + f.Sort // the pressed button keeps the focus
		if f.Sort != "delivery" && f.Sort != "carrier" {
			st.focus = "sort-price"
		}
		return target, err
	}}
	searchStep = formStep{run: func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (string, error) {
		var err error
		st.offers, err = h.ShipDesk.Offers(r.Context(), *f)
		st.compared = err == nil
		st.focus = "delivery_q"
		if r.PostFormValue("find") == "pickup" {
			st.focus = "pickup_q"
		}
		return "", err
	}}
	chooseStep = formStep{reoffer: true, run: func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (string, error) {
		var err error
		st.offers, err = h.ShipDesk.Choose(r.Context(), f, r.PostFormValue("choose"))
		st.compared = st.offers != nil
		// Next: the delivery point when one must be chosen, else the order.
		st.focus = "order"
		if f.Offer.DeliveryRequired && f.DeliveryBranch == "" {
			st.focus = "delivery_q"
		}
		return "", err
	}}
	packageStep = formStep{lenient: true, run: func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (string, error) {
		f.Packages = append(f.Packages, desk.Package{})
		st.focus = fmt.Sprintf("pkg_weight_%d", len(f.Packages)-1)
		return "", nil
	}}
	presetStep = formStep{lenient: true, run: func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (string, error) {
		err := h.ShipDesk.AddPresetPackage(r.Context(), f, r.PostFormValue("preset"))
		st.focus = fmt.Sprintf("pkg_weight_%d", max(len(f.Packages)-1, 0))
		return "", err
	}}
	orderStep = formStep{reoffer: true, run: func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (string, error) {
		s, err := h.ShipDesk.Order(r.Context(), *f, h.userID(r))
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("/shipping/shipments/%d", s.ID), nil
	}}
	draftStep = formStep{run: func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (string, error) {
		d, err := h.ShipDesk.SendDraft(r.Context(), *f, h.userID(r))
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("/shipping/drafts/%d", d.ID), nil
	}}
)

// CompareOffers asks for the offers for the form (also Enter in any field).
func (h *Handlers) CompareOffers(w http.ResponseWriter, r *http.Request) {
	h.runStep(w, r, compareStep)
}

// SortOffers compares the offers again in the order the clerk chose.
func (h *Handlers) SortOffers(w http.ResponseWriter, r *http.Request) { h.runStep(w, r, sortStep) }

// ChooseOffer takes one of the offers for the shipment.
func (h *Handlers) ChooseOffer(w http.ResponseWriter, r *http.Request) { h.runStep(w, r, chooseStep) }

// FindPoints searches the point pickers of the chosen offer without JavaScript.
func (h *Handlers) FindPoints(w http.ResponseWriter, r *http.Request) { h.runStep(w, r, searchStep) }

// AddPackage adds an empty package row.
func (h *Handlers) AddPackage(w http.ResponseWriter, r *http.Request) { h.runStep(w, r, packageStep) }

// AddPresetPackage adds a package of a preset.
func (h *Handlers) AddPresetPackage(w http.ResponseWriter, r *http.Request) {
	h.runStep(w, r, presetStep)
}

// OrderShipment orders the shipment of the form with the chosen offer.
func (h *Handlers) OrderShipment(w http.ResponseWriter, r *http.Request) { h.runStep(w, r, orderStep) }

// SendDraft sends the form as a cart draft to review in the provider's manager.
func (h *Handlers) SendDraft(w http.ResponseWriter, r *http.Request) { h.runStep(w, r, draftStep) }

// runStep reads the form, runs one button's step and shows the form again
// with what it found, or goes where a finished step leads.
func (h *Handlers) runStep(w http.ResponseWriter, r *http.Request, step formStep) {
	ctx := r.Context()
	if !h.readForm(w, r) {
		return
	}
	f, problems := desk.ParseForm(r.PostForm)
	f.Key = cmp.Or(f.Key, requestkey.New())
	var st shipmentState
	if len(problems) > 0 && !step.lenient {
		// What could not be read, and what the form's rules say of the rest.
		for field, msg := range h.ShipDesk.FormProblems(ctx, f) {
			if _, seen := problems[field]; !seen {
				problems[field] = msg
			}
		}
		h.renderNewShipment(w, r, http.StatusUnprocessableEntity, f, problems, st)
		return
	}
	target, err := step.run(h, r, &f, &st)
	if err == nil && target != "" {
		redirect(w, r, target)
		return
	}
	status := http.StatusOK
	if err != nil {
		code := apperr.CodeOf(err)
		if code == apperr.Internal {
			h.Fail(w, r, err)
			return
		}
		status = statusOf(code)
		for k, v := range apperr.ProblemsOf(err) {
			if problems == nil {
				problems = apperr.Problems{}
			}
			problems[k] = v
		}
		st.message = apperr.MessageOf(ctx, err, "")
		if step.reoffer {
			st.offers, _ = h.ShipDesk.Offers(ctx, f)
			st.compared = len(st.offers) > 0
		}
	}
	if f.Offer.ServiceID != 0 {
		h.searchPoints(ctx, f, r.PostForm, &st)
	}
	h.renderNewShipment(w, r, status, f, problems, st)
}

func offerRow(ctx context.Context, o desk.Offer, names carrierNames) views.OfferRow {
	row := views.OfferRow{ServiceID: o.ServiceID, Carrier: o.Carrier, CarrierName: names.of(o.Carrier), Service: o.Service,
		Price: o.Price.Price(), PriceVAT: o.PriceVAT.Price(), Delivery: o.Delivery,
		PriceText: i18n.Money(ctx, o.Price.Value, o.Price.Currency), PriceVATText: i18n.Money(ctx, o.PriceVAT.Value, o.PriceVAT.Currency),
		LabelMode: o.LabelMode, LabelModeText: views.LabelModeText(ctx, o.LabelMode), DeliveryRequired: o.DeliveryRequired,
		Selectable: o.Selectable, Choice: o.Choice(), LabelFree: o.LabelFree}
	if o.LabelFree {
		row.LabelModeText = views.LabelModeText(ctx, "CODE")
	}
	return row
}

func (h *Handlers) renderNewShipment(w http.ResponseWriter, r *http.Request, status int, f desk.Form, problems apperr.Problems, st shipmentState) {
	ctx := r.Context()
	senders, err := h.ShipReads.Senders(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	recipients, err := h.ShipReads.Recipients(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	presets, err := h.ShipReads.Presets(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := views.NewShipment{Form: views.Form{Values: f.Values(), Errors: problems.In(ctx), Message: st.message}, Compared: st.compared,
		Countries: countryOptions(ctx), Customs: customsView(ctx, f), Notices: st.notice}
	var from storage.Sender
	for _, s := range senders {
		v.Senders = append(v.Senders, views.Option{Value: strconv.FormatInt(s.ID, 10), Label: s.Label + " — " + s.City})
		if s.ID == f.SenderID {
			from = s
		}
	}
	for i, rc := range recipients {
		if i == 12 {
			break
		}
		v.Recipients = append(v.Recipients, views.Option{Value: strconv.FormatInt(rc.ID, 10), Label: strings.TrimSpace(rc.Firstname + " " + rc.Surname + " " + rc.Company)})
	}
	for _, p := range presets {
		v.Presets = append(v.Presets, views.Option{Value: strconv.FormatInt(p.ID, 10), Label: i18n.T(ctx, "ship.preset_option", p.Name, num(ctx, p.Weight))})
	}
	for i, k := range f.Packages {
		v.Packages = append(v.Packages, views.PackageRow{Index: i, Weight: k.Raw[0], Length: k.Raw[1], Width: k.Raw[2], Height: k.Raw[3]})
	}
	if len(v.Packages) == 0 {
		v.Packages = []views.PackageRow{{}}
	}
	names := h.carrierNames(ctx)
	for _, o := range st.offers {
		row := offerRow(ctx, o, names)
		if !row.Selectable {
			row.Reason = i18n.T(ctx, "ship.offer_not_possible")
		}
		if o.LabelFree {
			v.LabelFreeOffer = append(v.LabelFreeOffer, row)
		} else {
			v.Offers = append(v.Offers, row)
		}
	}
	all := [][]views.OfferRow{v.Offers, v.LabelFreeOffer}
	markChosen(all, f.Offer)
	if f.Offer.ServiceID != 0 {
		chosen := offerRow(ctx, f.Offer, names)
		chosen.Price, chosen.PriceText, chosen.Delivery = "", "", ""
		v.Chosen = &chosen
		for _, rows := range all {
			for _, o := range rows {
				if o.Chosen {
					v.Chosen.Delivery = o.Delivery
				}
			}
		}
		for _, why := range h.ShipDesk.LabelFree(ctx, f, from) {
			v.LabelFreeWhy = append(v.LabelFreeWhy, why.In(ctx))
		}
		v.LabelFreeOK = len(v.LabelFreeWhy) == 0
		// The offers below are the label-free truth for this form: while they
		// offer it, the panel points to them rather than call it impossible.
		v.LabelFreeBelow = !v.LabelFreeOK && slices.ContainsFunc(v.LabelFreeOffer, func(o views.OfferRow) bool { return o.Selectable })
		v.Pickup = pointsView(ctx, "pickup", st.pickup, f.PickupBranch)
		v.Delivery = pointsView(ctx, "delivery", st.delivery, f.DeliveryBranch)
	}
	v.Form.Message = strings.TrimSpace(v.Form.Message + " " + unseenProblems(ctx, problems, v))
	v.Form.Focus = focusOf(problems, st.focus, v)
	h.render(w, r, status, views.NewShipmentPage(h.page(w, r, i18n.T(ctx, "ship.new"), identity.Shipping), v))
}

// markChosen marks the chosen offer's row: its own variant (label-free or
// not), else the first row of the same service.
func markChosen(all [][]views.OfferRow, chosen desk.Offer) {
	if chosen.ServiceID == 0 {
		return
	}
	for _, same := range []func(views.OfferRow) bool{
		func(o views.OfferRow) bool { return o.Choice == chosen.Choice() },
		func(o views.OfferRow) bool { return o.ServiceID == chosen.ServiceID },
	} {
		for _, rows := range all {
			for i := range rows {
				if same(rows[i]) {
					rows[i].Chosen = true
					return
				}
			}
		}
	}
}
