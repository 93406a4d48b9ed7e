package shop

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"time"

	"shipdesk/apperr"
	"shipdesk/storage"
	"shipdesk/textin"
)

// ConnectForm is what a manager types to connect the shop: its platform,
// the address of its API and its private token.
type ConnectForm struct {
	Platform string
	BaseURL  string
	Token    Token
}

// Connection is the connected shop as the Connection page shows it: never
// its token.
type Connection struct {
	Platform, BaseURL string
	Shop              Shop
	// ShipStatuses are the statuses whose orders are shipped; Handover the
	// status a handed-over parcel moves its order to (nil: none), Quiet
	// asking the shop not to tell the customer.
	ShipStatuses []int
	Handover     *int
	Quiet        bool
	Statuses     []storage.ShopStatus
	Shipping     []storage.ShopMethod
	Payment      []storage.ShopMethod
	ConnectedAt  time.Time
	// The sync: the last change stored, when it last ran well, its failure.
	SyncFrom  time.Time
	SyncedAt  *time.Time
	SyncError apperr.Text
	// HooksURL is where the shop's webhooks are registered ("": not).
	HooksURL string
}

// Limits of the connection form.
const (
	maxBaseURL = 500
	maxToken   = 200
)

// checkConnect reads the form as the page posts it.
func (s *Service) checkConnect(f ConnectForm) (ConnectForm, error) {
	p := apperr.Problems{}
	platform, problem := textin.Line(f.Platform, 40)
	p.Put("platform", problem)
	if _, ok := s.cfg.Platforms[platform]; !ok && problem.IsZero() {
		p.Add("platform", "shop.err.platform", platform)
	}
	base, problem := textin.Line(f.BaseURL, maxBaseURL)
	p.Put("base_url", problem)
	if u, err := url.Parse(base); problem.IsZero() && (err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.User != nil) {
		p.Add("base_url", "shop.err.base_url")
	}
	token := strings.TrimSpace(f.Token.Reveal())
	switch {
	case token == "":
		p.Add("token", "shop.err.token_needed")
	case len(token) > maxToken || strings.ContainsFunc(token, func(r rune) bool { return r <= ' ' || r == 0x7f || r > '~' }):
		p.Add("token", "shop.err.token_shape")
	}
	if len(p) > 0 {
		return f, apperr.Fields("form.see_fields", p)
	}
	return ConnectForm{Platform: platform, BaseURL: strings.TrimRight(base, "/"), Token: NewToken(token)}, nil
}

// Connect checks the token with the shop (the shop it opens, its statuses
// and methods) and keeps the connection, its token sealed; connecting the
// same shop again keeps what its statuses and methods mean. A token the
// shop refuses, an address that is no shop's API, a shop that does not
// answer: each is said on its field, and nothing is kept.
func (s *Service) Connect(ctx context.Context, by int64, f ConnectForm) (Connection, error) {
	f, err := s.checkConnect(f)
	if err != nil {
		return Connection{}, err
	}
	src, err := s.open(f.Platform, f.BaseURL, f.Token)
	if err != nil {
		return Connection{}, err
	}
	shop, err := src.Shop(ctx)
	if err != nil {
		return Connection{}, connectError(err)
	}
	textin.FromService(&shop)
	lists, err := readLists(ctx, src)
	if err != nil {
		return Connection{}, connectError(err)
	}
	now := s.now()
	err = s.db.InTx(ctx, func(tx *storage.DB) error {
		if err := tx.SaveShopConnection(ctx, storage.ShopConnection{Platform: f.Platform, BaseURL: f.BaseURL, TokenSealed: s.sealer().Seal(f.Token),
			ShopID: shop.ID, ShopName: shop.Name, ShopURL: shop.URL, SyncFrom: now.Add(-s.cfg.FirstSync), ConnectedAt: now,
			ConnectedBy: storage.UserRef(by)}); err != nil {
			return err
		}
		return lists.store(ctx, tx)
	})
	if err != nil {
		return Connection{}, err
	}
	s.forget()
	c, err := s.db.ShopConnection(ctx)
	if err == nil && len(c.ShipStatuses) == 0 {
		// A shop connected for the first time ships its open orders until
		// a manager says which statuses those are.
		var open []int
		for _, st := range lists.statuses {
			if !st.Final {
				open = append(open, st.ID)
			}
		}
		err = s.db.SaveShopStatusRules(ctx, open, nil, true)
	}
	if err != nil {
		return Connection{}, err
	}
	s.log.Info("shop connected", "platform", f.Platform, "shop", shop.ID, "by", by)
	if err := s.Rejudge(ctx); err != nil {
		return Connection{}, err
	}
	if err := s.Listen(ctx); err != nil {
		s.log.Warn("shop webhooks: the sync reads the changes meanwhile", "err", err)
	}
	return s.Connection(ctx)
}

