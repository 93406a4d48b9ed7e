package shop

import (
	"context"
	"strings"

	"shipdesk/apperr"
	"shipdesk/desk"
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
	// Handover is the status a handed-over parcel moves its order to.
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
	var maps []MethodMapping
	for _, m := range demo.Methods {
		switch {
		case m.NotOurs:
			maps = append(maps, MethodMapping{GUID: m.GUID, Mapping: storage.MapNotOurs})
		case m.Carrier != "":
			maps = append(maps, s.demoService(ctx, m))
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
	if err := s.SaveStatusRules(ctx, StatusRules{Ship: conn.ShipStatuses, Handover: demo.Handover, Quiet: true}); err != nil {
		return err
	}
	if _, err := s.Sync(ctx); err != nil {
		s.log.Warn("demo shop: first sync", "err", err) // the pollers catch up
	}
	return nil
}

// demoService maps a demo method to its carrier's cheapest service that
// delivers as it says; by the offer rules when the service offers none.
func (s *Service) demoService(ctx context.Context, m DemoMethod) MethodMapping {
	f, err := s.desk.Blank(ctx)
	if err != nil {
		return MethodMapping{GUID: m.GUID, Mapping: storage.MapRules}
	}
	f.To = desk.Address{Firstname: "Jana", Surname: "Nováková", Street: "Korunní 12", City: "Praha", Zip: "120 00", Country: "CZ",
		Phone: "+420 777 123 456", Email: "jana@example.cz"}
	f.Packages = []desk.Package{{Weight: 1, Length: 30, Width: 20, Height: 10}}
	// A carrier that takes parcels only at its points is offered for a
	// hand-over there (as shipping an order tries it).
	for _, handover := range []string{s.cfg.Handover, desk.HandoverPoint} {
		f.Handover = handover
		offers, err := s.desk.Offers(ctx, f)
		if err != nil {
			s.log.Warn("demo shop: offers", "carrier", m.Carrier, "err", err)
			break
		}
		best := -1
		for i, o := range offers {
			if o.Selectable && !o.LabelFree && strings.EqualFold(o.Carrier, m.Carrier) && o.DeliveryRequired == m.ToPoint &&
				(best < 0 || o.PriceVAT.Value < offers[best].PriceVAT.Value) {
				best = i
			}
		}
		if best >= 0 {
			o := offers[best]
			return MethodMapping{GUID: m.GUID, Mapping: storage.MapService, Carrier: o.Carrier, ServiceID: o.ServiceID, ServiceName: o.Service,
				ToPoint: o.DeliveryRequired}
		}
	}
	return MethodMapping{GUID: m.GUID, Mapping: storage.MapRules}
}
