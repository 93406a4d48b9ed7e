package claims

import (
	"context"
	"slices"

	"shipdesk/desk"
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

// Shop is the shop's name as its customers know it: the company of the
// address book's first sender. The name read is kept for KnownShop.
func (s *Service) Shop(ctx context.Context) string { return s.contact(ctx).Name }

// Contact is how a customer reaches the shop.
type Contact struct{ Name, Email, Phone string }

// contact is the shop as the address book has it now: the first sender's
// name, e-mail and phone (none when the book is empty).
func (s *Service) contact(ctx context.Context) Contact {
	senders, err := s.db.Senders(ctx)
	if err != nil || len(senders) == 0 {
		return Contact{}
	}
	a := senders[0].Address
	c := Contact{Name: a.PartyName(), Email: a.Email, Phone: a.Phone}
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
