package transport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// Envelope is the common frame of every answer: status, message and, on errors,
// the field errors.
type Envelope struct {
	Status  int          `json:"status"`
	Message string       `json:"message"`
	Errors  []FieldError `json:"errors"`
}

// DecodeEnvelope reads the frame of an answer. It insists on a JSON object whose
// status is a number, so an HTML page or a truncated body is never taken as data.
// The object is read in one pass, its other members (data) checked and skipped,
// not copied: a client reads its data once, itself.
func DecodeEnvelope(raw []byte) (Envelope, error) {
	members, err := topLevel(raw, "status", "message", "errors")
	if err != nil {
		return Envelope{}, err
	}
	var env Envelope
	if s, ok := members["status"]; ok {
		if err := json.Unmarshal(s, &env.Status); err != nil {
			return Envelope{}, fmt.Errorf("status is not a number: %s", clip(s))
		}
	}
	if m, ok := members["message"]; ok && !isNull(m) {
		if err := json.Unmarshal(m, &env.Message); err != nil {
			return Envelope{}, fmt.Errorf("message is not a string: %s", clip(m))
		}
	}
	if e, ok := members["errors"]; ok && !isNull(e) {
		env.Errors = decodeFieldErrors(e)
	}
	return env, nil
}

// topLevel checks that raw is one JSON object and returns the named members
// (the last of a name that comes twice), raw.
func topLevel(raw []byte, names ...string) (map[string][]byte, error) {
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	notObject := func(err error) error {
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return fmt.Errorf("not a JSON object: %w", err)
	}
	switch dec.PeekKind() {
	case '{':
	case 'n':
		return nil, errors.New("not a JSON object: null")
	default:
		_, err := dec.ReadValue()
		if err == nil {
			err = errors.New("another value")
		}
		return nil, notObject(err)
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, notObject(err)
	}
	out := map[string][]byte{}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return nil, notObject(err)
		}
		name := tok.String() // a token is good until the next read
		if !slices.Contains(names, name) {
			if err := dec.SkipValue(); err != nil {
				return nil, notObject(err)
			}
			continue
		}
		val, err := dec.ReadValue()
		if err != nil {
			return nil, notObject(err)
		}
		out[name] = bytes.Clone(val)
	}
	if _, err := dec.ReadToken(); err != nil {
		return nil, notObject(err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return nil, notObject(errors.New("more after the object"))
	}
	return out, nil
}

// decodeFieldErrors accepts the documented list of {field, message} and, so a
// refusal is never lost, also a list of strings or an object: field → message
// or messages, or (pickups/add) "0", "1"… → {field, message} beside them.
func decodeFieldErrors(raw json.RawMessage) []FieldError {
	var list []FieldError
	if err := json.Unmarshal(raw, &list); err == nil {
		return list
	}
	var texts []string
	if err := json.Unmarshal(raw, &texts); err == nil {
		for _, t := range texts {
			list = append(list, FieldError{Message: t})
		}
		return list
	}
	var byField map[string]json.RawMessage
	if err := json.Unmarshal(raw, &byField); err == nil {
		if indexed := indexedFieldErrors(byField); len(indexed) > 0 {
			return indexed
		}
		for f, m := range byField {
			var texts []string
			if json.Unmarshal(m, &texts) == nil {
				for _, t := range texts {
					list = append(list, FieldError{Field: f, Message: t})
				}
				continue
			}
			var text string
			if json.Unmarshal(m, &text) != nil {
				text = string(m)
			}
			list = append(list, FieldError{Field: f, Message: text})
		}
		sort.SliceStable(list, func(i, j int) bool { return list[i].Field < list[j].Field })
		return list
	}
	return []FieldError{{Message: "unreadable errors: " + clip(raw)}}
}

// indexedFieldErrors reads the members "0", "1"… of an errors object, each
// {field, message}, in order; it stops at the first missing index.
func indexedFieldErrors(byField map[string]json.RawMessage) []FieldError {
	var list []FieldError
	for i := 0; ; i++ {
		raw, ok := byField[strconv.Itoa(i)]
		var fe FieldError
		if !ok || json.Unmarshal(raw, &fe) != nil || fe.Message == "" {
			return list
		}
		list = append(list, fe)
	}
}

func isNull(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("null")) }

func clip(raw []byte) string {
	const n = 60
	if len(raw) > n {
		return string(raw[:n]) + "…"
	}
	return string(raw)
}

// Field decodes one top-level member of the answer into out. A missing or null
// member is an error that names what was expected, never a zero value taken as data.
func (a *Answer) Field(op, name string, out any) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(a.Body, &fields); err != nil {
		return &Error{Op: op, Kind: KindDecode, Status: a.Status, Message: "not a JSON object", Err: err}
	}
	raw, ok := fields[name]
	if !ok || isNull(raw) {
		return &Error{Op: op, Kind: KindDecode, Status: a.Status, Message: fmt.Sprintf("expected %q in the answer", name)}
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return &Error{Op: op, Kind: KindDecode, Status: a.Status, Message: fmt.Sprintf("%q has the wrong shape", name), Err: err}
	}
	return nil
}

// Data decodes the answer's data member.
func (a *Answer) Data(op string, out any) error { return a.Field(op, "data", out) }

// Whole decodes the whole answer (for interfaces that answer without a data member).
func (a *Answer) Whole(op string, out any) error {
	if err := json.Unmarshal(a.Body, out); err != nil {
		return &Error{Op: op, Kind: KindDecode, Status: a.Status, Message: "the answer has the wrong shape", Err: err}
	}
	return nil
}
