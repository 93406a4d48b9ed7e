package handlers

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"shipdesk/apperr"
	"shipdesk/i18n"
	"shipdesk/identity"
	"shipdesk/requestkey"
	"shipdesk/shop"
	"shipdesk/storage"
	"shipdesk/textin"
	"shipdesk/views"
)

// ShopSettings is what the Connection page's shop section asks of the
// shop's service (shop.Service): never the token back.
type ShopSettings interface {
	Connection(ctx context.Context) (shop.Connection, error)
	Services(ctx context.Context) ([]shop.ServiceChoice, error)
	Connect(ctx context.Context, by int64, f shop.ConnectForm) (shop.Connection, error)
	RefreshLists(ctx context.Context) error
	SaveStatusRules(ctx context.Context, r shop.StatusRules) error
	SaveMappings(ctx context.Context, shipping []shop.MethodMapping, codPayments []string) error
	Disconnect(ctx context.Context, by int64) error
}

// shopTarget is where the shop's forms return to.
const shopTarget = "/connection#shop"

// shopSection is the shop's section as the page shows it: the connection
// form while no shop is connected, else the shop and its mappings.
func (h *Handlers) shopSection(ctx context.Context, carriers []storage.Carrier, connect views.Form, errs map[string]string) (views.ShopSection, error) {
	s := views.ShopSection{Key: requestkey.New(), Errors: errs, Connect: connect}
	c, err := h.ShopConn.Connection(ctx)
	if apperr.Is(err, apperr.NotFound) {
		if s.Connect.Values == nil {
			s.Connect.Values = map[string]string{"base_url": h.ShopAPI}
		}
		return s, nil
	}
	if err != nil {
		return s, err
	}
	s.Connected, s.ShopName, s.ShopID, s.ShopURL, s.HooksURL = true, c.Shop.Name, strconv.FormatInt(c.Shop.ID, 10), c.Shop.URL, c.HooksURL
	s.ConnectedAt = i18n.DateTime(ctx, c.ConnectedAt)
	if c.SyncedAt != nil {
		s.SyncedAt = i18n.DateTime(ctx, *c.SyncedAt)
	}
	s.SyncError = c.SyncError.In(ctx)
	for _, st := range c.Statuses {
		s.Statuses = append(s.Statuses, views.ShopStatusBox{ID: strconv.Itoa(st.ID), Name: st.Name, Ship: slices.Contains(c.ShipStatuses, st.ID)})
	}
	if c.Handover != nil {
		s.Handover = strconv.Itoa(*c.Handover)
	}
	s.Notify = !c.Quiet
	names := map[string]string{}
	for _, k := range carriers {
		names[strings.ToUpper(k.Code)] = cmpOr(k.Name, k.Code)
	}
	services, err := h.ShopConn.Services(ctx)
	if err != nil {
		s.ServicesUnknown = true
	}
	addService := func(carrier string, id int, name string, toPoint bool) {
		v := serviceValue(carrier, id)
		if slices.ContainsFunc(s.Services, func(o views.Option) bool { return o.Value == v }) {
			return
		}
		label := i18n.T(ctx, "connshop.service", cmpOr(names[strings.ToUpper(carrier)], carrier), name)
		if toPoint {
			label = i18n.T(ctx, "connshop.service_point", cmpOr(names[strings.ToUpper(carrier)], carrier), name)
		}
		s.Services = append(s.Services, views.Option{Value: v, Label: label})
	}
	for _, sv := range services {
		addService(sv.Carrier, sv.ServiceID, sv.Name, sv.ToPoint)
	}
	for _, m := range c.Shipping {
		row := views.ShopMethodRow{GUID: m.GUID, Name: m.Name, Value: m.Mapping}
		if m.Mapping == storage.MapService {
			row.Value = serviceValue(m.Carrier, m.ServiceID)
			addService(m.Carrier, m.ServiceID, m.ServiceName, m.ToPoint) // kept even when not offered now
		}
		s.Shipping = append(s.Shipping, row)
	}
	for _, p := range c.Payment {
		s.Payment = append(s.Payment, views.ShopPaymentBox{GUID: p.GUID, Name: p.Name, COD: p.COD})
	}
	return s, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// serviceValue is a service as a mapping's select sends it.
func serviceValue(carrier string, id int) string {
	return "service:" + strings.ToUpper(carrier) + ":" + strconv.Itoa(id)
}

// shopForm reads a post of the shop's section and checks its request key;
// false when the answer was given.
func (h *Handlers) shopForm(w http.ResponseWriter, r *http.Request) bool {
	if !h.readForm(w, r) {
		return false
	}
	if !requestkey.Valid(r.PostFormValue("key")) {
		h.ErrorStatus(w, r, http.StatusBadRequest, i18n.T(r.Context(), "connshop.err.key"))
		return false
	}
	return true
}

// ConnectShop checks the pasted token with the shop and connects it. The
// token is never drawn back, not even into a refused form.
func (h *Handlers) ConnectShop(w http.ResponseWriter, r *http.Request) {
	if !h.shopForm(w, r) {
		return
	}
	ctx := r.Context()
	c, err := h.ShopConn.Connect(ctx, identity.From(ctx).ID, shop.ConnectForm{Platform: r.PostFormValue("platform"),
		BaseURL: r.PostFormValue("base_url"), Token: shop.NewToken(r.PostFormValue("token"))})
	if apperr.CodeOf(err) == apperr.Invalid || apperr.CodeOf(err) == apperr.Unavailable {
		base, _ := textin.Line(r.PostFormValue("base_url"), 500)
		form := views.Form{Values: map[string]string{"base_url": base}, Errors: apperr.FieldsOf(ctx, err), Message: apperr.MessageOf(ctx, err, ""),
			Focus: "token"}
		h.connectionPage(w, r, http.StatusUnprocessableEntity, form, nil)
		return
	}
	h.finish(w, r, err, i18n.T(ctx, "connshop.done_connected", c.Shop.Name), shopTarget)
}

// SaveShopStatuses keeps which statuses ship and the hand-over's status.
func (h *Handlers) SaveShopStatuses(w http.ResponseWriter, r *http.Request) {
	if !h.shopForm(w, r) {
		return
	}
	rules := shop.StatusRules{Quiet: r.PostFormValue("notify") != "yes"}
	errs := map[string]string{}
	for _, v := range r.PostForm["ship"] {
		id, err := strconv.Atoi(v)
		if err != nil {
			errs["ship"] = i18n.T(r.Context(), "connshop.err.status")
			continue
		}
		rules.Ship = append(rules.Ship, id)
	}
	if v := r.PostFormValue("handover"); v != "" {
		id, err := strconv.Atoi(v)
		if err != nil {
			errs["handover"] = i18n.T(r.Context(), "connshop.err.status")
		}
		rules.Handover = &id
	}
	h.shopSaved(w, r, errs, func() error { return h.ShopConn.SaveStatusRules(r.Context(), rules) })
}

// SaveShopMappings keeps what each shipping method stands for and which
// payment methods are cash on delivery.
func (h *Handlers) SaveShopMappings(w http.ResponseWriter, r *http.Request) {
	if !h.shopForm(w, r) {
		return
	}
	var maps []shop.MethodMapping
	errs := map[string]string{}
	for name, vals := range r.PostForm {
		guid, ok := strings.CutPrefix(name, "map_")
		if !ok || len(vals) == 0 {
			continue
		}
		m := shop.MethodMapping{GUID: guid, Mapping: vals[0]}
		if rest, ok := strings.CutPrefix(vals[0], "service:"); ok {
			carrier, id, _ := strings.Cut(rest, ":")
			n, err := strconv.Atoi(id)
			if err != nil {
				errs["shipping_"+guid] = i18n.T(r.Context(), "shop.err.service")
				continue
			}
			m = shop.MethodMapping{GUID: guid, Mapping: storage.MapService, Carrier: carrier, ServiceID: n}
		}
		maps = append(maps, m)
	}
	slices.SortFunc(maps, func(a, b shop.MethodMapping) int { return strings.Compare(a.GUID, b.GUID) })
	h.shopSaved(w, r, errs, func() error { return h.ShopConn.SaveMappings(r.Context(), maps, r.PostForm["cod"]) })
}

// RefreshShopLists reads the shop's statuses and methods again.
func (h *Handlers) RefreshShopLists(w http.ResponseWriter, r *http.Request) {
	if !h.shopForm(w, r) {
		return
	}
	h.finish(w, r, h.ShopConn.RefreshLists(r.Context()), i18n.T(r.Context(), "connshop.done_refreshed"), shopTarget)
}

// DisconnectShop forgets the shop's token, after its ticked confirmation.
func (h *Handlers) DisconnectShop(w http.ResponseWriter, r *http.Request) {
	if !h.shopForm(w, r) || !h.confirmed(w, r, shopTarget, i18n.T(r.Context(), "connshop.err.confirm")) {
		return
	}
	ctx := r.Context()
	h.finish(w, r, h.ShopConn.Disconnect(ctx, identity.From(ctx).ID), i18n.T(ctx, "connshop.done_disconnected"), shopTarget)
}

// shopSaved ends a save of the shop's section: a refused one draws the page
// again with its problems (422), a saved one goes back with its flash.
func (h *Handlers) shopSaved(w http.ResponseWriter, r *http.Request, errs map[string]string, save func() error) {
	ctx := r.Context()
	if len(errs) == 0 {
		err := save()
		if apperr.CodeOf(err) != apperr.Invalid {
			h.finish(w, r, err, i18n.T(ctx, "connshop.done_saved"), shopTarget)
			return
		}
		errs = apperr.FieldsOf(ctx, err)
	}
	h.connectionPage(w, r, http.StatusUnprocessableEntity, views.Form{}, errs)
}
