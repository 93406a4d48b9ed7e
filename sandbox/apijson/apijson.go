// Package apijson writes and reads the JSON envelope every sandbox interface uses:
// {status, message, data} on success and {status, message, errors[{field, message}]}
// on failure, the status always equal to the HTTP status (public-evidence.md).
package apijson

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// FieldError names the request field a problem concerns, as a path such as
// "shipments[0].label_less". A general error has no field.
type FieldError struct {
	Field   string `json:"field,omitempty"`
	Message string `json:"message"` // said from Text in the answer's language when set
	Text    Text   `json:"-"`
}

// Err is a field error said by a phrase.
func Err(field string, p Phrase, args ...any) FieldError {
	return FieldError{Field: field, Text: p.With(args...)}
}

// In is the error as answered in lang.
func (e FieldError) In(lang Lang) FieldError {
	if !e.Text.IsZero() {
		e.Message = e.Text.In(lang)
	}
	return e
}

// ErrorsIn says a list of field errors in lang (warnings kept with data, too).
func ErrorsIn(errs []FieldError, lang Lang) []FieldError {
	if errs == nil {
		return nil
	}
	out := make([]FieldError, len(errs))
	for i, e := range errs {
		out[i] = e.In(lang)
	}
	return out
}

// Envelope is the body of every answer.
type Envelope struct {
	Status  int          `json:"status"`
	Message string       `json:"message"`
	Data    any          `json:"data,omitempty"`
	Errors  []FieldError `json:"errors,omitempty"`
}

// Problem is a refusal to be written as an error envelope.
type Problem struct {
	Status  int
	Message Text
	Errors  []FieldError
}

func (p *Problem) Error() string {
	if len(p.Errors) == 0 {
		return fmt.Sprintf("%d %s", p.Status, p.Message)
	}
	parts := make([]string, 0, len(p.Errors))
	for _, e := range p.Errors {
		parts = append(parts, e.Field+": "+e.In(English).Message)
	}
	return fmt.Sprintf("%d %s (%s)", p.Status, p.Message, strings.Join(parts, "; "))
}

// Invalid is a 400 with field errors.
func Invalid(errs ...FieldError) *Problem {
	return &Problem{Status: http.StatusBadRequest, Message: msgValidationFailed.With(), Errors: errs}
}

// Fail is a problem without fields, said by a phrase.
func Fail(status int, p Phrase, args ...any) *Problem {
	return &Problem{Status: status, Message: p.With(args...)}
}

// Write sends a success envelope with data, its message in the request's
// language.
func Write(w http.ResponseWriter, r *http.Request, status int, message Text, data any) {
	WriteRaw(w, r, status, Envelope{Status: status, Message: message.In(LangOf(r)), Data: data})
}

// WriteProblem sends an error envelope in the request's language.
func WriteProblem(w http.ResponseWriter, r *http.Request, p *Problem) {
	lang := LangOf(r)
	WriteRaw(w, r, p.Status, Envelope{Status: p.Status, Message: p.Message.In(lang), Errors: ErrorsIn(p.Errors, lang)})
}

// WriteRaw sends any JSON value (for answers whose top level is not the plain
// envelope, such as rates/get with its top-level "rates" list), saying which
// language its texts are in.
func WriteRaw(w http.ResponseWriter, r *http.Request, status int, body any) {
	w.Header().Set("Content-Language", LangOf(r).Tag())
	w.Header().Add("Vary", "Accept-Language")
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(body)
}

// Decode reads a JSON request body of at most maxBytes into dst. Malformed JSON,
// a wrong type or trailing data give a 400 naming the field; an oversized body a 413.
// Unknown fields are ignored, as real integrations send extra ones.
func Decode(w http.ResponseWriter, r *http.Request, maxBytes int64, dst any) *Problem {
	if ct := r.Header.Get("Content-Type"); ct != "" && !strings.HasPrefix(strings.ToLower(ct), "application/json") {
		return Fail(http.StatusUnsupportedMediaType, msgContentType)
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBytes))
	if err := dec.Decode(dst); err != nil {
		return decodeProblem(err)
	}
	if err := dec.Decode(&struct{}{}); !errors.Is(err, io.EOF) {
		return Invalid(Err("", msgOneValue))
	}
	return nil
}

func decodeProblem(err error) *Problem {
	var (
		maxErr    *http.MaxBytesError
		syntaxErr *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &maxErr):
		return Fail(http.StatusRequestEntityTooLarge, msgTooLarge, maxErr.Limit)
	case errors.Is(err, io.EOF):
		return Invalid(Err("", msgEmpty))
	case errors.As(err, &syntaxErr):
		return Invalid(Err("", msgMalformedAt, syntaxErr.Offset))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Invalid(Err("", msgEndsEarly))
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			field = "body"
		}
		return Invalid(Err(jsonPath(field), msgWrongType, kindOf(typeErr.Type.Kind().String()), typeErr.Value))
	default:
		return Invalid(Err("", msgMalformed, err.Error()))
	}
}

// jsonPath turns a dotted path with numeric parts ("shipments.0.packages") into
// "shipments[0].packages"; encoding/json itself names the field without indices.
func jsonPath(field string) string {
	parts := strings.Split(field, ".")
	var b strings.Builder
	for i, p := range parts {
		if p != "" && strings.Trim(p, "0123456789") == "" && i > 0 {
			b.WriteString("[" + p + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// kindOf names a JSON kind for a person.
func kindOf(kind string) Text {
	switch kind {
	case "int", "int64", "int32", "float64", "float32", "uint", "uint64":
		return kindNumber.With()
	case "bool":
		return kindBool.With()
	case "slice", "array":
		return kindList.With()
	case "map", "struct":
		return kindObject.With()
	case "string":
		return kindString.With()
	}
	return Same(kind)
}
