package shop

import (
	"context"
	"strings"

	"shipdesk/apperr"
	"shipdesk/storage"
)

// DemoShop is the demo shop of the sandbox and what its methods mean, as
// the wiring knows them (the sandbox says which carrier each of its
// shipping methods stands for).
type DemoShop struct {
	Platform string
	BaseURL  string
	Token    Token
	Methods  []DemoMethod
	// Ship are the statuses whose orders are shipped (none: the shop's
	// open ones); Handover the status a handed-over parcel moves its order to.
	Ship     []int
	Handover *int
}

// DemoMethod is what one of the demo shop's shipping methods means: a
// carrier's service to the address or to its points, not shipped by us (a
// personal pickup), or, with neither, left for a manager to map.
type DemoMethod struct {
	GUID    string
	Carrier string
	ToPoint bool
	NotOurs bool
}

// SeedDemo connects the demo shop and maps its shipping methods, each to
// its carrier's cheapest service that delivers as the method says (found
// by asking the service's offers for a parcel to Prague), so `make run`
// shows a connected shop with its orders. It changes nothing when a shop
// is connected; the desk's demo (senders, bank details) comes first.
func (s *Service) SeedDemo(ctx context.Context, demo DemoShop) error {
	if _, err := s.db.ShopConnection(ctx); !apperr.Is(err, apperr.NotFound) {
		return err
	}
	if _, err := s.Connect(ctx, 0, ConnectForm{Platform: demo.Platform, BaseURL: demo.BaseURL, Token: demo.Token}); err != nil {
		return err
	}
	services, err := s.Services(ctx)
	if err != nil {
		s.log.Warn("demo shop: offers", "err", err) // its methods ship by the offer rules
	}
	var maps []MethodMapping
	for _, m := range demo.Methods {
		switch {
		case m.NotOurs:
			maps = append(maps, MethodMapping{GUID: m.GUID, Mapping: storage.MapNotOurs})
		case m.Carrier != "":
			maps = append(maps, demoService(services, m))
		}
	}
	conn, err := s.Connection(ctx)
	if err != nil {
		return err
	}
	var cod []string
	for _, p := range conn.Payment {
		if p.COD {
			cod = append(cod, p.GUID)
		}
	}
	if err := s.SaveMappings(ctx, maps, cod); err != nil {
		return err
	}
	ship := demo.Ship
	if len(ship) == 0 {
		ship = conn.ShipStatuses
	}
	if err := s.SaveStatusRules(ctx, StatusRules{Ship: ship, Handover: demo.Handover, Quiet: true}); err != nil {
		return err
	}
	if _, err := s.Sync(ctx); err != nil {
		s.log.Warn("demo shop: first sync", "err", err) // the pollers catch up
	}
	return nil
}

// demoService maps a demo method to its carrier's cheapest service that
// delivers as it says; by the offer rules when the service offers none.
func demoService(services []ServiceChoice, m DemoMethod) MethodMapping {
	best := -1
	for i, c := range services {
		if strings.EqualFold(c.Carrier, m.Carrier) && c.ToPoint == m.ToPoint &&
			(best < 0 || c.offer.PriceVAT.Value < services[best].offer.PriceVAT.Value) {
			best = i
		}
	}
	if best < 0 {
		return MethodMapping{GUID: m.GUID, Mapping: storage.MapRules}
	}
	c := services[best]
	return MethodMapping{GUID: m.GUID, Mapping: storage.MapService, Carrier: c.Carrier, ServiceID: c.ServiceID}
}
