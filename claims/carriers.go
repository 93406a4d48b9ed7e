package claims

import (
	"context"
	"slices"

	"shipdesk/desk"
	"shipdesk/shopid"
	"shipdesk/storage"
)

// returnPackage is the parcel a customer sends back, as it is ordered.
var returnPackage = desk.Package{Weight: 2, Length: 40, Width: 30, Height: 20}

// CodeCarriers are the carriers a customer may hand a return parcel to with
// a code (the desk's return carriers).
func (s *Service) CodeCarriers(ctx context.Context) ([]storage.Carrier, error) {
	return s.ship.ReturnCarriers(ctx)
}

func (s *Service) takesCode(ctx context.Context, carrier string) bool {
	list, err := s.ship.ReturnCarriers(ctx)
	return err == nil && slices.ContainsFunc(list, func(c storage.Carrier) bool { return c.Code == carrier })
}

// Shop is the shop's name as its customers know it (the shop's identity;
// "" when none is set). The name read is kept for KnownShop.
func (s *Service) Shop(ctx context.Context) string { return s.contact(ctx).Name }

// Contact is how a customer reaches the shop, and whether its pages show
// the shop's logo.
type Contact struct {
	Name, Email, Phone string
	Logo               bool
}

// Face is the shop as its customers' pages show it: name, contact, logo.
func (s *Service) Face(ctx context.Context) Contact { return s.contact(ctx) }

// contact is the shop as its identity has it now: its name, reply address
// and phone (none when it cannot be read).
func (s *Service) contact(ctx context.Context) Contact {
	id, err := shopid.Of(ctx, s.db)
	if err != nil {
		return Contact{}
	}
	c := Contact{Name: id.Name, Email: id.ReplyEmail, Phone: id.Phone, Logo: id.HasLogo()}
	s.shop.Store(&c.Name)
	return c
}

// KnownShop is the shop's name as the last page read it ("" before any),
// without asking the database: the answer to a flood's refused requests.
func (s *Service) KnownShop() string {
	if name := s.shop.Load(); name != nil {
		return *name
	}
	return ""
}
