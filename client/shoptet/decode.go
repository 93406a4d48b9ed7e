package shoptet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// decode reads raw into out as Shoptet's official SDK reads an answer into
// its entities: a member the schema requires must be there, and of its type.
// The wire structs say the schema in Go: a field is required unless its tag
// has omitempty, a pointer is nullable (null leaves it nil), anything else
// refuses null. Members we do not read are ignored (Shoptet adds members
// without notice). Scalars are checked by encoding/json, so a string where a
// number belongs is an error too. Invalid UTF-8 in a text becomes U+FFFD, as
// encoding/json does: the text is passed on, never refused.
func decode(raw []byte, out any) error {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("decode into %T: want a non-nil pointer", out)
	}
	return decodeValue(raw, v.Elem(), "")
}

// wrongShape is what was wrong with the answer, and where.
type wrongShape struct {
	path, problem string
}

func (e *wrongShape) Error() string {
	if e.path == "" {
		return e.problem
	}
	return e.path + ": " + e.problem
}

var rawType = reflect.TypeFor[json.RawMessage]()

func decodeValue(raw []byte, v reflect.Value, path string) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return &wrongShape{path, "no value"}
	}
	null := bytes.Equal(raw, []byte("null"))
	if v.Kind() == reflect.Pointer {
		if null {
			v.SetZero()
			return nil
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		return decodeValue(raw, v.Elem(), path)
	}
	if null {
		return &wrongShape{path, "null where a value is required"}
	}
	if v.Type() == rawType {
		v.SetBytes(append([]byte(nil), raw...))
		return nil
	}
	if _, ok := v.Addr().Interface().(json.Unmarshaler); ok {
		return scalar(raw, v, path)
	}
	switch v.Kind() {
	case reflect.Struct:
		return decodeStruct(raw, v, path)
	case reflect.Slice:
		if len(raw) == 0 || raw[0] != '[' {
			return &wrongShape{path, "want an array, got " + kindOf(raw)}
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return &wrongShape{path, "unreadable array"}
		}
		s := reflect.MakeSlice(v.Type(), len(items), len(items))
		for i, item := range items {
			if err := decodeValue(item, s.Index(i), path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	}
	return scalar(raw, v, path)
}

// scalar reads a string, number, boolean or a type that reads itself.
func scalar(raw []byte, v reflect.Value, path string) error {
	if err := json.Unmarshal(raw, v.Addr().Interface()); err != nil {
		return &wrongShape{path, fmt.Sprintf("want %s, got %s", wantOf(v), kindOf(raw))}
	}
	return nil
}

func decodeStruct(raw []byte, v reflect.Value, path string) error {
	if raw[0] != '{' {
		return &wrongShape{path, "want an object, got " + kindOf(raw)}
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return &wrongShape{path, "unreadable object"}
	}
	for _, f := range fieldsOf(v.Type()) {
		at := f.name
		if path != "" {
			at = path + "." + f.name
		}
		m, ok := members[f.name]
		if !ok {
			if f.optional {
				continue
			}
			return &wrongShape{at, "missing"}
		}
		if err := decodeValue(m, v.Field(f.index), at); err != nil {
			return err
		}
	}
	return nil
}

type field struct {
	name     string
	index    int
	optional bool
}

var fieldCache sync.Map // reflect.Type → []field

// fieldsOf lists a wire struct's members by their json tags, once per type.
func fieldsOf(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	var fs []field
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if !sf.IsExported() || tag == "-" || tag == "" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fs = append(fs, field{name: name, index: i, optional: strings.Contains(opts, "omitempty")})
	}
	fieldCache.Store(t, fs)
	return fs
}

func kindOf(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func wantOf(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Float64:
		return "a number"
	}
	if v.Type() == reflect.TypeFor[Time]() {
		return "a time such as 2024-07-01T12:01:11+0200"
	}
	return v.Type().Name()
}
