package handlers

import (
	"context"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"shipdesk/apperr"
	"shipdesk/countries"
	"shipdesk/desk"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/shop"
	"shipdesk/storage"
	"shipdesk/views"
)

// ShopDesk is what the shop's pages ask of the shop's service (shop.Service).
type ShopDesk interface {
	Inbox(ctx context.Context, q shop.InboxQuery) (shop.Inbox, error)
	InboxFacets(ctx context.Context) (shop.Facets, error)
	Order(ctx context.Context, code string) (shop.OrderPage, error)
	Ship(ctx context.Context, by int64, code string, seen int) (shop.Shipped, error)
	NewParcel(ctx context.Context, by int64, code, key string) (shop.Shipped, error)
	ShipMany(ctx context.Context, by int64, codes []string) (shop.ManyShipped, error)
	Prefill(ctx context.Context, code string) (desk.Form, []apperr.Text, error)
}

// inboxPage is how many orders one page of the inbox shows.
const inboxPage = 50

// ShopOrders is the clerk's inbox, "Orders from the shop": newest first,
// filtered, a page at a time.
func (h *Handlers) ShopOrders(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	q := r.URL.Query()
	for _, k := range []string{"shipping", "status", "country", "day", "after"} {
		if !plainText(q.Get(k)) {
			h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(ctx, "orders.err.filter"))
			return
		}
	}
	in := shop.InboxQuery{Shipping: q.Get("shipping"), Country: q.Get("country"), Day: q.Get("day"), After: q.Get("after"), Limit: inboxPage}
	if s := q.Get("status"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(ctx, "orders.err.filter"))
			return
		}
		in.Status = n
	}
	page, err := h.Shop.Inbox(ctx, in)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	facets, err := h.Shop.InboxFacets(ctx)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := views.ShopInbox{Filter: views.ShopFilter{Shipping: in.Shipping, Status: q.Get("status"), Country: in.Country, Day: in.Day},
		Shipping: facetOptions(facets.Shipping), Statuses: facetOptions(facets.Statuses), Countries: facetOptions(countryFacets(ctx, facets.Countries))}
	for _, o := range page.Orders {
		v.Orders = append(v.Orders, inboxRow(ctx, o))
	}
	if page.Next != "" {
		next := url.Values{}
		for _, k := range []string{"shipping", "status", "country", "day"} {
			if q.Get(k) != "" {
				next.Set(k, q.Get(k))
			}
		}
		next.Set("after", page.Next)
		v.Next = "/shipping/orders?" + next.Encode()
	}
	h.render(w, r, http.StatusOK, views.ShopInboxPage(h.page(w, r, i18n.T(ctx, "orders.title"), identity.Shipping), v))
}

// countryFacets are the countries' facets by the countries' names.
func countryFacets(ctx context.Context, fs []storage.ShopFacet) []storage.ShopFacet {
	out := make([]storage.ShopFacet, len(fs))
	for i, f := range fs {
		out[i] = f
		out[i].Name = countryName(ctx, f.Value)
	}
	return out
}

func facetOptions(fs []storage.ShopFacet) []views.Option {
	out := make([]views.Option, 0, len(fs))
	for _, f := range fs {
		out = append(out, views.Option{Value: f.Value, Label: f.Name + " (" + strconv.Itoa(f.Count) + ")"})
	}
	return out
}

// inboxRow is an order of the inbox in words.
func inboxRow(ctx context.Context, o shop.InboxOrder) views.ShopOrderRow {
	row := views.ShopOrderRow{Code: o.Code, Revision: strconv.Itoa(o.Revision), Created: i18n.DateTime(ctx, o.Created), Status: o.Status,
		Recipient: o.Recipient, City: o.City, Country: countryName(ctx, o.Country), Shipping: o.Shipping, Point: o.Point,
		Ready: o.Ready, Elsewhere: o.ShippedElsewhere, ShipmentID: o.ShipmentID}
	if o.COD {
		row.COD = i18n.T(ctx, "orders.cod_yes")
		if o.CODAmount != nil {
			row.COD = i18n.Money(ctx, *o.CODAmount, o.Currency)
		}
	}
	if o.WeightKg != nil {
		row.Weight = i18n.T(ctx, "orders.kg", shopDecimal(ctx, strconv.FormatFloat(*o.WeightKg, 'f', -1, 64)))
	}
	for _, p := range o.Problems {
		row.Problems = append(row.Problems, p.In(ctx))
	}
	return row
}

