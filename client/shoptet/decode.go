package shoptet

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// decode reads raw into out as Shoptet's official SDK reads an answer into
// its entities: a member the schema requires must be there, and of its type.
// The wire structs say the schema in Go: a field is required unless its tag
// has omitempty, a pointer is nullable (null leaves it nil), anything else
// refuses null. Members we do not read are skipped (Shoptet adds members
// without notice). Invalid UTF-8 in a text becomes U+FFFD, as encoding/json
// does: the text is passed on, never refused. The answer is read in one pass
// of a streaming tokenizer, so an order costs about what reading it once does.
func decode(raw []byte, out any) error {
	v := reflect.ValueOf(out)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("decode into %T: want a non-nil pointer", out)
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(raw), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	var at path
	if err := decodeValue(dec, planOf(v.Elem().Type()), v.Elem(), &at); err != nil {
		return err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return at.wrong("more after the answer")
	}
	return nil
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

// path is where the decoder is (members and indexes), said only when
// something is wrong there.
type path struct{ steps []step }

type step struct {
	name  string
	index int // -1 for a member
}

func (p *path) member(name string) { p.steps = append(p.steps, step{name, -1}) }
func (p *path) item(i int)         { p.steps = append(p.steps, step{"", i}) }
func (p *path) pop()               { p.steps = p.steps[:len(p.steps)-1] }

func (p *path) wrong(problem string) error {
	var b strings.Builder
	for _, s := range p.steps {
		switch {
		case s.index >= 0:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case b.Len() > 0:
			b.WriteString("." + s.name)
		default:
			b.WriteString(s.name)
		}
	}
	return &wrongShape{b.String(), problem}
}

// A plan decodes one wire type; plans are made once per type (planOf), so
// reading an answer makes no decision twice.
type plan func(dec *jsontext.Decoder, kind jsontext.Kind, v reflect.Value, at *path) error

var plans sync.Map // reflect.Type → plan

var (
	rawType  = reflect.TypeFor[json.RawMessage]()
	timeType = reflect.TypeFor[Time]()
)

func decodeValue(dec *jsontext.Decoder, p plan, v reflect.Value, at *path) error {
	kind := dec.PeekKind()
	if kind == 0 {
		if _, err := dec.ReadToken(); err == io.EOF { // the error PeekKind kept
			return at.wrong("no value")
		}
		return at.wrong("unreadable JSON")
	}
	if kind == 'n' && v.Kind() != reflect.Pointer {
		return at.wrong("null where a value is required")
	}
	return p(dec, kind, v, at)
}

func planOf(t reflect.Type) plan {
	if p, ok := plans.Load(t); ok {
		return p.(plan)
	}
	var p plan
	switch {
	case t == rawType:
		p = decodeRaw
	case t == timeType:
		p = decodeTime
	case t.Kind() == reflect.Pointer:
		p = pointerPlan(t)
	case t.Kind() == reflect.Struct:
		p = structPlan(t)
	case t.Kind() == reflect.Slice:
		p = slicePlan(t)
	default:
		p = scalarPlan(t)
	}
	plans.Store(t, p)
	return p
}

func pointerPlan(t reflect.Type) plan {
	elem := planOf(t.Elem())
	return func(dec *jsontext.Decoder, kind jsontext.Kind, v reflect.Value, at *path) error {
		if kind == 'n' {
			v.SetZero()
			if _, err := dec.ReadToken(); err != nil {
				return at.wrong("unreadable JSON")
			}
			return nil
		}
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return elem(dec, kind, v.Elem(), at)
	}
}

func decodeRaw(dec *jsontext.Decoder, _ jsontext.Kind, v reflect.Value, at *path) error {
	val, err := dec.ReadValue()
	if err != nil {
		return at.wrong("unreadable JSON")
	}
	v.SetBytes(bytes.Clone(val))
	return nil
}

func decodeTime(dec *jsontext.Decoder, kind jsontext.Kind, v reflect.Value, at *path) error {
	if kind != '"' {
		return wrongKind(at, v, kind)
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return at.wrong("unreadable JSON")
	}
	t, err := parseTime(tok.String())
	if err != nil {
		return wrongKind(at, v, kind)
	}
	v.Set(reflect.ValueOf(t))
	return nil
}

// member is a field of a wire struct and how it is read.
type member struct {
	name     string
	index    int
	optional bool
	plan     plan
}

// structPlan reads a wire struct's members by their json tags: required
// unless omitempty; members of other names are skipped.
func structPlan(t reflect.Type) plan {
	var list []member
	byName := map[string]int{}
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if !sf.IsExported() || tag == "-" || tag == "" {
			continue
		}
		if len(list) == 64 {
			panic(t.String() + ": a wire struct of more than 64 members")
		}
		name, opts, _ := strings.Cut(tag, ",")
		byName[name] = len(list)
		list = append(list, member{name: name, index: i, optional: strings.Contains(opts, "omitempty"), plan: planOf(sf.Type)})
	}
	return func(dec *jsontext.Decoder, kind jsontext.Kind, v reflect.Value, at *path) error {
		if kind != '{' {
			return at.wrong("want an object, got " + kindOf(kind))
		}
		if _, err := dec.ReadToken(); err != nil {
			return at.wrong("unreadable JSON")
		}
		var seen uint64
		for dec.PeekKind() != '}' {
			i, ok, err := memberOf(dec, byName)
			if err != nil {
				return at.wrong("unreadable JSON")
			}
			if !ok {
				if err := dec.SkipValue(); err != nil {
					return at.wrong("unreadable JSON")
				}
				continue
			}
			m := list[i]
			at.member(m.name)
			if err := decodeValue(dec, m.plan, v.Field(m.index), at); err != nil {
				return err
			}
			at.pop()
			seen |= 1 << i
		}
		if _, err := dec.ReadToken(); err != nil {
			return at.wrong("unreadable JSON")
		}
		for i, m := range list {
			if seen&(1<<i) == 0 && !m.optional {
				at.member(m.name)
				return at.wrong("missing")
			}
		}
		return nil
	}
}