// connectError says a failed check on the form's field it concerns.
func connectError(err error) error {
	switch apperr.CodeOf(err) {
	case apperr.Unauthorized:
		return &apperr.Error{Code: apperr.Invalid, Message: apperr.Msg("form.see_fields"),
			Fields: apperr.Problems{"token": apperr.Msg("shop.err.token_refused")}, Err: err}
	case apperr.NotFound, apperr.Invalid:
		return &apperr.Error{Code: apperr.Invalid, Message: apperr.Msg("form.see_fields"),
			Fields: apperr.Problems{"base_url": apperr.Msg("shop.err.not_a_shop")}, Err: err}
	}
	return &apperr.Error{Code: apperr.Unavailable, Message: apperr.Msg("shop.err.unreachable"), Err: err}
}

// lists are the shop's statuses and methods as it lists them.
type lists struct {
	statuses          []Status
	shipping, payment []Method
}

func readLists(ctx context.Context, src Source) (lists, error) {
	var l lists
	var err error
	if l.statuses, err = src.Statuses(ctx); err != nil {
		return l, err
	}
	if l.shipping, err = src.ShippingMethods(ctx); err != nil {
		return l, err
	}
	if l.payment, err = src.PaymentMethods(ctx); err != nil {
		return l, err
	}
	textin.FromService(&l.statuses)
	textin.FromService(&l.shipping)
	textin.FromService(&l.payment)
	return l, nil
}

func (l lists) store(ctx context.Context, tx *storage.DB) error {
	statuses := make([]storage.ShopStatus, 0, len(l.statuses))
	for _, st := range l.statuses {
		statuses = append(statuses, storage.ShopStatus{ID: st.ID, Name: cut(st.Name, 200), Final: st.Final})
	}
	if err := tx.ReplaceShopStatuses(ctx, statuses); err != nil {
		return err
	}
	methods := func(list []Method) []storage.ShopMethod {
		out := make([]storage.ShopMethod, 0, len(list))
		for _, m := range list {
			if g, _ := textin.Cut(m.GUID, 100); g != "" && g == m.GUID {
				out = append(out, storage.ShopMethod{GUID: m.GUID, Name: cut(m.Name, 200), COD: m.COD})
			}
		}
		return out
	}
	if err := tx.ReplaceShopMethods(ctx, storage.ShopShipping, methods(l.shipping)); err != nil {
		return err
	}
	return tx.ReplaceShopMethods(ctx, storage.ShopPayment, methods(l.payment))
}

func cut(s string, n int) string {
	c, _ := textin.Cut(strings.TrimSpace(s), n)
	return c
}

// forget drops the Source kept for the connection: it is opened anew.
func (s *Service) forget() {
	s.mu.Lock()
	s.opened = nil
	s.mu.Unlock()
}

// Connection reads the connected shop; NotFound when none is.
func (s *Service) Connection(ctx context.Context) (Connection, error) {
	c, err := s.db.ShopConnection(ctx)
	if err != nil {
		return Connection{}, err
	}
	out := Connection{Platform: c.Platform, BaseURL: c.BaseURL, Shop: Shop{ID: c.ShopID, Name: c.ShopName, URL: c.ShopURL}, HooksURL: c.HooksURL,
		Handover: c.HandoverStatus, Quiet: c.HandoverQuiet, ConnectedAt: c.ConnectedAt, SyncFrom: c.SyncFrom, SyncedAt: c.SyncedAt,
		SyncError: c.SyncError}
	for _, id := range c.ShipStatuses {
		out.ShipStatuses = append(out.ShipStatuses, int(id))
	}
	if out.Statuses, err = s.db.ShopStatuses(ctx); err != nil {
		return out, err
	}
	methods, err := s.db.ShopMethods(ctx)
	for _, m := range methods {
		if m.Kind == storage.ShopShipping {
			out.Shipping = append(out.Shipping, m)
		} else {
			out.Payment = append(out.Payment, m)
		}
	}
	return out, err
}

// RefreshLists reads the shop's statuses and methods again (a method added
// in the shop's admin): what is kept keeps its meaning.
func (s *Service) RefreshLists(ctx context.Context) error {
	src, _, err := s.source(ctx)
	if err != nil {
		return err
	}
	l, err := readLists(ctx, src)
	if err != nil {
		return connectError(err)
	}
	if err := s.db.InTx(ctx, func(tx *storage.DB) error { return l.store(ctx, tx) }); err != nil {
		return err
	}
	return s.Rejudge(ctx)
}

