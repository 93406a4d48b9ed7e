package shipping

import "sort"

// bookState is the mutable state of the address book and the courier pickups,
// beside the orders: what Wipe resets and Snapshot keeps.
type bookState struct {
	nextContact int64
	pickups     map[int64]*pickup
	nextPickup  int64
}

// bookSnapshot is bookState and every account's contacts as JSON.
type bookSnapshot struct {
	Contacts    map[int][]contact `json:"contacts"` // by account index
	NextContact int64             `json:"next_contact"`
	Pickups     []pickupStored    `json:"pickups"`
	NextPickup  int64             `json:"next_pickup"`
}

// resetBook gives every account its two default contacts and no pickups.
// The caller holds s.mu.
func (s *Service) resetBook() {
	for _, a := range s.accounts {
		a.Contacts = newAccount(a.Index).Contacts
	}
	s.book = bookState{nextContact: firstAddedContact - 1, pickups: map[int64]*pickup{}}
}

// snapshotBook copies the book for Snapshot. The caller holds s.mu.
func (s *Service) snapshotBook() *bookSnapshot {
	b := &bookSnapshot{Contacts: map[int][]contact{}, NextContact: s.book.nextContact, NextPickup: s.book.nextPickup}
	for _, a := range s.accounts {
		b.Contacts[a.Index] = a.Contacts
	}
	for _, p := range s.book.pickups {
		b.Pickups = append(b.Pickups, pickupStored{pickup: *p, Account: p.Account})
	}
	sort.Slice(b.Pickups, func(i, j int) bool { return b.Pickups[i].ID < b.Pickups[j].ID })
	return b
}

// restoreBook puts a snapshot's book back; an older snapshot without one keeps
// the defaults Wipe set. The caller holds s.mu.
func (s *Service) restoreBook(b *bookSnapshot) {
	if b == nil {
		return
	}
	for _, a := range s.accounts {
		if list, ok := b.Contacts[a.Index]; ok {
			a.Contacts = list
		}
	}
	for _, ps := range b.Pickups {
		p := ps.pickup
		p.Account = ps.Account
		if p.TimeRange == "" { // older snapshots
			p.TimeRange = p.TimeFrom + "-" + p.TimeTo
		}
		if p.Carrier != "" {
			p.Carrier = currentCode(p.Carrier)
		}
		s.book.pickups[p.ID] = &p
	}
	s.book.nextContact = max(b.NextContact, firstAddedContact-1)
	s.book.nextPickup = b.NextPickup
}
