package handlers

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
)

// shipmentForm is what the new-shipment form's buttons ask of the desk.
type shipmentForm interface {
	Blank(ctx context.Context) (desk.Form, error)
	Offers(ctx context.Context, f desk.Form) ([]desk.Offer, error)
	Choose(ctx context.Context, f *desk.Form, serviceID string) ([]desk.Offer, error)
	AddPresetPackage(ctx context.Context, f *desk.Form, id string) error
	SearchPoints(ctx context.Context, carrier, country, text string, packages []desk.Package) ([]storage.ParcelPoint, error)
	LabelFree(ctx context.Context, f desk.Form, from storage.Sender) []apperr.Text
	Order(ctx context.Context, f desk.Form, by int64) (storage.Shipment, error)
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
	if id, err := strconv.ParseInt(r.URL.Query().Get("recipient"), 10, 64); err == nil {
		if rc, err := h.ShipReads.RecipientByID(ctx, id); err == nil {
			f.To = desk.AddressOf(rc.Address)
		}
	}
	h.renderNewShipment(w, r, http.StatusOK, f, nil, shipmentState{})
}

// shipmentState is what the form shows besides the fields.
type shipmentState struct {
	message  string
	offers   []desk.Offer
	compared bool
	pickup   []storage.ParcelPoint
	delivery []storage.ParcelPoint
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
		return "", err
	}}
	searchStep = formStep{run: func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (string, error) {
		var err error
		st.offers, err = h.ShipDesk.Offers(r.Context(), *f)
		st.compared = err == nil
		return "", err
	}}
	chooseStep = formStep{reoffer: true, run: func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (string, error) {
		var err error
		st.offers, err = h.ShipDesk.Choose(r.Context(), f, r.PostFormValue("choose"))
		st.compared = st.offers != nil
		return "", err
	}}
	packageStep = formStep{lenient: true, run: func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (string, error) {
		f.Packages = append(f.Packages, desk.Package{})
		return "", nil
	}}
	presetStep = formStep{lenient: true, run: func(h *Handlers, r *http.Request, f *desk.Form, st *shipmentState) (string, error) {
		return "", h.ShipDesk.AddPresetPackage(r.Context(), f, r.PostFormValue("preset"))
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
func (h *Handlers) SortOffers(w http.ResponseWriter, r *http.Request) { h.runStep(w, r, compareStep) }

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

// searchPoints fills the pickers of the chosen offer's carrier.
func (h *Handlers) searchPoints(ctx context.Context, f desk.Form, v url.Values, st *shipmentState) {
	if f.Handover == desk.HandoverPoint {
		st.pickup, _ = h.ShipDesk.SearchPoints(ctx, f.Offer.Carrier, "", cmp.Or(pointQuery(v, "pickup_q"), h.senderTown(ctx, f.SenderID)), f.Packages)
	}
	if f.Offer.DeliveryRequired {
		st.delivery, _ = h.ShipDesk.SearchPoints(ctx, f.Offer.Carrier, f.To.Country, cmp.Or(pointQuery(v, "delivery_q"), f.To.City), f.Packages)
	}
}

// pointQuery is what the clerk typed into a point picker; text that cannot
// be read is ignored (the default search runs) rather than failing the page.
func pointQuery(v url.Values, name string) string {
	q, problem := textin.Line(v.Get(name), 100)
	if textin.IsUnreadable(problem) {
		return ""
	}
	return strings.TrimSpace(q)
}

// senderTown is where the clerk most likely takes packages: the sender's town.
func (h *Handlers) senderTown(ctx context.Context, id int64) string {
	if s, err := h.ShipReads.SenderByID(ctx, id); err == nil {
		return s.City
	}
	return ""
}

// Points answers the picker as the clerk types: the points of the chosen
// offer's carrier that the packages fit.
func (h *Handlers) Points(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	f, _ := desk.ParseForm(r.PostForm)
	kind := r.URL.Query().Get("for")
	if kind != "pickup" && kind != "delivery" {
		h.NotFound(w, r)
		return
	}
	country := ""
	if kind == "delivery" {
		country = f.To.Country
	}
	points, err := h.ShipDesk.SearchPoints(r.Context(), f.Offer.Carrier, country, pointQuery(r.PostForm, kind+"_q"), f.Packages)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, views.PointList(kind, pointRows(r.Context(), points), ""))
}

func pointRows(ctx context.Context, points []storage.ParcelPoint) []views.PointRow {
	out := make([]views.PointRow, 0, len(points))
	for _, p := range points {
		out = append(out, views.PointRow{Code: p.Code, Name: p.Name, Address: fmt.Sprintf("%s, %s %s", p.Street, p.Zip, p.City),
			Locker: p.IsLocker, Limits: pointLimits(ctx, p)})
	}
	return out
}

// pointLimits describes a point's size limits when they are known; the
// service does not publish them, so usually they are not.
func pointLimits(ctx context.Context, p storage.ParcelPoint) string {
	if p.MaxLength == 0 {
		return ""
	}
	return i18n.T(ctx, "ship.point_limits", num(ctx, p.MaxLength), num(ctx, p.MaxWidth), num(ctx, p.MaxHeight), num(ctx, p.MaxWeight))
}

func offerRow(ctx context.Context, o desk.Offer) views.OfferRow {
	return views.OfferRow{ServiceID: o.ServiceID, Carrier: o.Carrier, Service: o.Service,
		Price: o.Price.Price(), PriceVAT: o.PriceVAT.Price(), Delivery: o.Delivery,
		PriceText: i18n.Money(ctx, o.Price.Value, o.Price.Currency), PriceVATText: i18n.Money(ctx, o.PriceVAT.Value, o.PriceVAT.Currency),
		LabelMode: o.LabelMode, LabelModeText: views.LabelModeText(ctx, o.LabelMode), DeliveryRequired: o.DeliveryRequired,
		Selectable: o.Selectable}
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
		DeliveryQuery: cmp.Or(strings.TrimSpace(r.PostFormValue("delivery_q")), f.To.City)}
	var from storage.Sender
	for _, s := range senders {
		v.Senders = append(v.Senders, views.Option{Value: strconv.FormatInt(s.ID, 10), Label: s.Label + " — " + s.City})
		if s.ID == f.SenderID {
			from = s
		}
	}
	v.PickupQuery = cmp.Or(strings.TrimSpace(r.PostFormValue("pickup_q")), from.City)
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
	for _, o := range st.offers {
		row := offerRow(ctx, o)
		row.Chosen = o.ServiceID == f.Offer.ServiceID
		if !row.Selectable {
			row.Reason = i18n.T(ctx, "ship.offer_not_possible")
		}
		v.Offers = append(v.Offers, row)
	}
	if f.Offer.ServiceID != 0 {
		chosen := offerRow(ctx, f.Offer)
		chosen.Price, chosen.PriceText, chosen.Delivery = "", "", ""
		v.Chosen = &chosen
		for _, o := range v.Offers {
			if o.ServiceID == f.Offer.ServiceID {
				v.Chosen.Delivery = o.Delivery
			}
		}
		for _, why := range h.ShipDesk.LabelFree(ctx, f, from) {
			v.LabelFreeWhy = append(v.LabelFreeWhy, why.In(ctx))
		}
		v.LabelFreeOK = len(v.LabelFreeWhy) == 0
		v.PickupPoints, v.DeliveryPoints = pointRows(ctx, st.pickup), pointRows(ctx, st.delivery)
	}
	v.Form.Message = strings.TrimSpace(v.Form.Message + " " + unseenProblems(ctx, problems, v))
	h.render(w, r, status, views.NewShipmentPage(h.page(w, r, i18n.T(ctx, "ship.new"), identity.Shipping), v))
}

// unseenProblems are the errors about parts not on the page yet, for the
// summary, so none is lost.
func unseenProblems(ctx context.Context, problems apperr.Problems, v views.NewShipment) string {
	var unseen []string
	for field, msg := range problems {
		shown := field == "form" || !strings.Contains("offer pickup_branch delivery_branch label_less", field)
		if !shown && field == "offer" && v.Compared || v.Chosen != nil && field != "offer" {
			shown = true
		}
		if !shown {
			unseen = append(unseen, msg.In(ctx))
		}
	}
	sort.Strings(unseen)
	return strings.Join(unseen, " ")
}