// StatusRules are what the shop's statuses mean to the desk.
type StatusRules struct {
	Ship     []int // the statuses whose orders are shipped
	Handover *int  // the status a handed-over parcel moves its order to (nil: none)
	Quiet    bool  // ask the shop not to mail or text the customer about it
}

// SaveStatusRules keeps what the statuses mean, each one of the shop's,
// and judges the orders again.
func (s *Service) SaveStatusRules(ctx context.Context, r StatusRules) error {
	known, err := s.db.ShopStatuses(ctx)
	if err != nil {
		return err
	}
	has := func(id int) bool {
		return slices.ContainsFunc(known, func(st storage.ShopStatus) bool { return st.ID == id })
	}
	p := apperr.Problems{}
	for _, id := range r.Ship {
		if !has(id) {
			p.Add("ship", "shop.err.status_unknown", id)
		}
	}
	if r.Handover != nil && !has(*r.Handover) {
		p.Add("handover", "shop.err.status_unknown", *r.Handover)
	}
	if len(p) > 0 {
		return apperr.Fields("form.see_fields", p)
	}
	if err := s.db.SaveShopStatusRules(ctx, r.Ship, r.Handover, r.Quiet); err != nil {
		return err
	}
	return s.Rejudge(ctx)
}

// MethodMapping is what one shipping method means: a service of the
// shipping service (its carrier and service id, one the service offers),
// the offer rules, or not shipped by us.
type MethodMapping struct {
	GUID      string
	Mapping   string // storage.MapService, MapRules, MapNotOurs, MapUnmapped
	Carrier   string
	ServiceID int
}

// SaveMappings keeps the shipping methods' meanings and which payment
// methods are cash on delivery, and judges the orders again. A service is
// one the shipping service offers now (Services), or the one the method
// stands for already.
func (s *Service) SaveMappings(ctx context.Context, shipping []MethodMapping, codPayments []string) error {
	known, err := s.db.ShopMethods(ctx)
	if err != nil {
		return err
	}
	var offered []ServiceChoice
	asked := false
	p := apperr.Problems{}
	var save []storage.ShopMethod
	for _, m := range shipping {
		field := "shipping_" + m.GUID
		i := slices.IndexFunc(known, func(k storage.ShopMethod) bool { return k.Kind == storage.ShopShipping && k.GUID == m.GUID })
		if i < 0 {
			p.Add("shipping", "shop.err.method_unknown", m.GUID)
			continue
		}
		row := known[i]
		was := ServiceChoice{Carrier: row.Carrier, ServiceID: row.ServiceID, Name: row.ServiceName, ToPoint: row.ToPoint}
		row.Mapping, row.Carrier, row.ServiceID, row.ServiceName, row.ToPoint = m.Mapping, "", 0, "", false
		switch m.Mapping {
		case storage.MapService:
			choice, found := was, known[i].Mapping == storage.MapService && was.is(m.Carrier, m.ServiceID)
			if !found && !asked {
				if offered, err = s.Services(ctx); err != nil {
					return err
				}
				asked = true
			}
			if j := slices.IndexFunc(offered, func(c ServiceChoice) bool { return c.is(m.Carrier, m.ServiceID) }); !found && j >= 0 {
				choice, found = offered[j], true
			}
			if !found {
				p.Add(field, "shop.err.service")
				continue
			}
			row.Carrier, row.ServiceID, row.ServiceName, row.ToPoint = strings.ToUpper(choice.Carrier), choice.ServiceID, cut(choice.Name, 100), choice.ToPoint
		case storage.MapRules, storage.MapNotOurs, storage.MapUnmapped:
		default:
			p.Add(field, "shop.err.mapping")
			continue
		}
		save = append(save, row)
	}
	for _, k := range known {
		if k.Kind == storage.ShopPayment {
			k.COD = slices.Contains(codPayments, k.GUID)
			save = append(save, k)
		}
	}
	for _, g := range codPayments {
		if !slices.ContainsFunc(known, func(k storage.ShopMethod) bool { return k.Kind == storage.ShopPayment && k.GUID == g }) {
			p.Add("payment", "shop.err.method_unknown", g)
		}
	}
	if len(p) > 0 {
		return apperr.Fields("form.see_fields", p)
	}
	err = s.db.InTx(ctx, func(tx *storage.DB) error {
		for _, m := range save {
			if err := tx.SaveShopMethod(ctx, m); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return s.Rejudge(ctx)
}