// ShipShopOrder is POST /shipping/orders/{code}/ship: the order shipped in
// one click, exactly once (another click, tab or instance meets the same
// shipment), then its page; an order that cannot ship as it is opens the
// new-shipment form filled from it.
func (h *Handlers) ShipShopOrder(w http.ResponseWriter, r *http.Request) {
	code, ok := h.orderCode(w, r)
	if !ok || !h.readForm(w, r) {
		return
	}
	seen, _ := strconv.Atoi(r.PostFormValue("revision"))
	done, err := h.Shop.Ship(r.Context(), h.userID(r), code, seen)
	h.afterShip(w, r, code, done, err)
}

// NewShopParcel is POST /shipping/orders/{code}/new-parcel: another parcel
// for an order shipped before, asked for explicitly; its request key makes a
// second post of the same button the same parcel.
func (h *Handlers) NewShopParcel(w http.ResponseWriter, r *http.Request) {
	code, ok := h.orderCode(w, r)
	if !ok || !h.readForm(w, r) {
		return
	}
	done, err := h.Shop.NewParcel(r.Context(), h.userID(r), code, r.PostFormValue("key"))
	h.afterShip(w, r, code, done, err)
}

// orderCode is the path's order code, or a 404 for one that is no text
// (checked before any lookup: PostgreSQL refuses NUL and broken UTF-8).
func (h *Handlers) orderCode(w http.ResponseWriter, r *http.Request) (string, bool) {
	code := r.PathValue("code")
	if !plainText(code) {
		h.ErrorStatus(w, r, http.StatusNotFound, "")
		return "", false
	}
	return code, true
}

func (h *Handlers) afterShip(w http.ResponseWriter, r *http.Request, code string, done shop.Shipped, err error) {
	switch {
	case err != nil:
		h.Fail(w, r, err)
	case done.Shipment != nil:
		redirect(w, r, "/shipping/shipments/"+strconv.FormatInt(done.Shipment.ID, 10))
	default:
		redirect(w, r, "/shipping/new?order="+url.QueryEscape(code))
	}
}

// ShipShopOrders is POST /shipping/orders/ship: the ticked orders made a
// batch (priced by the offer rules, ordered, printed as one), whose page
// opens; what was left out says why there.
func (h *Handlers) ShipShopOrders(w http.ResponseWriter, r *http.Request) {
	if !h.readForm(w, r) {
		return
	}
	ctx := r.Context()
	for _, c := range r.PostForm["code"] {
		if !plainText(c) {
			h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(ctx, "orders.err.filter"))
			return
		}
	}
	many, err := h.Shop.ShipMany(ctx, h.userID(r), r.PostForm["code"])
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	for _, s := range many.Skipped {
		h.Sessions.AddFlash(w, r, views.Flash{Kind: "info", Text: s.Code + ": " + s.Why.In(ctx)})
	}
	redirect(w, r, "/shipping/batches/"+strconv.FormatInt(many.Batch.ID, 10))
}

// prefillFromOrder fills the new-shipment form from a shop's order
// (/shipping/new?order=CODE): the clerk completes what it lacks.
func (h *Handlers) prefillFromOrder(w http.ResponseWriter, r *http.Request, code string) {
	ctx := r.Context()
	if !plainText(code) {
		h.ErrorStatus(w, r, http.StatusNotFound, "")
		return
	}
	f, problems, err := h.Shop.Prefill(ctx, code)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	st := shipmentState{focus: "to_firstname", notice: []string{i18n.T(ctx, "orders.filled_from", code)}}
	for _, p := range problems {
		st.notice = append(st.notice, p.In(ctx))
	}
	if f.Offer.ServiceID != 0 {
		h.searchPoints(ctx, f, url.Values{}, &st)
	}
	h.renderNewShipment(w, r, http.StatusOK, f, nil, st)
}

