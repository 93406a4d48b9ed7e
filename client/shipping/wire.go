package shipping

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"shipdesk/client/transport"
)

// The service answers some things in more than one form: public integrations
// see collections keyed by id and as lists, amounts as numbers and as numeric
// strings, created shipments as tracking-number strings and as objects. The
// decoders here accept every form that has been seen, so that no caller
// depends on one of them.

// UnmarshalJSON reads the value as a JSON number or a numeric string ("500").
func (m *Money) UnmarshalJSON(b []byte) error {
	var raw struct {
		Value    json.RawMessage `json:"value"`
		Currency string          `json:"currency"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	v, err := number(raw.Value)
	if err != nil {
		return fmt.Errorf("money value: %w", err)
	}
	m.Value, m.Currency = v, raw.Currency
	return nil
}

// number reads a JSON number or a string holding one; null or absent is 0.
func number(raw json.RawMessage) (float64, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return 0, nil
	}
	var s string
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, err
		}
	} else {
		s = string(raw)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%.40q is not a number", s)
	}
	return v, nil
}

// collection reads data that is either an object keyed by id or a list, and
// gives each item its key (for a list, the key is empty and setKey is not called).
func collection[T any](raw json.RawMessage, setKey func(item *T, key string)) ([]T, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || bytes.Equal(raw, []byte("null")):
		return nil, nil
	case raw[0] == '[':
		var list []T
		if err := json.Unmarshal(raw, &list); err != nil {
			return nil, err
		}
		return list, nil
	case raw[0] == '{':
		var keyed map[string]T
		if err := json.Unmarshal(raw, &keyed); err != nil {
			return nil, err
		}
		out := make([]T, 0, len(keyed))
		for k, v := range keyed {
			if setKey != nil {
				setKey(&v, k)
			}
			out = append(out, v)
		}
		return out, nil
	}
	return nil, fmt.Errorf("expected an object or a list, got %.20s", raw)
}

// dataCollection reads an answer's data, keyed by id or listed.
func dataCollection[T any](ans *transport.Answer, op string, setKey func(item *T, key string)) ([]T, error) {
	var raw json.RawMessage
	if err := ans.Data(op, &raw); err != nil {
		return nil, err
	}
	list, err := collection(raw, setKey)
	if err != nil {
		return nil, decodeError(op, ans, err)
	}
	return list, nil
}

func decodeError(op string, ans *transport.Answer, err error) error {
	return &transport.Error{Op: op, Kind: transport.KindDecode, Status: ans.Status, Message: "data has the wrong shape", Err: err}
}

// createdShipment is one created shipment: a tracking-number string (the
// provider's published example) or an object (interfaces.md).
type createdShipment struct {
	ShipmentInfo
	onlyNumber bool
}

func (c *createdShipment) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		c.onlyNumber = true
		return json.Unmarshal(b, &c.TrackingNumber)
	}
	return json.Unmarshal(b, &c.ShipmentInfo)
}

// orderField is the create reply's order: the order hash as a string, or (in
// older answers) an object with the hash as its token.
type orderField struct {
	Token  string
	Number string
}

func (o *orderField) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &o.Token)
	}
	var obj struct {
		Token  string `json:"token"`
		Hash   string `json:"hash"`
		Number string `json:"number"`
	}
	if err := json.Unmarshal(b, &obj); err != nil {
		return err
	}
	o.Token, o.Number = cmp.Or(obj.Token, obj.Hash), obj.Number
	return nil
}

// createdReply is the data of shipments/create in any of its forms.
type createdReply struct {
	Order       orderField        `json:"order"`
	OrderNumber string            `json:"order_number"`
	Shipments   []createdShipment `json:"shipments"`
}

// UnmarshalJSON reads lat and lng as numbers or as strings ("50.087"), the
// form of the provider's documented example.
func (l *LatLng) UnmarshalJSON(b []byte) error {
	var raw struct {
		Lat json.RawMessage `json:"lat"`
		Lng json.RawMessage `json:"lng"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	var err error
	if l.Lat, err = number(raw.Lat); err != nil {
		return fmt.Errorf("lat: %w", err)
	}
	if l.Lng, err = number(raw.Lng); err != nil {
		return fmt.Errorf("lng: %w", err)
	}
	return nil
}

// UnmarshalJSON reads is_locker as true/false or as 0/1 (the documented
// example), also quoted.
func (p *ParcelPoint) UnmarshalJSON(b []byte) error {
	type plain ParcelPoint
	var w struct {
		plain
		IsLocker json.RawMessage `json:"is_locker"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*p = ParcelPoint(w.plain)
	switch strings.Trim(string(bytes.TrimSpace(w.IsLocker)), `"`) {
	case "", "null", "0", "false":
		p.IsLocker = false
	case "1", "true":
		p.IsLocker = true
	default:
		return fmt.Errorf("is_locker %.20s is neither 0/1 nor a boolean", w.IsLocker)
	}
	return nil
}
