package shipping

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"shipdesk/client/transport"
)

// The address book (contacts/list, contacts/add) and courier pickups
// (pickups/add, pickups/list). Only the operation names are public; the
// service has been seen answering data both keyed by id and as a plain list,
// with ids as numbers or numeric strings, so every form is read.

// PickupRequest orders a courier to a stored address (a contact's id).
type PickupRequest struct {
	AddressID int64   `json:"address_id"`
	Date      string  `json:"date"`      // YYYY-MM-DD
	TimeFrom  string  `json:"time_from"` // HH:MM
	TimeTo    string  `json:"time_to"`   // HH:MM
	Packages  int     `json:"packages"`
	Weight    float64 `json:"weight"` // kilograms in total
	Carrier   string  `json:"carrier,omitempty"`
	Note      string  `json:"note,omitempty"`
}

// Pickup is an ordered courier pickup.
type Pickup struct {
	ID        int64
	Number    string
	AddressID int64
	Address   Contact
	Date      string
	TimeFrom  string
	TimeTo    string
	Packages  int
	Weight    float64
	Carrier   string
	Note      string
	Status    string
	Created   string // YYYY-MM-DD HH:MM:SS
}

// flexID is an id sent as a number or as a numeric string.
type flexID int64

func (f *flexID) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(bytes.TrimSpace(b)), `"`)
	if s == "" || s == "null" {
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("id %s is not a whole number", b)
	}
	*f = flexID(n)
	return nil
}

type contactWire struct {
	ID flexID `json:"id"`
	Address
	Default bool `json:"default"`
}

func (w contactWire) contact() Contact {
	c := Contact{ID: int64(w.ID), Address: w.Address, Default: w.Default}
	c.Address.ID = 0
	return c
}

type pickupWire struct {
	ID        flexID      `json:"id"`
	Number    string      `json:"number"`
	AddressID flexID      `json:"address_id"`
	Address   contactWire `json:"address"`
	Date      string      `json:"date"`
	TimeFrom  string      `json:"time_from"`
	TimeTo    string      `json:"time_to"`
	Packages  int         `json:"packages"`
	Weight    float64     `json:"weight"`
	Carrier   string      `json:"carrier"`
	Note      string      `json:"note"`
	Status    string      `json:"status"`
	Created   string      `json:"created"`
}

func (w pickupWire) pickup() Pickup {
	p := Pickup{ID: int64(w.ID), Number: w.Number, AddressID: int64(w.AddressID), Address: w.Address.contact(),
		Date: w.Date, TimeFrom: w.TimeFrom, TimeTo: w.TimeTo, Packages: w.Packages, Weight: w.Weight,
		Carrier: w.Carrier, Note: w.Note, Status: w.Status, Created: w.Created}
	if p.AddressID == 0 {
		p.AddressID = p.Address.ID
	}
	return p
}

// keyID gives a keyed item its id from the key when the item names none.
func keyID(id *flexID, key string) {
	if *id == 0 {
		n, _ := strconv.ParseInt(key, 10, 64)
		*id = flexID(n)
	}
}

// Contacts returns the stored pickup addresses in id order.
func (c *Client) Contacts(ctx context.Context) ([]Contact, error) {
	ans, err := c.get(ctx, "contacts/list", nil)
	if err != nil {
		return nil, err
	}
	wires, err := dataCollection(ans, "contacts/list", func(w *contactWire, key string) { keyID(&w.ID, key) })
	if err != nil {
		return nil, err
	}
	out := make([]Contact, 0, len(wires))
	for _, w := range wires {
		out = append(out, w.contact())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// AddContact stores a new pickup address and returns its id. Not retried: a
// repeat would store the address twice.
func (c *Client) AddContact(ctx context.Context, a Address) (int64, error) {
	a.ID = 0
	ans, err := c.post(ctx, "contacts/add", a, false, nil)
	if err != nil {
		return 0, err
	}
	var raw json.RawMessage
	if err := ans.Data("contacts/add", &raw); err != nil {
		return 0, err
	}
	var ids []flexID
	if err := json.Unmarshal(raw, &ids); err != nil {
		var one flexID // a lone id instead of a list
		if json.Unmarshal(raw, &one) == nil && one > 0 {
			return int64(one), nil
		}
		return 0, &transport.Error{Op: "contacts/add", Kind: transport.KindDecode, Status: ans.Status, Message: "data does not start with the new id", Err: err}
	}
	if len(ids) == 0 || ids[0] <= 0 {
		return 0, &transport.Error{Op: "contacts/add", Kind: transport.KindDecode, Status: ans.Status, Message: "data does not start with the new id"}
	}
	return int64(ids[0]), nil
}

// AddPickup orders a courier pickup. Not retried: each call orders a courier;
// after an unknown outcome look for the pickup with Pickups first.
func (c *Client) AddPickup(ctx context.Context, req PickupRequest) (*Pickup, error) {
	ans, err := c.post(ctx, "pickups/add", req, false, nil)
	if err != nil {
		return nil, err
	}
	var w pickupWire
	if err := ans.Data("pickups/add", &w); err != nil {
		return nil, err
	}
	p := w.pickup()
	if p.ID == 0 && p.Number == "" {
		return nil, &transport.Error{Op: "pickups/add", Kind: transport.KindDecode, Status: ans.Status, Message: "the answer names no pickup"}
	}
	return &p, nil
}

// Pickups lists the account's pickups with a date from from to to (YYYY-MM-DD,
// inclusive; empty: no limit), by date and window.
func (c *Client) Pickups(ctx context.Context, from, to string) ([]Pickup, error) {
	q := url.Values{}
	if from != "" {
		q.Set("date_from", from)
	}
	if to != "" {
		q.Set("date_to", to)
	}
	ans, err := c.get(ctx, "pickups/list", q)
	if err != nil {
		return nil, err
	}
	wires, err := dataCollection(ans, "pickups/list", func(w *pickupWire, key string) { keyID(&w.ID, key) })
	if err != nil {
		return nil, err
	}
	out := make([]Pickup, 0, len(wires))
	for _, w := range wires {
		out = append(out, w.pickup())
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Date != b.Date {
			return a.Date < b.Date
		}
		if a.TimeFrom != b.TimeFrom {
			return a.TimeFrom < b.TimeFrom
		}
		return a.ID < b.ID
	})
	return out, nil
}
