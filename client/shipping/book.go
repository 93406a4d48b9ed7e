package shipping

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
	TimeRange string      `json:"time_range"` // HH:MM-HH:MM, when the window comes only so
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
	if from, to, ok := strings.Cut(w.TimeRange, "-"); ok && p.TimeFrom == "" && p.TimeTo == "" {
		p.TimeFrom, p.TimeTo = strings.TrimSpace(from), strings.TrimSpace(to)
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

// AddContact stores a new pickup address and returns its id, sent in the list
// form real clients use ({"contacts": [{…}]}; the new id is data[0]). Not
// retried: a repeat would store the address twice. Field errors name the
// address's fields ("zip", not "contacts[0].zip").
func (c *Client) AddContact(ctx context.Context, a Address) (int64, error) {
	a.ID = 0
	ans, err := c.post(ctx, "contacts/add", map[string][]Address{"contacts": {a}}, false, nil)
	var te *transport.Error
	if errors.As(err, &te) {
		for i := range te.Fields {
			te.Fields[i].Field = strings.TrimPrefix(te.Fields[i].Field, "contacts[0].")
		}
	}
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

// listedPickup is one pickup in the list form real clients send:
// {"pickups": [{"date", "time_range", "address": {"id"}}]} (public-evidence.md),
// with the details the form also states.
type listedPickup struct {
	Date      string `json:"date"`
	TimeRange string `json:"time_range"` // HH:MM-HH:MM
	Address   struct {
		ID int64 `json:"id"`
	} `json:"address"`
	Packages int     `json:"packages,omitempty"`
	Weight   float64 `json:"weight,omitempty"`
	Carrier  string  `json:"carrier,omitempty"`
	Note     string  `json:"note,omitempty"`
}

func (req PickupRequest) listed() map[string][]listedPickup {
	l := listedPickup{Date: req.Date, TimeRange: req.TimeFrom + "-" + req.TimeTo, Packages: req.Packages, Weight: req.Weight, Carrier: req.Carrier, Note: req.Note}
	l.Address.ID = req.AddressID
	return map[string][]listedPickup{"pickups": {l}}
}

// pickupField names a field of the list form's one pickup as PickupRequest
// does: "pickups[0].address" is address_id, a window is its end.
func pickupField(path string) string {
	switch f := strings.TrimPrefix(path, "pickups[0]."); f {
	case "address", "address.id":
		return "address_id"
	case "time_range":
		return "time_to"
	default:
		return f
	}
}

// AddPickup orders a courier pickup in the list form. Not retried: each call
// orders a courier; after an unknown outcome look for the pickup with Pickups
// first. Field errors name PickupRequest's fields.
func (c *Client) AddPickup(ctx context.Context, req PickupRequest) (*Pickup, error) {
	ans, err := c.post(ctx, "pickups/add", req.listed(), false, nil)
	var te *transport.Error
	if errors.As(err, &te) {
		for i := range te.Fields {
			te.Fields[i].Field = pickupField(te.Fields[i].Field)
		}
	}
	if err != nil {
		return nil, err
	}
	var raw json.RawMessage
	if err := ans.Data("pickups/add", &raw); err != nil {
		return nil, err
	}
	// The list form is answered with the list of pickups; one object is read too.
	wires, err := collection[pickupWire](raw, nil)
	if err != nil || len(wires) == 0 {
		var one pickupWire
		if json.Unmarshal(raw, &one) != nil {
			return nil, &transport.Error{Op: "pickups/add", Kind: transport.KindDecode, Status: ans.Status, Message: "the answer names no pickup", Err: err}
		}
		wires = []pickupWire{one}
	}
	p := wires[0].pickup()
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