// memberOf reads a member's name and finds its field; a name without
// escapes is looked up without making a string of it.
func memberOf(dec *jsontext.Decoder, byName map[string]int) (int, bool, error) {
	val, err := dec.ReadValue()
	if err != nil || len(val) < 2 {
		return 0, false, io.ErrUnexpectedEOF
	}
	if bytes.IndexByte(val, '\\') < 0 {
		i, ok := byName[string(val[1:len(val)-1])]
		return i, ok, nil
	}
	var s string
	if err := json.Unmarshal(val, &s); err != nil {
		return 0, false, err
	}
	i, ok := byName[s]
	return i, ok, nil
}

func slicePlan(t reflect.Type) plan {
	elem := planOf(t.Elem())
	zero := reflect.Zero(t.Elem())
	return func(dec *jsontext.Decoder, kind jsontext.Kind, v reflect.Value, at *path) error {
		if kind != '[' {
			return at.wrong("want an array, got " + kindOf(kind))
		}
		if _, err := dec.ReadToken(); err != nil {
			return at.wrong("unreadable JSON")
		}
		s := reflect.MakeSlice(t, 0, 4)
		for n := 0; dec.PeekKind() != ']'; n++ {
			s = reflect.Append(s, zero)
			at.item(n)
			if err := decodeValue(dec, elem, s.Index(n), at); err != nil {
				return err
			}
			at.pop()
		}
		if _, err := dec.ReadToken(); err != nil {
			return at.wrong("unreadable JSON")
		}
		v.Set(s)
		return nil
	}
}

// scalarPlan reads a string, a boolean or a number of its Go kind; an
// integer refuses a fraction.
func scalarPlan(t reflect.Type) plan {
	switch t.Kind() {
	case reflect.String, reflect.Bool:
		str := t.Kind() == reflect.String
		return func(dec *jsontext.Decoder, kind jsontext.Kind, v reflect.Value, at *path) error {
			if str != (kind == '"') || !str && kind != 't' && kind != 'f' {
				return wrongKind(at, v, kind)
			}
			tok, err := dec.ReadToken()
			if err != nil {
				return at.wrong("unreadable JSON")
			}
			if str {
				v.SetString(tok.String())
			} else {
				v.SetBool(tok.Bool())
			}
			return nil
		}
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Float64:
		float := t.Kind() == reflect.Float64
		return func(dec *jsontext.Decoder, kind jsontext.Kind, v reflect.Value, at *path) error {
			if kind != '0' {
				return wrongKind(at, v, kind)
			}
			val, err := dec.ReadValue()
			if err != nil {
				return at.wrong("unreadable JSON")
			}
			if float {
				f, err := strconv.ParseFloat(string(val), 64)
				if err != nil {
					return wrongKind(at, v, kind)
				}
				v.SetFloat(f)
				return nil
			}
			n, err := strconv.ParseInt(string(val), 10, 64)
			if err != nil || v.OverflowInt(n) {
				return wrongKind(at, v, kind)
			}
			v.SetInt(n)
			return nil
		}
	}
	panic(t.String() + ": no plan for a wire type of kind " + t.Kind().String())
}

func wrongKind(at *path, v reflect.Value, kind jsontext.Kind) error {
	return at.wrong(fmt.Sprintf("want %s, got %s", wantOf(v), kindOf(kind)))
}

func kindOf(k jsontext.Kind) string {
	switch k {
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
	if v.Type() == timeType {
		return "a time such as 2024-07-01T12:01:11+0200"
	}
	return v.Type().Name()
}
