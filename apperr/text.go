package apperr

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"shipdesk/i18n"
)

// Text is what a person reads, said by a key of the message catalog and its
// arguments: domain code says what went wrong, the edge says it in the
// request's language. An argument that is itself a Text is said in the same
// language. A literal Text is no key: the service's own words, shown as the
// service wrote them.
type Text struct {
	Key  string
	Args []any
	kind kind
}

type kind uint8

const (
	keyed    kind = iota
	counted       // Args[0] is the count that picks the plural form
	literal       // Key is the text itself
	word          // Key is a prefix, Args[0] a code: the catalog's word for it, else the code
	joined        // Args are Texts said one after another
	deadline      // Args[0] is a moment, said in the shop's zone (i18n.Deadline)
)

// Msg is the text of key, formatted with args (fmt verbs).
func Msg(key string, args ...any) Text { return Text{Key: key, Args: args} }

// Count is the plural form of key for n, formatted with n and then args.
func Count(key string, n int, args ...any) Text {
	return Text{Key: key, Args: append([]any{n}, args...), kind: counted}
}

// Literal is text that is no key: the service's own message, shown as written.
func Literal(s string) Text { return Text{Key: s, kind: literal} }

// Word is the catalog's word for a code (prefix+code, e.g. a status), or the
// code itself when the catalog has none: the service may send codes we do
// not know yet.
func Word(prefix, code string) Text { return Text{Key: prefix, Args: []any{code}, kind: word} }

// Join says texts one after another, separated by a space.
func Join(texts ...Text) Text {
	args := make([]any, 0, len(texts))
	for _, t := range texts {
		if !t.IsZero() {
			args = append(args, t)
		}
	}
	if len(args) == 1 {
		return args[0].(Text)
	}
	return Text{Args: args, kind: joined}
}

// Deadline is a moment something is awaited until, said where it is read: in
// the shop's time zone and the reader's language (i18n.Deadline), never as
// the zone of the machine that wrote it.
func Deadline(t time.Time) Text { return Text{Args: []any{t}, kind: deadline} }

// IsZero reports whether t says nothing.
func (t Text) IsZero() bool { return t.Key == "" && len(t.Args) == 0 }

// IsLiteral reports whether t is the service's own text rather than a key.
func (t Text) IsLiteral() bool { return t.kind == literal }

// In says t in the language of ctx (i18n.LangOf).
func (t Text) In(ctx context.Context) string {
	switch t.kind {
	case literal:
		return t.Key
	case word:
		code, _ := t.Args[0].(string)
		if code != "" && i18n.Has(t.Key+code) {
			return i18n.T(ctx, t.Key+code)
		}
		return code
	case deadline:
		at, _ := t.Args[0].(time.Time)
		return i18n.Deadline(ctx, at)
	case joined:
		parts := make([]string, 0, len(t.Args))
		for _, a := range t.Args {
			if s := strings.TrimSpace(fmt.Sprint(said(ctx, a))); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, " ")
	}
	if t.Key == "" {
		return ""
	}
	args := make([]any, len(t.Args))
	for i, a := range t.Args {
		args[i] = said(ctx, a)
	}
	if t.kind == counted && len(args) > 0 {
		if n, ok := args[0].(int); ok {
			return i18n.N(ctx, t.Key, n, args[1:]...)
		}
	}
	return i18n.T(ctx, t.Key, args...)
}

func said(ctx context.Context, a any) any {
	if t, ok := a.(Text); ok {
		return t.In(ctx)
	}
	return a
}

// english is the context of the logs and the terminal.
var english = i18n.WithLang(context.Background(), i18n.English)

// String says t in English, for logs, the terminal and the sandbox.
func (t Text) String() string { return t.In(english) }

// Keys lists the catalog keys t uses, its arguments' included (for tests).
func (t Text) Keys() []string {
	var out []string
	switch t.kind {
	case literal:
		return nil
	case keyed, counted:
		if t.Key != "" {
			out = append(out, t.Key)
		}
	}
	for _, a := range t.Args {
		if at, ok := a.(Text); ok {
			out = append(out, at.Keys()...)
		}
	}
	return out
}

// A Text is stored (the reason a shipment was not created, say) as JSON, so
// that it is read in the language of whoever looks later. Arguments keep
// their kind: strings, whole numbers, other numbers, Texts. A stored value
// that is no such JSON (written before texts were stored this way) is shown
// as it is.

type storedText struct {
	Key  string      `json:"k,omitempty"`
	Args []storedArg `json:"a,omitempty"`
	Kind kind        `json:"t,omitempty"`
}

type storedArg struct {
	S *string    `json:"s,omitempty"`
	I *int64     `json:"i,omitempty"`
	F *float64   `json:"f,omitempty"`
	M *time.Time `json:"m,omitempty"`
	T *Text      `json:"x,omitempty"`
}

// MarshalJSON stores t with its arguments' kinds.
func (t Text) MarshalJSON() ([]byte, error) {
	st := storedText{Key: t.Key, Kind: t.kind}
	for _, a := range t.Args {
		var sa storedArg
		switch v := a.(type) {
		case Text:
			sa.T = &v
		case string:
			sa.S = &v
		case int:
			n := int64(v)
			sa.I = &n
		case int64:
			sa.I = &v
		case float64:
			sa.F = &v
		case time.Time:
			sa.M = &v
		default:
			s := fmt.Sprint(v)
			sa.S = &s
		}
		st.Args = append(st.Args, sa)
	}
	return json.Marshal(st)
}

// UnmarshalJSON reads what MarshalJSON stored.
func (t *Text) UnmarshalJSON(b []byte) error {
	var st storedText
	if err := json.Unmarshal(b, &st); err != nil {
		return err
	}
	*t = Text{Key: st.Key, kind: st.Kind}
	for _, sa := range st.Args {
		switch {
		case sa.T != nil:
			t.Args = append(t.Args, *sa.T)
		case sa.S != nil:
			t.Args = append(t.Args, *sa.S)
		case sa.I != nil:
			t.Args = append(t.Args, int(*sa.I))
		case sa.F != nil:
			t.Args = append(t.Args, *sa.F)
		case sa.M != nil:
			t.Args = append(t.Args, *sa.M)
		default:
			t.Args = append(t.Args, "")
		}
	}
	return nil
}

// Value stores t in a text column: "" for no text, else JSON.
func (t Text) Value() (driver.Value, error) {
	if t.IsZero() {
		return "", nil
	}
	b, err := t.MarshalJSON()
	return string(b), err
}

// Scan reads a text column written by Value; other text is a literal.
func (t *Text) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case nil:
	case string:
		s = v
	case []byte:
		s = string(v)
	default:
		return fmt.Errorf("apperr.Text: cannot read %T", src)
	}
	*t = Stored(s)
	return nil
}

// Stored reads a text as Value wrote it; other text is a literal.
func Stored(s string) Text {
	if s == "" {
		return Text{}
	}
	var t Text
	if strings.HasPrefix(s, "{") && json.Unmarshal([]byte(s), &t) == nil && !t.IsZero() {
		return t
	}
	return Literal(s)
}