// ShopOrder is an order's page: its data, its shipments, and what was
// written back to the shop and when.
func (h *Handlers) ShopOrder(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	code, ok := h.orderCode(w, r)
	if !ok {
		return
	}
	p, err := h.Shop.Order(ctx, code)
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	v := views.ShopOrderView{Row: inboxRow(ctx, p.InboxOrder), Email: p.Order.Email, Phone: p.Order.Phone, Total: shopMoney(ctx, p.Order.Total, p.Order.Currency),
		Payment: p.Order.Payment.Name, Note: p.Order.CustomerNote, Handover: p.Handover, Key: requestkey.New()}
	a := p.Order.Delivery
	v.Address = strings.Join(nonBlank(a.Company, a.FullName, strings.TrimSpace(a.Street+" "+a.HouseNumber), strings.TrimSpace(a.Zip+" "+a.City), countryName(ctx, a.Country)), ", ")
	for _, it := range p.Order.Items {
		v.Items = append(v.Items, views.ShopItem{Code: it.Code, Name: it.Name, Amount: shopDecimal(ctx, it.Amount), Price: shopMoney(ctx, it.Price, p.Order.Currency)})
	}
	for _, sh := range p.Shipments {
		s := views.ShopShipment{ID: sh.ID, Reference: sh.Reference, Carrier: p.CarrierName(sh.Carrier)}
		if sh.TrackingNumber != nil {
			s.Tracking = *sh.TrackingNumber
		}
		v.Shipments = append(v.Shipments, s)
	}
	for _, wr := range p.Writes {
		v.Writes = append(v.Writes, writeRow(ctx, wr, p.StatusName))
	}
	h.render(w, r, http.StatusOK, views.ShopOrderPage(h.page(w, r, i18n.T(ctx, "orders.order_title", p.Code), identity.Shipping), v))
}

func nonBlank(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}

// writeRow is one write back to the shop in words: what (a status by the
// shop's name for it), when, and a failed write's answer.
func writeRow(ctx context.Context, wr storage.ShopWrite, statusName func(int) string) views.ShopWriteRow {
	row := views.ShopWriteRow{Created: i18n.DateTime(ctx, wr.CreatedAt), State: i18n.T(ctx, "orders.write."+wr.State), Failed: wr.State == "failed"}
	switch {
	case wr.Kind == storage.ShopWriteStatus && wr.StatusID != nil && statusName(*wr.StatusID) != "":
		row.What = i18n.T(ctx, "orders.write.status", statusName(*wr.StatusID))
	case wr.Kind == storage.ShopWriteStatus:
		row.What = i18n.T(ctx, "orders.write.status_gone")
	case wr.TrackingNumber == "":
		row.What = i18n.T(ctx, "orders.write.cleared")
	default:
		row.What = i18n.T(ctx, "orders.write.tracking", wr.TrackingNumber)
	}
	if wr.SentAt != nil {
		row.Sent = i18n.DateTime(ctx, *wr.SentAt)
	}
	if !wr.LastError.IsZero() {
		row.Answer = wr.LastError.In(ctx)
	}
	return row
}

// countryName is a country by its name in the reader's language; a code
// the desk has no name for is shown as the shop sent it.
func countryName(ctx context.Context, code string) string {
	if key := countries.NameKey(code); code != "" && i18n.Has(key) {
		return i18n.T(ctx, key)
	}
	return code
}

// shopMoney is an amount the shop wrote as a decimal, in the reader's
// language; one that is no number is shown as the shop wrote it.
func shopMoney(ctx context.Context, amount, currency string) string {
	x, err := strconv.ParseFloat(amount, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return strings.TrimSpace(amount + " " + currency)
	}
	return i18n.Money(ctx, x, currency)
}

// shopDecimal is a quantity the shop wrote as "1.000", as the reader writes
// numbers ("1", "2,5").
func shopDecimal(ctx context.Context, s string) string {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return s
	}
	return strings.TrimRight(strings.TrimRight(i18n.Number(ctx, x, 3), "0"), ".,")
}

// plainText is text PostgreSQL can take: valid UTF-8 without NUL. An order
// code or a filter that is not is no order's, refused before any lookup.
func plainText(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }
