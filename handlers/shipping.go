package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/client/shipping"
	"shipdesk/desk"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
)

// ShippingDesk is what the shipping pages need: the desk and its tables.
type ShippingDesk struct {
	Desk *desk.Desk
	DB   *storage.DB
	// RefreshAfter: a pending shipment is asked about at most this often when its
	// page polls (negative: every time, for tests).
	RefreshAfter time.Duration
	// Tracker asks the service about one shipment now (desk.Refresher).
	Tracker interface {
		RefreshNow(ctx context.Context, id int64) error
	}
}

func (h *Handlers) userID(r *http.Request) int64 {
	if s := identity.From(r.Context()); s != nil {
		return s.ID
	}
	return 0
}

// Shipping is the desk's home: actions and the latest shipments.
func (h *Handlers) Shipping(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	recent, err := h.Ship.DB.RecentShipments(ctx, 30)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	queue, err := h.Ship.DB.PrintQueue(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, views.ShippingHome(h.page(w, r, "Shipping desk", identity.Shipping), shipmentRows(recent), len(queue)))
}

func shipmentRows(list []storage.Shipment) []views.ShipmentRow {
	rows := make([]views.ShipmentRow, 0, len(list))
	for _, s := range list {
		rows = append(rows, shipmentRow(s))
	}
	return rows
}

func shipmentRow(s storage.Shipment) views.ShipmentRow {
	return views.ShipmentRow{ID: s.ID, Created: views.FormatTime(s.CreatedAt), Reference: s.Reference, Recipient: s.RecipientName,
		Carrier: s.Carrier, Service: s.ServiceName, State: s.State, Status: s.Status,
		LabelMode: s.LabelMode, LabelStatus: s.LabelStatus, TrackingNumber: s.Tracking(), Printed: s.PrintedAt != nil}
}

// NewShipment shows a blank form, or one with a saved recipient filled in.
func (h *Handlers) NewShipment(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	f, err := h.Ship.Desk.Blank(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	if id, err := strconv.ParseInt(r.URL.Query().Get("recipient"), 10, 64); err == nil {
		if rc, err := h.Ship.DB.RecipientByID(ctx, id); err == nil {
			a := rc.Address
			f.To = shipping.Address{Firstname: a.Firstname, Surname: a.Surname, Company: a.Company, Street: a.Street,
				City: a.City, Zip: a.Zip, Country: a.Country, Phone: a.Phone, Email: a.Email}
		}
	}
	h.renderNewShipment(w, r, http.StatusOK, f, nil, shipmentState{})
}

// shipmentState is what the form shows besides the fields.
type shipmentState struct {
	message  string
	offers   []shipping.Rate
	compared bool
	pickup   []storage.ParcelPoint
	delivery []storage.ParcelPoint
}

// PostShipment runs the button the clerk pressed on the form: compare offers,
// choose one, add a package, search points, order, or send as a draft.
func (h *Handlers) PostShipment(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if !parseForm(w, r) {
		h.ErrorStatus(w, r, http.StatusRequestEntityTooLarge, "The form is too large.")
		return
	}
	f, problems := desk.ParseForm(r.PostForm)
	if f.Key == "" {
		f.Key = requestkey.New()
	}
	var st shipmentState
	action := r.PostFormValue("action")
	if r.PostFormValue("choose") != "" {
		action = "choose"
	}
	if r.PostFormValue("sort") != "" && action == "" {
		action = "compare"
	}
	if len(problems) > 0 && action != "add_package" && action != "add_preset" {
		h.renderNewShipment(w, r, http.StatusUnprocessableEntity, f, problems, st)
		return
	}
	var err error
	switch action {
	case "add_package":
		f.Packages = append(f.Packages, desk.Package{})
	case "add_preset":
		err = h.addPreset(ctx, &f, r.PostFormValue("preset"))
	case "compare":
		f.Offer = desk.Offer{}
		st.offers, err = h.Ship.Desk.Offers(ctx, f)
		st.compared = err == nil
	case "choose":
		err = h.choose(ctx, &f, &st, r.PostFormValue("choose"))
	case "search_pickup", "search_delivery":
		st.offers, err = h.Ship.Desk.Offers(ctx, f)
		st.compared = err == nil
	case "create":
		var s storage.Shipment
		if s, err = h.Ship.Desk.Place(ctx, f, h.userID(r)); err == nil {
			redirect(w, r, fmt.Sprintf("/shipping/shipments/%d", s.ID))
			return
		}
	case "draft":
		var d storage.Draft
		if d, err = h.Ship.Desk.SendDraft(ctx, f, h.userID(r)); err == nil {
			redirect(w, r, fmt.Sprintf("/shipping/drafts/%d", d.ID))
			return
		}
	default:
		problems = apperr.Problems{"form": "Choose what to do: compare offers, order or send as a draft."}
	}
	status := http.StatusOK
	if err != nil {
		code := apperr.CodeOf(err)
		if code == apperr.Internal {
			h.Fail(w, r, err)
			return
		}
		status = statusOf(code)
		for k, v := range apperr.FieldsOf(err) {
			if problems == nil {
				problems = apperr.Problems{}
			}
			problems[k] = v
		}
		st.message = apperr.MessageOf(err, "")
		if action == "choose" || action == "create" {
			st.offers, _ = h.Ship.Desk.Offers(ctx, f)
			st.compared = len(st.offers) > 0
		}
	}
	if f.Offer.ServiceID != 0 {
		h.searchPoints(ctx, f, r.PostForm, &st)
	}
	h.renderNewShipment(w, r, status, f, problems, st)
}

func (h *Handlers) addPreset(ctx context.Context, f *desk.Form, id string) error {
	presets, err := h.Ship.DB.Presets(ctx)
	if err != nil {
		return err
	}
	for _, p := range presets {
		if strconv.FormatInt(p.ID, 10) == id {
			num := func(x float64) string {
				if x == 0 {
					return ""
				}
				return strconv.FormatFloat(x, 'f', -1, 64)
			}
			k := desk.Package{Weight: p.Weight, Length: p.Length, Width: p.Width, Height: p.Height,
				Raw: [4]string{num(p.Weight), num(p.Length), num(p.Width), num(p.Height)}}
			if len(f.Packages) == 1 && f.Packages[0].Raw == [4]string{} {
				f.Packages = f.Packages[:0]
			}
			f.Packages = append(f.Packages, k)
			return nil
		}
	}
	return apperr.Fields("Choose a preset from the list.", map[string]string{"packages": "That preset no longer exists."})
}

// choose takes the offer the clerk picked from fresh offers, never from the page.
func (h *Handlers) choose(ctx context.Context, f *desk.Form, st *shipmentState, id string) error {
	offers, err := h.Ship.Desk.Offers(ctx, *f)
	if err != nil {
		return err
	}
	st.offers, st.compared = offers, true
	for _, o := range offers {
		if strconv.Itoa(o.ServiceID) == id && o.Selectable {
			f.Offer = desk.Offer{ServiceID: o.ServiceID, Carrier: o.Carrier, Service: o.Service,
				LabelMode: o.LabelMode, DeliveryRequire: o.DeliveryBranchRequired, Price: money(o.PriceVAT)}
			if f.Offer.Carrier != "" && !o.DeliveryBranchRequired {
				f.DeliveryBranch = ""
			}
			return nil
		}
	}
	return apperr.Fields("That offer is no longer available.", map[string]string{"offer": "Choose one of the offers below."})
}

// searchPoints fills the pickers of the chosen offer's carrier.
func (h *Handlers) searchPoints(ctx context.Context, f desk.Form, v url.Values, st *shipmentState) {
	if f.Handover == desk.HandoverPoint {
		st.pickup, _ = h.Ship.Desk.SearchPoints(ctx, f.Offer.Carrier, "", firstNonEmpty(pointQuery(v, "pickup_q"), h.senderTown(ctx, f.SenderID)), f.Packages)
	}
	if f.Offer.DeliveryRequire {
		st.delivery, _ = h.Ship.Desk.SearchPoints(ctx, f.Offer.Carrier, f.To.Country, firstNonEmpty(pointQuery(v, "delivery_q"), f.To.City), f.Packages)
	}
}

// pointQuery is what the clerk typed into a point picker; text that cannot
// be read is ignored (the default search runs) rather than failing the page.
func pointQuery(v url.Values, name string) string {
	q, problem := textin.Line(v.Get(name), 100)
	if textin.IsUnreadable(problem) {
		return ""
	}
	return q
}

// senderTown is where the clerk most likely takes packages: the sender's town.
func (h *Handlers) senderTown(ctx context.Context, id int64) string {
	if s, err := h.Ship.DB.SenderByID(ctx, id); err == nil {
		return s.City
	}
	return ""
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if strings.TrimSpace(x) != "" {
			return x
		}
	}
	return ""
}

