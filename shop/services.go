package shop

import (
	"context"
	"slices"
	"strings"

	"shipdesk/desk"
)

// ServiceChoice is a service of the shipping service that a shop's shipping
// method can stand for.
type ServiceChoice struct {
	Carrier   string
	ServiceID int
	Name      string
	ToPoint   bool // it delivers to a parcel point
	offer     desk.Offer
}

// Services are the services the shipping service offers for a sample
// parcel (a kilogram to Prague), for a hand-over as the desk ships orders
// and at the carrier's points (a carrier that takes parcels only there),
// each once, by carrier and name.
func (s *Service) Services(ctx context.Context) ([]ServiceChoice, error) {
	f, err := s.desk.Blank(ctx)
	if err != nil {
		return nil, err
	}
	f.To = desk.Address{Firstname: "Jana", Surname: "Nováková", Street: "Korunní 12", City: "Praha", Zip: "120 00", Country: "CZ",
		Phone: "+420 777 123 456", Email: "jana@example.cz"}
	f.Packages = []desk.Package{{Weight: 1, Length: 30, Width: 20, Height: 10}}
	var out []ServiceChoice
	for _, handover := range []string{s.cfg.Handover, desk.HandoverPoint} {
		f.Handover = handover
		offers, err := s.desk.Offers(ctx, f)
		if err != nil {
			return nil, err
		}
		for _, o := range offers {
			if !o.Selectable || o.LabelFree || slices.ContainsFunc(out, func(c ServiceChoice) bool { return c.is(o.Carrier, o.ServiceID) }) {
				continue
			}
			out = append(out, ServiceChoice{Carrier: o.Carrier, ServiceID: o.ServiceID, Name: o.Service, ToPoint: o.DeliveryRequired, offer: o})
		}
	}
	slices.SortFunc(out, func(a, b ServiceChoice) int {
		return strings.Compare(a.Carrier+"\x00"+a.Name, b.Carrier+"\x00"+b.Name)
	})
	return out, nil
}

func (c ServiceChoice) is(carrier string, id int) bool {
	return strings.EqualFold(c.Carrier, carrier) && c.ServiceID == id
}