// Points answers the picker as the clerk types: the points of the chosen
// offer's carrier that the packages fit.
func (h *Handlers) Points(w http.ResponseWriter, r *http.Request) {
	if !parseForm(w, r) {
		h.ErrorStatus(w, r, http.StatusRequestEntityTooLarge, "The form is too large.")
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
	points, err := h.Ship.Desk.SearchPoints(r.Context(), f.Offer.Carrier, country, pointQuery(r.PostForm, kind+"_q"), f.Packages)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, views.PointList(kind, pointRows(points), ""))
}

func pointRows(points []storage.ParcelPoint) []views.PointRow {
	out := make([]views.PointRow, 0, len(points))
	for _, p := range points {
		out = append(out, views.PointRow{Code: p.Code, Name: p.Name, Address: fmt.Sprintf("%s, %s %s", p.Street, p.Zip, p.City),
			Locker: p.IsLocker, Limits: pointLimits(p)})
	}
	return out
}

// pointLimits describes a point's size limits when they are known; the
// service does not publish them, so usually they are not.
func pointLimits(p storage.ParcelPoint) string {
	if p.MaxLength == 0 {
		return ""
	}
	return fmt.Sprintf("up to %g × %g × %g cm, %g kg", p.MaxLength, p.MaxWidth, p.MaxHeight, p.MaxWeight)
}

func money(m shipping.Money) string {
	return strconv.FormatFloat(m.Value, 'f', 2, 64) + " " + m.Currency
}

func (h *Handlers) renderNewShipment(w http.ResponseWriter, r *http.Request, status int, f desk.Form, problems apperr.Problems, st shipmentState) {
	ctx := r.Context()
	senders, err := h.Ship.DB.Senders(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	recipients, err := h.Ship.DB.Recipients(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	presets, err := h.Ship.DB.Presets(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := views.NewShipment{Form: views.Form{Values: f.Values(), Errors: problems, Message: st.message}, Compared: st.compared,
		DeliveryQuery: firstNonEmpty(r.PostFormValue("delivery_q"), f.To.City)}
	var from storage.Sender
	for _, s := range senders {
		v.Senders = append(v.Senders, views.Option{Value: strconv.FormatInt(s.ID, 10), Label: s.Label + " — " + s.City})
		if s.ID == f.SenderID {
			from = s
		}
	}
	fromTown := from.City
	v.PickupQuery = firstNonEmpty(r.PostFormValue("pickup_q"), fromTown)
	for i, rc := range recipients {
		if i == 12 {
			break
		}
		v.Recipients = append(v.Recipients, views.Option{Value: strconv.FormatInt(rc.ID, 10), Label: strings.TrimSpace(rc.Firstname + " " + rc.Surname + " " + rc.Company)})
	}
	for _, p := range presets {
		v.Presets = append(v.Presets, views.Option{Value: strconv.FormatInt(p.ID, 10), Label: fmt.Sprintf("%s (%g kg)", p.Name, p.Weight)})
	}
	for i, k := range f.Packages {
		v.Packages = append(v.Packages, views.PackageRow{Index: i, Weight: k.Raw[0], Length: k.Raw[1], Width: k.Raw[2], Height: k.Raw[3]})
	}
	if len(v.Packages) == 0 {
		v.Packages = []views.PackageRow{{}}
	}
	for _, o := range st.offers {
		row := views.OfferRow{ServiceID: o.ServiceID, Carrier: o.Carrier, Service: o.Service,
			Price: money(o.Price), PriceVAT: money(o.PriceVAT), Delivery: o.DeliveryDate,
			LabelMode: o.LabelMode, LabelModeText: views.LabelModeText(o.LabelMode), DeliveryRequired: o.DeliveryBranchRequired,
			Selectable: o.Selectable, Chosen: o.ServiceID == f.Offer.ServiceID}
		if !row.Selectable {
			row.Reason = "not possible with these details"
		}
		v.Offers = append(v.Offers, row)
	}
	if f.Offer.ServiceID != 0 {
		v.Chosen = &views.OfferRow{ServiceID: f.Offer.ServiceID, Carrier: f.Offer.Carrier,
			Service: f.Offer.Service, PriceVAT: f.Offer.Price, LabelMode: f.Offer.LabelMode,
			LabelModeText: views.LabelModeText(f.Offer.LabelMode), DeliveryRequired: f.Offer.DeliveryRequire}
		for _, o := range v.Offers {
			if o.ServiceID == f.Offer.ServiceID {
				v.Chosen.Delivery = o.Delivery
			}
		}
		v.LabelFreeWhy = h.Ship.Desk.LabelFree(ctx, f, from)
		v.LabelFreeOK = len(v.LabelFreeWhy) == 0
		v.PickupPoints, v.DeliveryPoints = pointRows(st.pickup), pointRows(st.delivery)
	}
	// Errors about parts not on the page yet go into the summary, never lost.
	var unseen []string
	for field, msg := range problems {
		shown := field == "form" || !strings.Contains("offer pickup_branch delivery_branch label_less", field)
		if !shown && field == "offer" && v.Compared || v.Chosen != nil && field != "offer" {
			shown = true
		}
		if !shown {
			unseen = append(unseen, msg)
		}
	}
	if len(unseen) > 0 {
		sort.Strings(unseen)
		v.Form.Message = strings.TrimSpace(v.Form.Message + " " + strings.Join(unseen, " "))
	}
	h.render(w, r, status, views.NewShipmentPage(h.page(w, r, "New shipment", identity.Shipping), v))
}

// shipmentID reads the id in the path and loads the shipment, or answers 404.
func (h *Handlers) shipmentID(w http.ResponseWriter, r *http.Request) (int64, bool) {
	id, ok := pathID(r)
	if !ok {
		h.NotFound(w, r)
	}
	return id, ok
}

// ShipmentPage shows a shipment and what the clerk must do now. A pending
// label is asked for again when the last check is older than a few seconds.
func (h *Handlers) ShipmentPage(w http.ResponseWriter, r *http.Request) {
	s, ok := h.currentShipment(w, r)
	if !ok {
		return
	}
	events, err := h.Ship.DB.Events(r.Context(), s.ID)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := shipmentView(s)
	v.Timeline = timeline(s, events)
	h.render(w, r, http.StatusOK, views.ShipmentPage(h.page(w, r, fmt.Sprintf("Shipment %d", s.ID), identity.Shipping), v))
}

// ShipmentStatus is the label box alone, for the page's own polling.
func (h *Handlers) ShipmentStatus(w http.ResponseWriter, r *http.Request) {
	s, ok := h.currentShipment(w, r)
	if !ok {
		return
	}
	h.render(w, r, http.StatusOK, views.LabelBox(shipmentView(s)))
}

func (h *Handlers) currentShipment(w http.ResponseWriter, r *http.Request) (storage.Shipment, bool) {
	ctx := r.Context()
	id, ok := h.shipmentID(w, r)
	if !ok {
		return storage.Shipment{}, false
	}
	s, err := h.Ship.DB.ShipmentByID(ctx, id)
	if err != nil {
		h.Fail(w, r, err)
		return s, false
	}
	if needsRefresh(s) && (s.LastCheckedAt == nil || time.Since(*s.LastCheckedAt) > h.Ship.RefreshAfter) {
		if fresh, err := h.Ship.Desk.Refresh(ctx, id); err == nil {
			s = fresh
		} else {
			h.Log.Warn("refresh shipment", "shipment", id, "err", err)
		}
	}
	return s, true
}

// needsRefresh: the label is still to come, so the page asks the service.
func needsRefresh(s storage.Shipment) bool {
	return s.State == storage.StateCreated && s.CancelledAt == nil && s.LabelStatus == shipping.LabelPending
}

func shipmentView(s storage.Shipment) views.ShipmentView {
	v := views.ShipmentView{ShipmentRow: shipmentRow(s), City: s.RecipientCity, Error: s.Error,
		Cancelled: s.CancelledAt != nil || s.Status == shipping.StatusCancelled, LabelModeText: views.LabelModeText(s.LabelMode)}
	if s.CODValue != nil && s.CODCurrency != nil {
		v.COD = strconv.FormatFloat(*s.CODValue, 'f', -1, 64) + " " + *s.CODCurrency
	}
	if s.InsuredValue != nil {
		v.Insured = strconv.FormatFloat(*s.InsuredValue, 'f', -1, 64) + " CZK"
	}
	if s.LastCheckedAt != nil {
		v.LastChecked = views.FormatTime(*s.LastCheckedAt)
	}
	if s.OrderNumber != nil {
		v.OrderNumber = *s.OrderNumber
	}
	for _, k := range s.Packages {
		v.Packages = append(v.Packages, views.PackageView{Number: k.Number, Status: k.Status, Password: k.Password})
	}
	v.CanCancel = s.State == storage.StateCreated && !v.Cancelled && s.Status != shipping.StatusDelivered
	// While the outcome is open the box asks again, so an order the service
	// confirms late (or the reconciler adopts) shows without a click.
	v.Poll = needsRefresh(s) || s.State == storage.StateOrdering || s.State == storage.StateUnknown
	v.Duplicates = s.Duplicates
	if s.SettlesAt != nil {
		v.SettlesAt = views.FormatTime(*s.SettlesAt)
	}
	return v
}

// Label serves the label PDF of a shipment for printing.
func (h *Handlers) Label(w http.ResponseWriter, r *http.Request) {
	id, ok := h.shipmentID(w, r)
	if !ok {
		return
	}
	pdf, err := h.Ship.Desk.Label(r.Context(), id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	servePDF(w, fmt.Sprintf("label-%d.pdf", id), pdf)
}

func servePDF(w http.ResponseWriter, name string, pdf []byte) {
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", name))
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(pdf)
}

// ShipmentAction returns the handler of a button on the shipment page.
func (h *Handlers) ShipmentAction(act func(d *desk.Desk, ctx context.Context, id int64) (storage.Shipment, error), done string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, ok := h.shipmentID(w, r)
		if !ok || !parseForm(w, r) {
			return
		}
		s, err := act(h.Ship.Desk, r.Context(), id)
		h.finish(w, r, err, fmt.Sprintf(done, s.ID), fmt.Sprintf("/shipping/shipments/%d", id))
	}
}

// Storno cancels a shipment once the clerk confirmed it.
func (h *Handlers) Storno(w http.ResponseWriter, r *http.Request) {
	if !parseForm(w, r) {
		return
	}
	id, _ := pathID(r)
	if !h.confirmed(w, r, fmt.Sprintf("/shipping/shipments/%d", id), "Tick the confirmation to cancel the shipment.") {
		return
	}
	h.ShipmentAction((*desk.Desk).Storno, "Shipment %d is cancelled.")(w, r)
}

// StornoDuplicate cancels an extra order the service holds under a shipment's
// reference, once the clerk confirmed which.
func (h *Handlers) StornoDuplicate(w http.ResponseWriter, r *http.Request) {
	id, ok := h.shipmentID(w, r)
	if !ok || !parseForm(w, r) {
		return
	}
	back := fmt.Sprintf("/shipping/shipments/%d", id)
	tn := r.PostFormValue("tracking_number")
	if !h.confirmed(w, r, back, "Tick the confirmation to cancel the extra order.") {
		return
	}
	_, err := h.Ship.Desk.CancelDuplicate(r.Context(), id, tn)
	h.finish(w, r, err, fmt.Sprintf("The extra order %s is cancelled.", tn), back)
}

// PrintQueue lists the labels ready to print.
func (h *Handlers) PrintQueue(w http.ResponseWriter, r *http.Request) {
	h.renderPrintQueue(w, r, http.StatusOK, views.Form{})
}

func (h *Handlers) renderPrintQueue(w http.ResponseWriter, r *http.Request, status int, f views.Form) {
	list, err := h.Ship.DB.PrintQueue(r.Context())
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	h.render(w, r, status, views.PrintQueuePage(h.page(w, r, "Print queue", identity.Shipping), shipmentRows(list), f))
}

// PrintSelected serves one PDF with the selected labels and marks them printed.
func (h *Handlers) PrintSelected(w http.ResponseWriter, r *http.Request) {
	if !parseForm(w, r) {
		h.ErrorStatus(w, r, http.StatusRequestEntityTooLarge, "The form is too large.")
		return
	}
	var ids []int64
	for _, s := range r.PostForm["ids"] {
		if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 && len(ids) < 500 {
			ids = append(ids, id)
		}
	}
	pdf, err := h.Ship.Desk.PrintBatch(r.Context(), ids)
	if err != nil {
		if apperr.CodeOf(err) == apperr.Internal {
			h.Fail(w, r, err)
			return
		}
		h.renderPrintQueue(w, r, statusOf(apperr.CodeOf(err)), views.Form{Message: apperr.MessageOf(err, "")})
		return
	}
	servePDF(w, fmt.Sprintf("labels-%s.pdf", time.Now().Format("20060102-1504")), pdf)
}

func manifestDay(r *http.Request) (time.Time, string) {
	day, err := time.ParseInLocation("2006-01-02", r.URL.Query().Get("date"), time.Local)
	if err != nil {
		day = time.Now()
	}
	return day, day.Format("2006-01-02")
}

// Manifest lists a day's shipments with the link to their hand-over protocol.
func (h *Handlers) Manifest(w http.ResponseWriter, r *http.Request) {
	day, text := manifestDay(r)
	list, err := h.Ship.DB.ShipmentsOfDay(r.Context(), day)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	h.render(w, r, http.StatusOK, views.ManifestPage(h.page(w, r, "Hand-over protocol", identity.Shipping), text, shipmentRows(list)))
}

// ManifestPDF serves the hand-over protocol of a day.
func (h *Handlers) ManifestPDF(w http.ResponseWriter, r *http.Request) {
	day, text := manifestDay(r)
	pdf, _, err := h.Ship.Desk.Manifest(r.Context(), day)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	servePDF(w, "handover-"+text+".pdf", pdf)
}

// Draft shows a draft created through the cart API.
func (h *Handlers) Draft(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r)
	if !ok {
		h.NotFound(w, r)
		return
	}
	d, err := h.Ship.DB.DraftByID(r.Context(), id)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := views.DraftView{ID: d.ID, DraftID: d.DraftID, Reference: d.Reference, Created: views.FormatTime(d.CreatedAt),
		Recipient: d.Recipient, Modified: d.Modified}
	var warnings []struct{ Field, Message string }
	_ = json.Unmarshal(d.Warnings, &warnings)
	for _, w := range warnings {
		v.Warnings = append(v.Warnings, views.Option{Value: w.Field, Label: w.Message})
	}
	_ = json.Unmarshal(d.Defaults, &v.Defaults)
	h.render(w, r, http.StatusOK, views.DraftPage(h.page(w, r, "Draft", identity.Shipping), v))
}
